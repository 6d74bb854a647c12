import type { Product } from '../../../../src/sync/protocol/wire';
import { type CategoryImage, CategoryImageRefused, categoryImage } from '../common/category-image';
import { imagesFor } from '../common/images';
import { MediaError } from '../../media/media-bytes';
import { localesOf } from '../common/texts';
import type { RecordOutcome, TargetIds, TargetRecord, WriteContext } from '../target-adapter';
import { ensureAssets, ensureLinkAsset } from './vendure-assets';
import { type Catalog, refKey } from './vendure-catalog';
import { unwrap, type VendureClient, VendureRefusal } from './vendure-client';
import {
  categoryValue,
  channelPrice,
  type FacetValueRef,
  featureValues,
  optionGroups,
  productSlug,
  textOf,
  unitValue,
} from './vendure-record';
import { PRODUCT_FIELDS, type ShopProduct, syncVariants, type VariantInput, variantNodes } from './vendure-variants';

/** What one record's write needs besides the record: the client, the batch's catalog, the shop's facts. */
export interface WriteDeps {
  client: VendureClient;
  catalog: Catalog;
  ctx: WriteContext;
  /** Vendure language codes to write: the mapped ones and the channel's default language. */
  channelLanguage: string;
  /** Tax category id -> rate, for prices shown with tax. */
  taxRates: Map<string, number>;
}

/** Raised inside a write to name the record's field a refusal belongs to. */
class FieldRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const PRODUCT_BY_ID = `query Product($id: ID!) { product(id: $id) { ${PRODUCT_FIELDS} } }`;
export const PRODUCT_BY_SKU = `query ProductBySku($skus: [String!]) {
  products(options: { filter: { pimSku: { in: $skus } }, take: 100 }) { items { ${PRODUCT_FIELDS} } }
}`;
const VARIANTS_BY_SKU = `query VariantsBySku($skus: [String!]) {
  productVariants(options: { filter: { sku: { in: $skus } }, take: 100 }) { items { sku product { id customFields { pimSku } } } }
}`;
const CREATE_PRODUCT = `mutation CreateProduct($input: CreateProductInput!) { createProduct(input: $input) { ${PRODUCT_FIELDS} } }`;
const UPDATE_PRODUCT = `mutation UpdateProduct($input: UpdateProductInput!) { updateProduct(input: $input) { ${PRODUCT_FIELDS} } }`;
const DELETE_PRODUCT = `mutation DeleteProduct($id: ID!) { deleteProduct(id: $id) { result message } }`;

/** The product the record's SKU names in the shop: by the mirror's id, else by `pimSku`; null when there is none. */
async function findProduct(client: VendureClient, sku: string, known: TargetIds | null): Promise<ShopProduct | null> {
  if (known) {
    const byId = await client.query<{ product: ShopProduct | null }>(PRODUCT_BY_ID, { id: known.product });
    if (byId.product?.customFields.pimSku === sku) return byId.product;
  }
  const bySku = await client.query<{ products: { items: ShopProduct[] } }>(PRODUCT_BY_SKU, { skus: [sku] });
  return bySku.products.items[0] ?? null;
}

export async function writeRecord(deps: WriteDeps, target: TargetRecord): Promise<RecordOutcome> {
  const { record, index } = target;
  try {
    const shop = await findProduct(deps.client, record.sku, target.known);
    if (record.op === 'deactivate') return await deactivate(deps, index, record.sku, shop);
    if (!shop) await refuseShopOwned(deps.client, record.sku, record.product);
    const ids = await upsert(deps, record.sku, record.product, shop, target.known);
    return { index, ok: true, ids, action: shop ? 'updated' : 'created' };
  } catch (err) {
    if (err instanceof FieldRefusal)
      return { index, ok: false, field: err.field, error: err.message, retryable: false };
    if (err instanceof VendureRefusal)
      return { index, ok: false, field: 'product', error: err.message, retryable: false };
    throw err;
  }
}

/** The asset of a category picture; a link Vendure or the fetch refuses fails the record on that link. */
async function linkAsset(deps: WriteDeps, picture: CategoryImage): Promise<string> {
  try {
    return await ensureLinkAsset(deps.client, picture.link, deps.ctx.linkBytes);
  } catch (err) {
    if (err instanceof VendureRefusal || err instanceof MediaError) throw new FieldRefusal(picture.field, err.message);
    throw err;
  }
}

/** A SKU that is already a variant of a product without `pimSku` belongs to the shop: never overwritten. */
async function refuseShopOwned(client: VendureClient, sku: string, product: Product) {
  const skus = [sku, ...product.variants.map((v) => v.sku)];
  const found = await client.query<{
    productVariants: { items: { sku: string; product: { customFields: { pimSku: string | null } } }[] };
  }>(VARIANTS_BY_SKU, { skus });
  const owned = found.productVariants.items.find((v) => !v.product.customFields.pimSku);
  if (owned) throw new FieldRefusal('sku', `the SKU ${owned.sku} belongs to a product the shop owns`);
}

