import type { Product } from '../../../../src/sync/protocol/wire';
import { type CategoryImage, CategoryImageRefused, categoryImage } from '../common/category-image';
import { imagesFor } from '../common/images';
import { MediaError } from '../../media/media-bytes';
import { localesOf } from '../common/texts';
import type { RecordOutcome, TargetIds, TargetRecord, WriteContext } from '../target-adapter';
import { OutcomeUnknown } from '../target-http';
import {
  aliveAssets,
  assetsByHash,
  type ChunkAssets,
  ensureAssets,
  ensureLinkAsset,
  type LinkAsset,
} from './vendure-assets';
import { type Catalog, refKey } from './vendure-catalog';
import { unwrap, type VendureClient, VendureRefusal } from './vendure-client';
import {
  channelPrice,
  type FacetValueRef,
  type OptionGroupPlan,
  productSlug,
  recordRefs,
  textOf,
} from './vendure-record';
import {
  CREATE_GROUP_FIELDS,
  CREATE_VARIANTS,
  groupInput,
  optionIdsOf,
  PRODUCT_FIELDS,
  type ShopOptionGroup,
  type ShopProduct,
  syncVariants,
  UPDATE_VARIANTS as UPDATE_VARIANTS_OF_MANY,
  type VariantInput,
  variantNodes,
} from './vendure-variants';

/** What one record's write needs besides the record: the client, the batch's catalog, the shop's facts. */
export interface WriteDeps {
  client: VendureClient;
  catalog: Catalog;
  ctx: WriteContext;
  /** Vendure language codes to write: the mapped ones and the channel's default language. */
  channelLanguage: string;
  /** Tax category id -> rate, for prices shown with tax. */
  taxRates: Map<string, number>;
  /** The chunk's known asset ids that the shop still has, read once for the chunk (`writeRecords`). */
  aliveAssets?: Set<string>;
  /** Category picture assets by URL, found (or renewed) once per write (`linkAsset`). */
  pictures?: Map<string, LinkAsset>;
  /** The chunk's images found by their hash tags once for the chunk (`lookUpChunk`). */
  chunkAssets?: ChunkAssets;
  /** The clock a marked option group's age is judged by (`removeLooseGroups`). */
  now: () => number;
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

export const PRODUCT_BY_SKU = `query ProductBySku($skus: [String!]) {
  products(options: { filter: { pimSku: { in: $skus } }, take: 100 }) { items { ${PRODUCT_FIELDS} } }
}`;
const VARIANTS_BY_SKU = `query VariantsBySku($skus: [String!]) {
  productVariants(options: { filter: { sku: { in: $skus } }, take: 100 }) { items { sku product { id customFields { pimSku } } } }
}`;
const CREATE_PRODUCT = `mutation CreateProduct($input: CreateProductInput!) { createProduct(input: $input) { ${PRODUCT_FIELDS} } }`;
const UPDATE_PRODUCT = `mutation UpdateProduct($input: UpdateProductInput!) { updateProduct(input: $input) { ${PRODUCT_FIELDS} } }`;
const UPDATE_PRODUCTS = `mutation UpdateProducts($input: [UpdateProductInput!]!) { updateProducts(input: $input) { ${PRODUCT_FIELDS} } }`;
const DELETE_PRODUCT = `mutation DeleteProduct($id: ID!) { deleteProduct(id: $id) { result message } }`;

const PRODUCTS_BY_ID = `query ProductsById($ids: [String!]) {
  products(options: { filter: { id: { in: $ids } }, take: 100 }) { items { ${PRODUCT_FIELDS} } }
}`;

/**
 * The products the records' SKUs name in the shop, read for the whole chunk at once (one query
 * by the mirror's ids, one by `pimSku` for the rest, per 100) instead of one or two per record:
 * a product found by id counts only while its `pimSku` is still the record's SKU. A SKU
 * without an entry has no product.
 */
export async function findProducts(client: VendureClient, records: TargetRecord[]): Promise<Map<string, ShopProduct>> {
  const found = new Map<string, ShopProduct>();
  const knownIds = [...new Set(records.flatMap((r) => (r.known ? [r.known.product] : [])))];
  for (let i = 0; i < knownIds.length; i += 100) {
    const page = await client.query<{ products: { items: ShopProduct[] } }>(PRODUCTS_BY_ID, {
      ids: knownIds.slice(i, i + 100),
    });
    for (const p of page.products.items) {
      const sku = p.customFields.pimSku;
      if (sku && records.some((r) => r.record.sku === sku && r.known?.product === p.id)) found.set(sku, p);
    }
  }
  const rest = [...new Set(records.map((r) => r.record.sku).filter((sku) => !found.has(sku)))];
  for (let i = 0; i < rest.length; i += 100) {
    const page = await client.query<{ products: { items: ShopProduct[] } }>(PRODUCT_BY_SKU, {
      skus: rest.slice(i, i + 100),
    });
    for (const p of page.products.items) if (p.customFields.pimSku) found.set(p.customFields.pimSku, p);
  }
  return found;
}

/** One record written on its own: found product (or null), then create, update or deactivate. */
export async function writeRecord(
  deps: WriteDeps,
  target: TargetRecord,
  shop: ShopProduct | null,
): Promise<RecordOutcome> {
  const { record, index } = target;
  return refusalsAsOutcome(index, async () => {
    if (record.op === 'deactivate') return await deactivate(deps, index, record.sku, shop, target.known?.media);
    if (!shop) await refuseShopOwned(deps.client, record.sku, record.product);
    const prepared = await prepareUpsert(deps, record.sku, record.product, target.known);
    const ids = await applyUpsert(deps, shop, prepared);
    return { index, ok: true, ids, action: shop ? 'updated' : 'created' };
  });
}

/**
 * A refusal of Vendure's or of the record's content as the record's failure, and a create whose
 * answer was lost as a retryable one (the connector looks the SKU up before trying again, so
 * what the create made is found, not made twice); anything else is thrown.
 */
async function refusalsAsOutcome<T extends RecordOutcome | null>(
  index: number,
  write: () => Promise<T>,
): Promise<T | RecordOutcome> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof FieldRefusal)
      return { index, ok: false, field: err.field, error: err.message, retryable: false };
    if (err instanceof VendureRefusal)
      return { index, ok: false, field: 'product', error: err.message, retryable: false };
    if (err instanceof OutcomeUnknown)
      return { index, ok: false, field: 'product', error: err.message, retryable: true };
    throw err;
  }
}

