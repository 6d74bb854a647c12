import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import { unwrap, type VendureClient } from './vendure-client';
import type { OptionGroupPlan } from './vendure-record';

/**
 * A product's option groups and variants brought to what the record says: groups the record
 * no longer has are detached first (Vendure then wants one option fewer per variant), new
 * groups and options are added, variants the record no longer has are deleted, the others
 * updated and the new ones created, so the variant SKUs of the product are exactly the record's.
 */
export interface ShopOptionGroup {
  id: string;
  code: string;
  options: { id: string; code: string }[];
}

export interface ShopProduct {
  id: string;
  customFields: { pimSku: string | null };
  assets: { id: string }[];
  featuredAsset?: { id: string } | null;
  optionGroups: ShopOptionGroup[];
  variants: { id: string; sku: string }[];
}

export const PRODUCT_FIELDS = `id customFields { pimSku } assets { id } featuredAsset { id }
  optionGroups { id code options { id code } }
  variants { id sku }`;

/** The Vendure input of one variant, without its options and product id. */
export type VariantInput = Record<string, unknown> & { sku: string };

export const CREATE_GROUP_FIELDS = 'id code options { id code }';
const CREATE_GROUP = `mutation CreateGroup($input: CreateProductOptionGroupInput!) {
  createProductOptionGroup(input: $input) { id code options { id code } }
}`;
const ADD_GROUP = `mutation AddGroup($productId: ID!, $groupId: ID!) {
  addOptionGroupToProduct(productId: $productId, optionGroupId: $groupId) { id }
}`;
const REMOVE_GROUP = `mutation RemoveGroup($productId: ID!, $groupId: ID!) {
  removeOptionGroupFromProduct(productId: $productId, optionGroupId: $groupId, force: true) {
    ... on Product { id } ... on ErrorResult { errorCode message }
  }
}`;
const DELETE_GROUP = `mutation DeleteGroup($id: ID!) { deleteProductOptionGroup(id: $id, force: true) { result message } }`;
const CREATE_OPTION = `mutation CreateOption($input: CreateProductOptionInput!) { createProductOption(input: $input) { id code } }`;
const DELETE_VARIANTS = `mutation DeleteVariants($ids: [ID!]!) { deleteProductVariants(ids: $ids) { result message } }`;
export const UPDATE_VARIANTS = `mutation UpdateVariants($input: [UpdateProductVariantInput!]!) { updateProductVariants(input: $input) { id sku } }`;
export const CREATE_VARIANTS = `mutation CreateVariants($input: [CreateProductVariantInput!]!) { createProductVariants(input: $input) { id sku } }`;

export async function syncVariants(
  client: VendureClient,
  shop: ShopProduct,
  plans: OptionGroupPlan[],
  inputs: VariantInput[],
  locales: string[],
): Promise<Record<string, string>> {
  const wanted = new Set(plans.map((p) => p.code));
  for (const group of shop.optionGroups.filter((g) => !wanted.has(g.code))) {
    unwrap(
      (
        await client.query<{ removeOptionGroupFromProduct: object }>(REMOVE_GROUP, {
          productId: shop.id,
          groupId: group.id,
        })
      ).removeOptionGroupFromProduct,
    );
    await client.query(DELETE_GROUP, { id: group.id });
  }

  // Option id per variant SKU, one per group in the plans' order.
  const optionIds = new Map<string, string[]>(inputs.map((v) => [v.sku, []]));
  for (const plan of plans) {
    let group: ShopOptionGroup | undefined = shop.optionGroups.find((g) => g.code === plan.code);
    const options = [...new Map([...plan.options.values()].map((o) => [o.code, o])).values()];
    if (!group) {
      const created = await client.create<{ createProductOptionGroup: ShopOptionGroup }>(CREATE_GROUP, {
        input: groupInput(plan, locales),
      });
      group = created.createProductOptionGroup;
      const added = await client.query<{ addOptionGroupToProduct: object }>(ADD_GROUP, {
        productId: shop.id,
        groupId: group.id,
      });
      unwrap(added.addOptionGroupToProduct);
    }
    const byCode = new Map(group.options.map((o) => [o.code, o.id]));
    for (const o of options.filter((x) => !byCode.has(x.code))) {
      const created = await client.create<{ createProductOption: { id: string; code: string } }>(CREATE_OPTION, {
        input: {
          productOptionGroupId: group.id,
          code: o.code,
          translations: locales.map((languageCode) => ({ languageCode, name: o.name })),
        },
      });
      byCode.set(o.code, created.createProductOption.id);
    }
    for (const [sku, option] of plan.options) optionIds.get(sku)?.push(byCode.get(option.code) as string);
  }

  const existing = new Map(shop.variants.map((v) => [v.sku, v.id]));
  const wantedSkus = new Set(inputs.map((v) => v.sku));
  const removed = shop.variants.filter((v) => !wantedSkus.has(v.sku)).map((v) => v.id);
  if (removed.length > 0) await client.query(DELETE_VARIANTS, { ids: removed });

  const ids: Record<string, string> = {};
  const updates = inputs.filter((v) => existing.has(v.sku));
  if (updates.length > 0) {
    const input = updates.map((v) => ({ ...v, id: existing.get(v.sku), optionIds: optionIds.get(v.sku) }));
    const updated = await client.query<{ updateProductVariants: { id: string; sku: string }[] }>(UPDATE_VARIANTS, {
      input,
    });
    for (const v of updated.updateProductVariants) ids[v.sku] = v.id;
  }
  const creates = inputs.filter((v) => !existing.has(v.sku));
  if (creates.length > 0) {
    const input = creates.map((v) => ({ ...v, productId: shop.id, optionIds: optionIds.get(v.sku) }));
    const created = await client.create<{ createProductVariants: { id: string; sku: string }[] }>(CREATE_VARIANTS, {
      input,
    });
    for (const v of created.createProductVariants) ids[v.sku] = v.id;
  }
  return ids;
}

/** A new option group with all the plan's options, in Vendure's `CreateProductOptionGroupInput`. */
export function groupInput(plan: OptionGroupPlan, locales: string[]) {
  const options = [...new Map([...plan.options.values()].map((o) => [o.code, o])).values()];
  return {
    code: plan.code,
    translations: locales.map((languageCode) => ({ languageCode, name: plan.name })),
    options: options.map((o) => ({
      code: o.code,
      translations: locales.map((languageCode) => ({ languageCode, name: o.name })),
    })),
  };
}

/**
 * The option ids per variant SKU, one per plan in the plans' order, from the product's option
 * groups as they are (every group and option must exist: `syncVariants` creates the missing).
 */
export function optionIdsOf(shop: ShopProduct, plans: OptionGroupPlan[]): Map<string, string[]> {
  const optionIds = new Map<string, string[]>();
  for (const plan of plans) {
    const group = shop.optionGroups.find((g) => g.code === plan.code);
    const byCode = new Map(group?.options.map((o) => [o.code, o.id]) ?? []);
    for (const [sku, option] of plan.options) {
      const id = byCode.get(option.code);
      if (id) optionIds.set(sku, [...(optionIds.get(sku) ?? []), id]);
    }
  }
  return optionIds;
}

/** The nodes that become Vendure variants: the variants, or the master itself when it has none. */
export function variantNodes(sku: string, product: Product): Variant[] {
  return product.variants.length > 0 ? product.variants : [{ ...product, sku }];
}