async function deactivate(
  deps: WriteDeps,
  index: number,
  sku: string,
  shop: ShopProduct | null,
): Promise<RecordOutcome> {
  if (!shop) return { index, ok: true, ids: null, action: 'deactivated' };
  if (deps.ctx.mapping.onDeactivate === 'disable') {
    unwrap(
      (await deps.client.query<{ updateProduct: object }>(UPDATE_PRODUCT, { input: { id: shop.id, enabled: false } }))
        .updateProduct,
    );
    return { index, ok: true, ids: idsOf(shop, {}), action: 'deactivated' };
  }
  // Vendure deletes softly and keeps the custom field: freed first, so the SKU can come back as a new product.
  await deps.client.query(UPDATE_PRODUCT, { input: { id: shop.id, customFields: { pimSku: null } } });
  const deleted = await deps.client.query<{ deleteProduct: { result: string; message: string | null } }>(
    DELETE_PRODUCT,
    { id: shop.id },
  );
  if (deleted.deleteProduct.result !== 'DELETED')
    throw new VendureRefusal(deleted.deleteProduct.message ?? `Vendure did not delete ${sku}`);
  return { index, ok: true, ids: null, action: 'deactivated' };
}

async function upsert(
  deps: WriteDeps,
  sku: string,
  product: Product,
  shop: ShopProduct | null,
  known: TargetIds | null,
): Promise<TargetIds> {
  const { mapping } = deps.ctx;
  const pairs = localesOf(mapping);
  const locales = [...new Set([...pairs.map(([, code]) => code), deps.channelLanguage])];
  const textsFor = (node: Parameters<typeof textOf>[0]) =>
    locales.map((languageCode) => {
      const language = pairs.find(([, code]) => code === languageCode)?.[0] ?? mapping.defaultLanguage;
      return {
        languageCode,
        name: textOf(node, 'name', language, mapping),
        description: textOf(node, 'description', language, mapping),
      };
    });

  // Category pictures first: a refused URL fails the record before anything of it is written.
  const pictures = product.categories.map((category, i) => {
    try {
      return categoryImage(category, i, mapping, deps.ctx.refusedUrl);
    } catch (err) {
      if (err instanceof CategoryImageRefused) throw new FieldRefusal(err.field, err.message);
      throw err;
    }
  });
  const nodes = variantNodes(sku, product);
  const images = imagesFor(product, mapping);
  const variantImages = product.variants.flatMap((v) => imagesFor(v, mapping));
  let media: Map<string, string>;
  try {
    media = await ensureAssets(deps.client, [...images, ...variantImages], known?.media ?? {}, deps.ctx.mediaBytes);
  } catch (err) {
    if (!(err instanceof VendureRefusal)) throw err;
    throw new FieldRefusal('product.media', err.message);
  }

  const plans = optionGroups(product, mapping);
  const defining = new Set(plans.flatMap((p) => (p.feature === null ? [] : [p.feature])));
  const productRefs: FacetValueRef[] = [
    ...featureValues(product, mapping),
    ...product.categories.map((c) => categoryValue(c.path)),
  ];
  if (product.unitId) productRefs.push(unitValue(product.unitId));
  const variantRefs = new Map(
    nodes.map((v) => [v.sku, product.variants.length ? featureValues(v, mapping, defining) : []]),
  );
  const valueIds = await deps.catalog.facetValueIds([...productRefs, ...[...variantRefs.values()].flat()], locales);
  await deps.catalog.ensureCollections(
    product.categories.map((c) => c.path),
    locales,
  );
  for (const [i, category] of product.categories.entries()) {
    const picture = pictures[i];
    const assetId = picture ? await linkAsset(deps, picture) : null;
    await deps.catalog.collectionImage(category.path, assetId, locales);
  }
  const idsOfRefs = (refs: FacetValueRef[]) => [
    ...new Set(refs.map((r) => valueIds.get(refKey(r))).filter((id): id is string => !!id)),
  ];

  const facetValueIds = idsOfRefs(productRefs);
  if (product.manufacturerId) facetValueIds.push(product.manufacturerId);
  const assetIds = images.map((m) => media.get(m.sha256)).filter((id): id is string => !!id);
  const input = {
    enabled: product.status === 'active',
    translations: textsFor(product).map((t) => ({ ...t, slug: productSlug(t.name || sku, sku) })),
    facetValueIds,
    assetIds: [...new Set(assetIds)],
    featuredAssetId: assetIds[0] ?? null,
    customFields: { pimSku: sku },
  };
  const written = shop
    ? (await deps.client.query<{ updateProduct: ShopProduct }>(UPDATE_PRODUCT, { input: { ...input, id: shop.id } }))
        .updateProduct
    : (await deps.client.query<{ createProduct: ShopProduct }>(CREATE_PRODUCT, { input })).createProduct;

  const inputs: VariantInput[] = nodes.map((v) => {
    const taxCategoryId = v.taxId ?? product.taxId;
    const price = channelPrice(v, mapping, taxCategoryId ? (deps.taxRates.get(taxCategoryId) ?? null) : null);
    const own = imagesFor(v, mapping)
      .map((m) => media.get(m.sha256))
      .filter((id): id is string => !!id);
    return {
      sku: v.sku,
      enabled: v.status === 'active',
      translations: textsFor(v).map(({ languageCode, name }) => ({ languageCode, name: name || v.sku })),
      facetValueIds: idsOfRefs(variantRefs.get(v.sku) ?? []),
      ...(price === null ? {} : { price }),
      ...(taxCategoryId ? { taxCategoryId } : {}),
      assetIds: product.variants.length ? own : [],
      featuredAssetId: product.variants.length ? (own[0] ?? null) : null,
    };
  });
  const variants = await syncVariants(deps.client, written, plans, inputs, locales);
  return idsOf(written, variants, Object.fromEntries(media));
}

function idsOf(shop: ShopProduct, variants: Record<string, string>, media?: Record<string, string>): TargetIds {
  const byVariant = Object.keys(variants).length
    ? variants
    : Object.fromEntries(shop.variants.map((v) => [v.sku, v.id]));
  return { product: shop.id, variants: byVariant, ...(media ? { media } : {}) };
}