/**
 * The updates of a chunk whose products keep their shape (the same option groups and options,
 * the same variant SKUs), written together: one `updateProducts` and one `updateProductVariants`
 * for all of them instead of two mutations per record. Each mutation is one transaction in
 * Vendure and each write makes Vendure re-apply every collection's filters (a job over all
 * variants), so fewer, larger calls are what makes an update round fast. Records that change
 * shape, creates and deactivations go one by one (`writeRecord`). When Vendure refuses the
 * shared call (one record's content), nothing of it is kept and each record is written on its
 * own, so the refusal lands on the record it belongs to.
 */
export async function writeRecords(
  deps: WriteDeps,
  targets: TargetRecord[],
  shops: Map<string, ShopProduct>,
): Promise<RecordOutcome[]> {
  const outcomes: RecordOutcome[] = [];
  const together: { target: TargetRecord; shop: ShopProduct; prepared: PreparedUpsert }[] = [];
  let creating: { target: TargetRecord; prepared: PreparedUpsert }[] = [];
  // The images the mirror knows for the chunk's records, checked once instead of once per record.
  const knownMedia = targets.flatMap((t) => Object.values(t.known?.media ?? {}));
  if (knownMedia.length > 0) deps = { ...deps, aliveAssets: await aliveAssets(deps.client, knownMedia) };
  // Whether the creates' SKUs belong to products the shop owns, asked once for all of them.
  const owned = await shopOwnedSkus(
    deps.client,
    targets.flatMap(({ record }) =>
      record.op === 'deactivate' || shops.has(record.sku)
        ? []
        : [record.sku, ...record.product.variants.map((v) => v.sku)],
    ),
  );
  // A create refused as the shop's own makes nothing: its facet values and images are not looked up or made.
  deps = await lookUpChunk(
    deps,
    targets.filter(
      ({ record }) =>
        record.op === 'deactivate' ||
        shops.has(record.sku) ||
        ![record.sku, ...record.product.variants.map((v) => v.sku)].some((sku) => owned.has(sku)),
    ),
  );
  const seen = new Set<string>();
  for (const target of targets) {
    const { record, index } = target;
    if (seen.has(record.sku)) {
      // A SKU twice in a chunk: the first one's create is sent, then the product read as it then is.
      outcomes.push(...(await sendCreates(deps, creating)));
      creating = [];
      const again = await findProducts(deps.client, [{ ...target, known: null }]);
      const found = again.get(record.sku);
      if (found) shops.set(record.sku, found);
    }
    seen.add(record.sku);
    const shop = shops.get(record.sku) ?? null;
    shops.delete(record.sku);
    if (record.op === 'deactivate') {
      outcomes.push(await writeRecord(deps, target, shop));
      continue;
    }
    const outcome = await refusalsAsOutcome(index, async (): Promise<RecordOutcome | null> => {
      if (!shop) {
        const taken = [record.sku, ...record.product.variants.map((v) => v.sku)].find((sku) => owned.has(sku));
        if (taken) throw new FieldRefusal('sku', `the SKU ${taken} belongs to a product the shop owns`);
      }
      const prepared = await prepareUpsert(deps, record.sku, record.product, target.known);
      if (!shop) {
        creating.push({ target, prepared });
        return null;
      }
      if (keepsShape(shop, prepared)) {
        together.push({ target, shop, prepared });
        return null;
      }
      return { index, ok: true, ids: await applyUpsert(deps, shop, prepared), action: 'updated' };
    });
    if (outcome) outcomes.push(outcome);
  }
  outcomes.push(...(await sendCreates(deps, creating)));
  if (together.length === 0) return outcomes;
  try {
    outcomes.push(...(await updateTogether(deps, together)));
  } catch (err) {
    if (!(err instanceof VendureRefusal)) throw err;
    for (const { target, shop } of together) outcomes.push(await writeRecord(deps, target, shop));
  }
  return outcomes;
}

