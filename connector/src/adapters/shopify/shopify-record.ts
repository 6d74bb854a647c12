import type { Product } from '../../../../src/sync/protocol/wire';
import type { RecordOutcome, TargetIds, TargetMapping, TargetRecord } from '../target-adapter';
import {
  type CollectionContext,
  type CollectionJoins,
  checkCategoryPictures,
  type createCollections,
} from './shopify-collections';
import type { createPriceBreaks } from './shopify-price-breaks';
import { METAFIELDS_DELETE, PRODUCT_ARCHIVE, PRODUCT_DELETE, PRODUCT_SET } from './shopify-documents';
import { failOn, RecordFailure, type UserErrors } from './shopify-failure';
import { featureMetafields } from './shopify-features';
import { deleteFiles, type MarkerWrites, mediaMarker, settleFiles, strayFiles } from './shopify-files';
import { type GraphqlError, graphqlErrorText, type ShopifyGraphql } from './shopify-graphql';
import { handleOf, productSetPlan, recordField } from './shopify-product-input';
import { orderMetafieldKeys } from './shopify-order-details';
import { referenceFields, withPending } from './shopify-references';
import { syncTranslations } from './shopify-translations';

export interface ProductSetAnswer {
  productSet: {
    product: {
      id: string;
      handle: string;
      variants: { nodes: { id: string; sku: string | null }[] };
      media: { nodes: { id: string }[] };
      metafields: { nodes: { key: string }[] };
      pimMedia: { value: string } | null;
      collections: { nodes: { id: string; handle: string }[] };
    } | null;
    userErrors: { field?: string[] | null; message: string; code?: string | null }[];
  } | null;
}

export interface RecordDeps {
  gql: ShopifyGraphql;
  collections: ReturnType<typeof createCollections>;
  priceBreaks: ReturnType<typeof createPriceBreaks>;
  mapping: TargetMapping;
  refusedUrl: CollectionContext['refusedUrl'];
  categoryPictureChanged?: CollectionContext['categoryPictureChanged'];
  categoryPictureSent?: CollectionContext['categoryPictureSent'];
  /** The shop's product id of a referenced master: written in this chunk, else from the mirror. */
  productIdOf: (sku: string) => string | undefined;
  /** Requests sent so far (TargetHttp.requests): more than one for a productSet means it may have run twice. */
  requestsSent: () => number;
}

/** Keys whose type changed since the last write: Shopify refuses a new type on an existing metafield, so they go first. */
function retyped(product: Product, previous: Product | null, mapping: TargetMapping): string[] {
  if (!previous) return [];
  const before = new Map(featureMetafields(previous, mapping).map((field) => [field.key, field.type]));
  return featureMetafields(product, mapping)
    .filter((field) => before.has(field.key) && before.get(field.key) !== field.type)
    .map((field) => field.key);
}

/**
 * A variant's metafields the record no longer has, from the product as last written (a
 * variant's metafields are not in productSet's answer: 250 variants times their metafields
 * would pass Shopify's 1000-point limit for one query).
 */
function staleVariantMetafields(
  previous: Product | null,
  keep: Map<string, Set<string>>,
  variantIds: Record<string, string>,
  mapping: TargetMapping,
) {
  if (!previous) return [];
  return previous.variants.flatMap((variant) => {
    const id = variantIds[variant.sku];
    const wanted = keep.get(variant.sku);
    if (!id || !wanted) return [];
    const held = [
      ...featureMetafields(variant, mapping).map((field) => field.key),
      ...orderMetafieldKeys(variant, previous),
    ];
    return held.filter((key) => !wanted.has(key)).map((key) => ({ ownerId: id, key }));
  });
}

async function deleteMetafields(gql: ShopifyGraphql, metafields: { ownerId: string; key: string }[]) {
  if (metafields.length === 0) return;
  const result = await gql.request<{ metafieldsDelete: UserErrors | null }>(METAFIELDS_DELETE, {
    metafields: metafields.map((field) => ({ ...field, namespace: 'pim' })),
  });
  failOn('product.values', result, result.data?.metafieldsDelete);
}

