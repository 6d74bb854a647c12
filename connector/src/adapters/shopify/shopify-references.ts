import type { Product } from '../../../../src/sync/protocol/wire';
import type { RecordOutcome, TargetIds, TargetMapping, TargetRecord, WriteContext } from '../target-adapter';
import { referencesBySku } from '../common/references';
import { METAFIELDS_SET } from './shopify-documents';
import { failOn, failureOf, type UserErrors } from './shopify-failure';
import type { PimMetafield } from './shopify-features';
import type { ShopifyGraphql } from './shopify-graphql';

/** `TargetIds.extra` key: the referenced SKUs the shop did not hold when the product was written (JSON array). */
export const PENDING_REFERENCES = 'pendingReferences';

/** Shopify takes at most 25 metafields per metafieldsSet. */
const METAFIELDS_PER_SET = 25;

/** The product's metafield key of a reference type: letters, digits, `-` and `_`, at most 64 characters. */
export function referenceKey(type: string): string {
  return `references_${type.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

export interface ReferenceFields {
  /** One `list.product_reference` metafield per reference type with at least one product in the shop. */
  fields: PimMetafield[];
  /** The referenced SKUs the shop does not hold yet, sorted. */
  pending: string[];
}

/**
 * A master's references as Shopify metafields (docs/shops-shopify.md "References"): per
 * reference type one `pim.references_<type>` of type `list.product_reference` holding the
 * product GIDs of the referenced masters, in the record's order, each once, never the product
 * itself. A referenced SKU is resolved by `productIdOf` (the products written in this chunk,
 * else the mirror); one the shop does not hold yet is left out and named in `pending`, and the
 * list is completed when that product is created (`completeReferences`). A type none of whose
 * products is in the shop has no metafield (the stale-key removal deletes one written before).
 */
export function referenceFields(
  sku: string,
  product: Product,
  mapping: TargetMapping,
  productIdOf: (sku: string) => string | undefined,
): ReferenceFields {
  if (!mapping.references) return { fields: [], pending: [] };
  const byKey = new Map<string, string[]>();
  const pending = new Set<string>();
  for (const reference of product.references ?? []) {
    if (reference.sku === sku) continue;
    const id = productIdOf(reference.sku);
    if (!id) {
      pending.add(reference.sku);
      continue;
    }
    const key = referenceKey(reference.type);
    const ids = byKey.get(key) ?? [];
    if (!ids.includes(id)) ids.push(id);
    byKey.set(key, ids);
  }
  return {
    fields: [...byKey].map(([key, ids]) => ({ key, type: 'list.product_reference', value: JSON.stringify(ids) })),
    pending: [...pending].sort(),
  };
}

/** The SKUs of a product's references; with `pendingOnly`, those still waiting for their product (from its ids). */
export function pendingOf(ids: TargetIds | null): string[] {
  const text = ids?.extra?.[PENDING_REFERENCES];
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((value): value is string => typeof value === 'string') : [];
  } catch {
    return [];
  }
}

/** `ids` with its pending references replaced (the key left out when none are pending). */
export function withPending(ids: TargetIds, pending: string[]): TargetIds {
  const { [PENDING_REFERENCES]: _, ...extra } = ids.extra ?? {};
  return { ...ids, extra: pending.length > 0 ? { ...extra, [PENDING_REFERENCES]: JSON.stringify(pending) } : extra };
}

/** A product written before whose references wait for products the shop holds now. */
export interface Referencing {
  sku: string;
  ids: TargetIds;
  product: Product;
}

/**
 * Completes the reference metafields of products written before the products they reference
 * existed: each list is computed again from the product as last written and set with
 * metafieldsSet (25 per request). Answers each product's references still pending. Only lists
 * change, never the rest of the product, and only when one of their products was just made:
 * a run that creates nothing calls nothing here.
 */
export async function completeReferences(
  gql: ShopifyGraphql,
  products: Referencing[],
  mapping: TargetMapping,
  productIdOf: (sku: string) => string | undefined,
): Promise<Map<string, string[]>> {
  const pending = new Map<string, string[]>();
  const inputs: { ownerId: string; namespace: string; key: string; type: string; value: string }[] = [];
  for (const { sku, ids, product } of products) {
    const resolved = referenceFields(sku, product, mapping, productIdOf);
    pending.set(sku, resolved.pending);
    for (const field of resolved.fields) inputs.push({ ownerId: ids.product, namespace: 'pim', ...field });
  }
  for (let i = 0; i < inputs.length; i += METAFIELDS_PER_SET) {
    const result = await gql.request<{ metafieldsSet: UserErrors | null }>(METAFIELDS_SET, {
      metafields: inputs.slice(i, i + METAFIELDS_PER_SET),
    });
    failOn('product.references', result, result.data?.metafieldsSet);
  }
  return pending;
}

/**
 * Products written before the masters they reference existed get those references once the
 * masters are made (docs/shops-shopify.md "References"): the ones of this chunk from their
 * outcomes, earlier ones from the mirror (`ctx.referencing`). A failure fails the records it
 * concerns, retryable: the referencing records of this chunk, else the new masters (whose
 * retry, found again by SKU, completes the references again). `mirrored` is the map behind
 * `productIdOf`: the mirror ids of the listed products' references are added to it.
 */
export async function completePending(
  gql: ShopifyGraphql,
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: WriteContext,
  productIdOf: (sku: string) => string | undefined,
  mirrored: Map<string, TargetIds>,
) {
  const byIndex = new Map(targets.map((target) => [target.index, target]));
  const made = new Set(
    outcomes.flatMap((outcome) => {
      const target = byIndex.get(outcome.index)!;
      const isNew =
        outcome.ok && target.record.op !== 'deactivate' && (outcome.action === 'created' || !target.previous);
      return isNew ? [target.record.sku] : [];
    }),
  );
  if (made.size === 0) return;
  const inChunk = outcomes.flatMap((outcome) => {
    const target = byIndex.get(outcome.index)!;
    if (!outcome.ok || !outcome.ids || !target.record.product) return [];
    if (!pendingOf(outcome.ids).some((sku) => made.has(sku))) return [];
    return [{ outcome, referencing: { sku: target.record.sku, ids: outcome.ids, product: target.record.product } }];
  });
  const chunkSkus = new Set(targets.map((target) => target.record.sku));
  // Their references by manufacturer number as the mirror keeps them, by SKU again (common/references.ts).
  const earlier = await referencesBySku(
    (await ctx.referencing([...made])).filter((row) => !chunkSkus.has(row.sku)),
    ctx,
  );
  const products = [...inChunk.map((entry) => entry.referencing), ...earlier];
  if (products.length === 0) return;
  const unknown = [...new Set(products.flatMap((row) => row.product.references?.map((ref) => ref.sku) ?? []))].filter(
    (sku) => productIdOf(sku) === undefined,
  );
  for (const [sku, ids] of unknown.length > 0 ? await ctx.idsOf(unknown) : []) mirrored.set(sku, ids);
  try {
    const pending = await completeReferences(gql, products, ctx.mapping, productIdOf);
    for (const { outcome, referencing } of inChunk) {
      if (outcome.ok && outcome.ids) outcome.ids = withPending(outcome.ids, pending.get(referencing.sku) ?? []);
    }
  } catch (error) {
    const failure = (index: number) => {
      const failed = failureOf(index, error);
      return failed.ok ? failed : { ...failed, field: 'product.references', retryable: true };
    };
    const concerned = new Set(
      earlier.length > 0
        ? outcomes.filter((outcome) => made.has(byIndex.get(outcome.index)!.record.sku)).map((o) => o.index)
        : inChunk.map((entry) => entry.outcome.index),
    );
    for (const entry of inChunk) concerned.add(entry.outcome.index);
    for (const [i, outcome] of outcomes.entries())
      if (concerned.has(outcome.index)) outcomes[i] = failure(outcome.index);
  }
}