/**
 * The chunk's creates together (`createTogether`). When Vendure refuses one of their calls, or
 * a call's answer is lost (a timeout: the shop may still have run it, so it is never sent
 * again blindly), what the calls made stays (each mutation is its own transaction) and is not
 * known from an answer. So the records are read again by `pimSku` and written one by one
 * against what they find: a product created without its variants gets them, nothing is
 * created twice, and a refusal lands on the record it belongs to. After a lost answer a
 * record not found is a retryable failure, not a second create (its product may still be in
 * the making). The option groups this call made that no product holds are removed first
 * (`removeLooseGroups`, by the call's own mark): the one-by-one writes make each product's
 * groups again.
 */
async function sendCreates(
  deps: WriteDeps,
  creating: { target: TargetRecord; prepared: PreparedUpsert }[],
): Promise<RecordOutcome[]> {
  if (creating.length === 0) return [];
  let lost: OutcomeUnknown | null = null;
  const mark = makingMark();
  try {
    return await createTogether(deps, creating, mark);
  } catch (err) {
    if (!(err instanceof VendureRefusal || err instanceof OutcomeUnknown)) throw err;
    if (err instanceof OutcomeUnknown) lost = err;
  }
  const targets = creating.map((c) => c.target);
  const found = await findProducts(
    deps.client,
    targets.map((t) => ({ ...t, known: null })),
  );
  if (creating.some((c) => c.prepared.plans.length > 0)) await removeLooseGroups(deps.client, mark, deps.now());
  const outcomes: RecordOutcome[] = [];
  for (const target of targets) {
    const shop = found.get(target.record.sku) ?? null;
    // Not there yet after a lost answer: Vendure may still be making it. Created now, it would be
    // made twice (or refused by the unique pimSku); the connector looks it up again after a wait.
    if (!shop && lost) {
      outcomes.push({ index: target.index, ok: false, field: 'product', error: lost.message, retryable: true });
      continue;
    }
    const outcome = await writeRecord(deps, target, shop);
    // A product the refused call had already made is still this call's create.
    outcomes.push(outcome.ok ? { ...outcome, action: 'created' } : outcome);
  }
  return outcomes;
}

/**
 * New products in as few calls as Vendure's Admin API allows. It has no multi-create for
 * products or option groups (`createProduct` and `createProductOptionGroup` take one input),
 * so their calls go as aliased fields of one GraphQL document (Vendure runs a document's
 * mutations one after the other, each its own transaction): one request for the chunk's
 * products and their option groups, one for attaching the groups, and one
 * `createProductVariants` for every variant of the chunk (it takes a list across products).
 * Three requests per chunk instead of four to six per record. The groups are made under a code
 * carrying this call's `mark` and get their own code back in the request that attaches them,
 * so until then only this call can tell them for its own (`removeLooseGroups`).
 */