/** What a round of many writes gathers from its records' follow-ups and sends once (shopify-bulk-write.ts). */
export interface Gathered {
  joins: CollectionJoins;
  markers: MarkerWrites;
}

/** One master's write as planned before its productSet: the input, the files and metafield keys it sends. */
export interface PlannedWrite {
  target: Omit<TargetRecord, 'record'> & { record: Extract<TargetRecord['record'], { product: Product }> };
  known: TargetIds | null;
  handle: string | null;
  plan: ReturnType<typeof productSetPlan>;
  references: ReturnType<typeof referenceFields>;
}

/** Plans the productSet of one master and sends what must precede it (metafields whose type changed go first). */
export async function planWrite(
  deps: RecordDeps,
  target: TargetRecord,
  known: TargetIds | null,
): Promise<PlannedWrite> {
  const { mapping } = deps;
  if (target.record.op === 'deactivate') throw new Error('planWrite takes creates and updates');
  const { sku, product } = target.record;
  checkCategoryPictures(product.categories, deps);
  const handle = known ? null : handleOf(sku);
  const references = referenceFields(sku, product, mapping, deps.productIdOf);
  const plan = productSetPlan(sku, product, known, handle, mapping, references.fields);
  if (known) {
    await deleteMetafields(
      deps.gql,
      retyped(product, target.previous, mapping).map((key) => ({ ownerId: known.product, key })),
    );
  }
  return { target: target as PlannedWrite['target'], known, handle, plan, references };
}

/** productSet's variables for a planned write: by id for a product the shop holds, else by the handle made from the SKU. */
export const productSetVariables = ({ known, handle, plan }: PlannedWrite) => ({
  identifier: known ? { id: known.product } : { handle: handle! },
  input: plan.input,
});

/**
 * What productSet leaves alone, after its answer: the ids kept, stray and replaced files
 * settled, stale metafields deleted, collections and price breaks brought up to date (a round
 * of many gathers its files markers and collection joins in `gathered`). The translations follow
 * (`syncTranslations`, or in bulk for a round of many).
 */
export async function finishWrite(
  deps: RecordDeps,
  { target, known, plan, references }: PlannedWrite,
  result: { data: ProductSetAnswer | null; errors: GraphqlError[] },
  sentAgain: boolean,
  gathered?: Gathered,
): Promise<RecordOutcome & { ok: true; ids: TargetIds }> {
  const { gql, mapping } = deps;
  const { sku, product } = target.record;
  const payload = result.data?.productSet;
  if (!payload) throw new RecordFailure('record', graphqlErrorText(result.errors) || 'the shop refused the product');
  if (payload.userErrors.length > 0 || !payload.product) {
    const first = payload.userErrors[0];
    throw new RecordFailure(
      recordField(first?.field, plan),
      payload.userErrors.map((error) => error.message).join('; ') || 'the shop made no product',
    );
  }
  const shopProduct = payload.product;

  const variants: Record<string, string> = {};
  for (const variant of shopProduct.variants.nodes) if (variant.sku) variants[variant.sku] = variant.id;
  // productSet keeps the files' order, so the answer's media line up with the files sent.
  const media: Record<string, string> = {};
  plan.files.forEach((file, i) => {
    const id = file.id ?? shopProduct.media.nodes[i]?.id;
    if (id) media[file.sha256] = id;
  });
  const ids: TargetIds = withPending(
    { product: shopProduct.id, variants, media, extra: { handle: shopProduct.handle } },
    references.pending,
  );

  // A new image's file may have been made before: by this productSet sent again, or by an
  // earlier write of a product the shop already held that stopped before its marker.
  const fresh = plan.files.filter((file) => file.id === null).map((file) => file.name);
  const strays =
    (known !== null || sentAgain) && fresh.length > 0
      ? await strayFiles(gql, fresh, new Set(Object.values(media)))
      : [];
  // New files into the marker, replaced, removed and stray ones out of the Files library (shopify-files.ts).
  const marker = mediaMarker(shopProduct.pimMedia?.value);
  await settleFiles(gql, ids.product, media, known?.media ?? {}, marker, strays, gathered?.markers);
  const stale = [
    ...shopProduct.metafields.nodes
      .filter((field) => !plan.metafieldKeys.has(field.key))
      .map((field) => ({ ownerId: ids.product, key: field.key })),
    ...staleVariantMetafields(target.previous, plan.variantMetafieldKeys, variants, mapping),
  ];
  await deleteMetafields(gql, stale);
  // A category's links are its collection's picture: a change of them brings the collection up to date.
  const placements = (categories: Product['categories']) =>
    JSON.stringify(categories.map((c) => [c.id, c.links ?? []]));
  const categoriesSame =
    target.previous !== null && placements(target.previous.categories) === placements(product.categories);
  if (!categoriesSame)
    await deps.collections.sync(ids.product, product.categories, shopProduct.collections.nodes, deps, gathered?.joins);
  else await deps.collections.refreshPictures(product.categories, deps);
  await deps.priceBreaks.sync(sku, product, target.previous, variants, mapping);
  return { index: target.index, ok: true, ids, action: known ? 'updated' : 'created' };
}