async function createTogether(
  deps: WriteDeps,
  creating: { target: TargetRecord; prepared: PreparedUpsert }[],
  mark: string,
): Promise<RecordOutcome[]> {
  const declared: string[] = [];
  const fields: string[] = [];
  const variables: Record<string, unknown> = {};
  const groups: { product: number; code: string; alias: string }[] = [];
  creating.forEach(({ prepared }, i) => {
    declared.push(`$p${i}: CreateProductInput!`);
    fields.push(`p${i}: createProduct(input: $p${i}) { ${PRODUCT_FIELDS} }`);
    variables[`p${i}`] = prepared.product;
    prepared.plans.forEach((plan, j) => {
      const alias = `g${i}_${j}`;
      declared.push(`$${alias}: CreateProductOptionGroupInput!`);
      fields.push(`${alias}: createProductOptionGroup(input: $${alias}) { ${CREATE_GROUP_FIELDS} }`);
      variables[alias] = { ...groupInput(plan, prepared.locales), code: `${plan.code}${mark}` };
      groups.push({ product: i, code: plan.code, alias });
    });
  });
  const made = await deps.client.create<Record<string, ShopProduct | ShopOptionGroup>>(
    `mutation CreateProducts(${declared.join(', ')}) {\n${fields.join('\n')}\n}`,
    variables,
  );
  return await attachAndCreateVariants(deps, creating, made, groups);
}

/**
 * `createTogether`'s second and third requests: the option groups attached, each renamed to its
 * own code right after its attach (in the same document), then every variant of the chunk.
 */
async function attachAndCreateVariants(
  deps: WriteDeps,
  creating: { target: TargetRecord; prepared: PreparedUpsert }[],
  made: Record<string, ShopProduct | ShopOptionGroup>,
  groups: { product: number; code: string; alias: string }[],
): Promise<RecordOutcome[]> {
  const productAt = (i: number) => made[`p${i}`] as ShopProduct;
  if (groups.length > 0) {
    const attach: string[] = [];
    const ids: Record<string, string> = {};
    const declaredIds: string[] = [];
    groups.forEach((g, k) => {
      declaredIds.push(`$ap${k}: ID!`, `$ag${k}: ID!`, `$ac${k}: String!`);
      attach.push(
        `a${k}: addOptionGroupToProduct(productId: $ap${k}, optionGroupId: $ag${k}) { id }`,
        `c${k}: updateProductOptionGroup(input: { id: $ag${k}, code: $ac${k} }) { id }`,
      );
      ids[`ap${k}`] = productAt(g.product).id;
      ids[`ag${k}`] = (made[g.alias] as ShopOptionGroup).id;
      ids[`ac${k}`] = g.code;
    });
    await deps.client.query(`mutation AttachGroups(${declaredIds.join(', ')}) {\n${attach.join('\n')}\n}`, ids);
  }
  const input = creating.flatMap(({ prepared }, i) => {
    const product = productAt(i);
    const own = groups
      .filter((g) => g.product === i)
      .map((g) => ({ ...(made[g.alias] as ShopOptionGroup), code: g.code }));
    const options = optionIdsOf({ ...product, optionGroups: own }, prepared.plans);
    return prepared.variants.map((v) => ({ ...v, productId: product.id, optionIds: options.get(v.sku) ?? [] }));
  });
  const created = await deps.client.create<{ createProductVariants: ({ id: string; sku: string } | null)[] }>(
    CREATE_VARIANTS,
    { input },
  );
  const variantIds = new Map(created.createProductVariants.flatMap((v) => (v ? [[v.sku, v.id] as const] : [])));
  if (variantIds.size !== new Set(input.map((v) => v.sku)).size)
    throw new VendureRefusal('Vendure did not create every variant');
  return creating.map(({ target, prepared }, i) => ({
    index: target.index,
    ok: true,
    ids: idsOf(
      productAt(i),
      Object.fromEntries(prepared.variants.map((v) => [v.sku, variantIds.get(v.sku) as string])),
      Object.fromEntries(prepared.media),
    ),
    action: 'created',
  }));
}

/**
 * What marks the option groups one `createTogether` call makes until their attach renames them
 * (`<code>~making-<16 hex digits>`): unique per call, so a cleanup never takes another
 * request's groups.
 */
function makingMark(): string {
  return `~making-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

const MARKED_GROUPS = `query MarkedGroups {
  productOptionGroups(options: { filter: { code: { contains: "~making-" } }, sort: { createdAt: DESC }, take: 100 }) {
    items { id code createdAt productCount }
  }
}`;

/** A marked group older than this belongs to no request still running: a create lost long ago made it. */
const STALE_MARK_MS = 60 * 60 * 1000;
const DELETE_GROUPS = `mutation DeleteGroups($ids: [ID!]!) { deleteProductOptionGroups(ids: $ids) { result message } }`;

/**
 * The option groups a failed `createTogether` made that no product holds, deleted in one
 * request before the records are written one by one (which make each product's groups again).
 * Their ids are not known: a refused `CreateProducts` answers no data (its fields are
 * non-null, so one error nulls the whole answer), a lost answer none at all, and a refused
 * attach leaves them unattached. So they are found by the mark their codes carry until the
 * attach renames them, which only this call's groups carry: another connector request writing
 * the same shop with the same codes at that moment keeps its groups (until issue 35's sixth
 * round the newest groups with the chunk's codes were taken, another request's among them).
 * A group attached but not yet renamed (the document stopped between the two) is held by its
 * product and left; the product's next write replaces it (its code is not the plan's). The
 * same request also takes marked groups that no product holds and that are older than an hour
 * (STALE_MARK_MS, against Vendure's `createdAt`): a `CreateProducts` whose answer was lost and
 * that Vendure ran after the cleanup of its own call left them, and no request runs that long.
 * The newest 100 marked groups are read, so this call's own are among them. Deleting without
 * `force` makes Vendure refuse a group in use; a deletion Vendure refuses leaves them (nothing
 * the records depend on).
 */
async function removeLooseGroups(client: VendureClient, mark: string, now: number) {
  try {
    const marked = await client.query<{
      productOptionGroups: { items: { id: string; code: string; createdAt: string; productCount: number }[] };
    }>(MARKED_GROUPS);
    const loose = marked.productOptionGroups.items
      .filter((g) => g.productCount === 0)
      .filter((g) => g.code.endsWith(mark) || Date.parse(g.createdAt) < now - STALE_MARK_MS)
      .map((g) => g.id);
    if (loose.length > 0) await client.query(DELETE_GROUPS, { ids: loose });
  } catch (err) {
    if (!(err instanceof VendureRefusal)) throw err;
  }
}

/** The SKUs among these that are variants of products without `pimSku` (the shop's own), read per 100. */
async function shopOwnedSkus(client: VendureClient, skus: string[]): Promise<Set<string>> {
  const owned = new Set<string>();
  const unique = [...new Set(skus)];
  for (let i = 0; i < unique.length; i += 100) {
    const found = await client.query<{
      productVariants: { items: { sku: string; product: { customFields: { pimSku: string | null } } }[] };
    }>(VARIANTS_BY_SKU, { skus: unique.slice(i, i + 100) });
    for (const v of found.productVariants.items) if (!v.product.customFields.pimSku) owned.add(v.sku);
  }
  return owned;
}

/** Whether the product's option groups, options and variant SKUs are already what the record wants. */
function keepsShape(shop: ShopProduct, prepared: PreparedUpsert): boolean {
  const groups = new Map(shop.optionGroups.map((g) => [g.code, g]));
  if (groups.size !== prepared.plans.length) return false;
  for (const plan of prepared.plans) {
    const group = groups.get(plan.code);
    if (!group) return false;
    const codes = new Set(group.options.map((o) => o.code));
    if ([...plan.options.values()].some((o) => !codes.has(o.code))) return false;
  }
  const skus = new Set(prepared.variants.map((v) => v.sku));
  return (
    shop.variants.length === skus.size && shop.variants.every((v) => skus.has(v.sku)) && keepsAssets(shop, prepared)
  );
}

/**
 * Whether the product's assets are already the record's, in order. Vendure 3.7 refuses an
 * `updateProducts` that sets the assets of several products ("NOT NULL constraint failed:
 * product_asset.productId"), so the shared call leaves them out and only products whose
 * images did not change go into it.
 */
function keepsAssets(shop: ShopProduct, prepared: PreparedUpsert): boolean {
  const wanted = prepared.product.assetIds as string[];
  return (
    (shop.featuredAsset?.id ?? null) === prepared.product.featuredAssetId &&
    shop.assets.length === wanted.length &&
    shop.assets.every((a, i) => a.id === wanted[i])
  );
}

async function updateTogether(
  deps: WriteDeps,
  together: { target: TargetRecord; shop: ShopProduct; prepared: PreparedUpsert }[],
): Promise<RecordOutcome[]> {
  const products = await deps.client.query<{ updateProducts: ShopProduct[] }>(UPDATE_PRODUCTS, {
    input: together.map(({ shop, prepared }) => {
      const { assetIds: _assets, featuredAssetId: _featured, ...unchanged } = prepared.product;
      return { ...unchanged, id: shop.id };
    }),
  });
  const written = new Map(products.updateProducts.map((p) => [p.id, p]));
  const variants = together.flatMap(({ shop, prepared }) => {
    const ids = new Map(shop.variants.map((v) => [v.sku, v.id]));
    const options = optionIdsOf(shop, prepared.plans);
    return prepared.variants.map((v) => ({ ...v, id: ids.get(v.sku), optionIds: options.get(v.sku) }));
  });
  const updated = await deps.client.query<{ updateProductVariants: { id: string; sku: string }[] }>(
    UPDATE_VARIANTS_OF_MANY,
    { input: variants },
  );
  if (updated.updateProductVariants.length !== variants.length)
    throw new VendureRefusal('Vendure did not update every variant');
  // The variants kept their ids (same SKUs): the products as written name them.
  return together.map(({ target, shop, prepared }) => ({
    index: target.index,
    ok: true,
    ids: idsOf(written.get(shop.id) ?? shop, {}, Object.fromEntries(prepared.media)),
    action: 'updated',
  }));
}

/**
 * The asset of a category picture, renewed when the bytes behind its URL changed
 * (`WriteContext.categoryPictureChanged`); once per URL in a write (`deps.pictures`), as a chunk
 * places many products in the same category. A link Vendure or the fetch refuses fails the
 * record on that link.
 */
async function linkAsset(deps: WriteDeps, picture: CategoryImage): Promise<LinkAsset> {
  const url = picture.link.url;
  const seen = deps.pictures?.get(url);
  if (seen) return seen;
  try {
    const asset = await ensureLinkAsset(
      deps.client,
      picture.link,
      deps.ctx.linkBytes,
      async (changedUrl) => (await deps.ctx.categoryPictureChanged?.(changedUrl)) ?? false,
    );
    deps.pictures?.set(url, asset);
    return asset;
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
  media: Record<string, string> | undefined,
): Promise<RecordOutcome> {
  if (!shop) return { index, ok: true, ids: null, action: 'deactivated' };
  if (deps.ctx.mapping.onDeactivate === 'disable') {
    unwrap(
      (await deps.client.query<{ updateProduct: object }>(UPDATE_PRODUCT, { input: { id: shop.id, enabled: false } }))
        .updateProduct,
    );
    // A disabled product still shows its images: they stay in its ids, so no other product's write retires them.
    return { index, ok: true, ids: idsOf(shop, {}, media), action: 'deactivated' };
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

/** The Vendure languages a record is written in: the mapped ones and the channel's default. */
function localesToWrite(deps: WriteDeps): string[] {
  return [...new Set([...localesOf(deps.ctx.mapping).map(([, code]) => code), deps.channelLanguage])];
}

/**
 * What the chunk's upserts look up in the shop, asked for all of them at once before any is
 * prepared: the images by their hash tags (those the mirror's ids do not already give), the
 * facet values of every record's features, categories and units (the missing ones created in
 * one request per kind), and the collections of every category path with their featured
 * assets. Each record's `prepareUpsert` then finds them in the catalog and `chunkAssets`
 * instead of asking per record. A lookup Vendure refuses here (or whose create lost its answer)
 * is left to the records: each asks again on its own, so the refusal lands on the record it
 * belongs to.
 */
async function lookUpChunk(deps: WriteDeps, targets: TargetRecord[]): Promise<WriteDeps> {
  const { mapping } = deps.ctx;
  const upserts = targets.flatMap(({ record, known }) =>
    record.op === 'deactivate' ? [] : [{ sku: record.sku, product: record.product, known }],
  );
  if (upserts.length === 0) return deps;
  const locales = localesToWrite(deps);
  const hashes = upserts.flatMap(({ product, known }) =>
    [...imagesFor(product, mapping), ...product.variants.flatMap((v) => imagesFor(v, mapping))]
      .map((m) => m.sha256)
      .filter((sha) => {
        const id = known?.media?.[sha];
        return !(id && deps.aliveAssets?.has(id));
      }),
  );
  const refs = upserts.flatMap(({ sku, product }) => {
    const { product: own, variants } = recordRefs(sku, product, mapping);
    return [...own, ...[...variants.values()].flat()];
  });
  const refused = async <T>(lookup: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await lookup();
    } catch (err) {
      // A lookup whose create lost its answer is asked again by the records, which find what it made.
      if (!(err instanceof VendureRefusal || err instanceof OutcomeUnknown)) throw err;
      return undefined;
    }
  };
  const chunkAssets = hashes.length > 0 ? await refused(() => assetsByHash(deps.client, hashes)) : undefined;
  await refused(() => deps.catalog.facetValueIds(refs, locales));
  await refused(() =>
    deps.catalog.findCollections(upserts.flatMap(({ product }) => product.categories.map((c) => c.path))),
  );
  return chunkAssets ? { ...deps, chunkAssets } : deps;
}

/** A record in Vendure's input shapes, with the catalog entries, assets and collections it needs already there. */
interface PreparedUpsert {
  /** The product's input, without its id. */
  product: Record<string, unknown>;
  plans: OptionGroupPlan[];
  variants: VariantInput[];
  locales: string[];
  /** Content hash -> asset id. */
  media: Map<string, string>;
}

async function prepareUpsert(
  deps: WriteDeps,
  sku: string,
  product: Product,
  known: TargetIds | null,
): Promise<PreparedUpsert> {
  const { mapping } = deps.ctx;
  const pairs = localesOf(mapping);
  const locales = localesToWrite(deps);
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
    media = await ensureAssets(
      deps.client,
      [...images, ...variantImages],
      known?.media ?? {},
      deps.ctx.mediaBytes,
      deps.aliveAssets ?? null,
      deps.chunkAssets ?? null,
    );
  } catch (err) {
    if (!(err instanceof VendureRefusal)) throw err;
    throw new FieldRefusal('product.media', err.message);
  }

  const refs = recordRefs(sku, product, mapping);
  const { plans, product: productRefs, variants: variantRefs } = refs;
  const valueIds = await deps.catalog.facetValueIds([...productRefs, ...[...variantRefs.values()].flat()], locales);
  await deps.catalog.ensureCollections(
    product.categories.map((c) => c.path),
    locales,
  );
  for (const [i, category] of product.categories.entries()) {
    const picture = pictures[i];
    const asset = picture ? await linkAsset(deps, picture) : null;
    await deps.catalog.collectionImage(category.path, asset?.id ?? null, locales);
    // The collection shows the new bytes: what the revalidation saw becomes what was sent.
    if (picture && asset?.renewed) await deps.ctx.categoryPictureSent?.(picture.link.url);
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
  return { product: input, plans, variants: inputs, locales, media };
}

/** Creates or updates the product, then brings its option groups and variants to the record's. */
async function applyUpsert(deps: WriteDeps, shop: ShopProduct | null, prepared: PreparedUpsert): Promise<TargetIds> {
  const input = prepared.product;
  const written = shop
    ? (await deps.client.query<{ updateProduct: ShopProduct }>(UPDATE_PRODUCT, { input: { ...input, id: shop.id } }))
        .updateProduct
    : (await deps.client.create<{ createProduct: ShopProduct }>(CREATE_PRODUCT, { input })).createProduct;
  const variants = await syncVariants(deps.client, written, prepared.plans, prepared.variants, prepared.locales);
  return idsOf(written, variants, Object.fromEntries(prepared.media));
}

function idsOf(shop: ShopProduct, variants: Record<string, string>, media?: Record<string, string>): TargetIds {
  const byVariant = Object.keys(variants).length
    ? variants
    : Object.fromEntries(shop.variants.map((v) => [v.sku, v.id]));
  return { product: shop.id, variants: byVariant, ...(media ? { media } : {}) };
}