/** One productSet request; `sentAgain` when it took more than one try (the shop may have run it twice). */
export async function setProduct(deps: RecordDeps, planned: PlannedWrite) {
  const sentBefore = deps.requestsSent();
  const result = await deps.gql.request<ProductSetAnswer>(PRODUCT_SET, productSetVariables(planned));
  return { result, sentAgain: deps.requestsSent() - sentBefore > 1 };
}

/** Creates or updates one master with productSet, then what productSet leaves alone: stale metafields, collections, translations. */
export async function writeProduct(
  deps: RecordDeps,
  target: TargetRecord,
  known: TargetIds | null,
): Promise<RecordOutcome> {
  const planned = await planWrite(deps, target, known);
  const { result, sentAgain } = await setProduct(deps, planned);
  const outcome = await finishWrite(deps, planned, result, sentAgain);
  const { record, previous } = planned.target;
  await syncTranslations(deps.gql, outcome.ids.product, record.product, previous, !known, deps.mapping);
  return outcome;
}

/** Deletes or archives a master per `mapping.onDeactivate`; a product the shop no longer has is deactivated already. */
export async function deactivateProduct(
  deps: RecordDeps,
  target: TargetRecord,
  known: TargetIds | null,
): Promise<RecordOutcome> {
  if (!known) return { index: target.index, ok: true, ids: null, action: 'deactivated' };
  if (deps.mapping.onDeactivate === 'delete') {
    // productDelete takes the media the product shows; a file an interrupted write took off it
    // and did not delete yet (still in the mirror's ids) would stay, so the PIM's files go first.
    const files = [...new Set(Object.values(known.media ?? {}))];
    if (files.length > 0) await deleteFiles(deps.gql, files);
    const result = await deps.gql.request<{ productDelete: (UserErrors & { deletedProductId: string | null }) | null }>(
      PRODUCT_DELETE,
      { input: { id: known.product } },
    );
    const payload = result.data?.productDelete;
    const missing = payload?.userErrors.some((error) => /does not exist|not found/i.test(error.message));
    if (!missing) failOn('record', result, payload);
    return { index: target.index, ok: true, ids: null, action: 'deactivated' };
  }
  const result = await deps.gql.request<{ productUpdate: UserErrors | null }>(PRODUCT_ARCHIVE, {
    product: { id: known.product, status: 'ARCHIVED' },
  });
  const payload = result.data?.productUpdate;
  if (payload?.userErrors.some((error) => /does not exist|not found/i.test(error.message))) {
    // The merchant deleted it: nothing is left to disable.
    return { index: target.index, ok: true, ids: null, action: 'deactivated' };
  }
  failOn('record', result, payload);
  return { index: target.index, ok: true, ids: known, action: 'deactivated' };
}
