import type { Product } from '../../../../src/sync/protocol/wire';
import type { TargetIds, TargetMapping, TargetRecord, WriteContext } from '../target-adapter';
import { type MedusaApi, MedusaRefusal, query } from './medusa-api';
import { type CategoryCache, resolveCategories, resolveImages } from './medusa-assets';
import {
  getProduct,
  idsOf,
  type MedusaProduct,
  ownersOfSkus,
  productsByExternalId,
  productsById,
} from './medusa-products';
import { type DesiredProduct, desiredProduct } from './medusa-shape';
import { syncTranslations } from './medusa-translations';

/**
 * One record into Medusa: look up (mirror ids, else `external_id`), then create or update
 * through `POST /admin/products/batch`, with the options the variants need added before and
 * the ones they no longer use removed after (options are their own entities since 2.16 and the
 * product update no longer takes them), and the translations synced last.
 */
export interface WriteState {
  mapping: TargetMapping;
  ctx: WriteContext;
  categories: CategoryCache;
  uploads: Map<string, string>;
  salesChannelId: string | null;
  /** The Translation Module is on; otherwise translations go into metadata (`pim_translations`). */
  translationModule: boolean;
  /**
   * Variant SKU -> the external_id of the product holding it (null: a product the shop owns),
   * read once for the chunk's creates (`checkOwners`); a SKU in `ownersRead` but not here is free.
   */
  owners?: Map<string, string | null>;
  ownersRead?: Set<string>;
}

/** The SKUs a record's variants get in Medusa (the master's own SKU when it has no variants). */
export function variantSkusOf(sku: string, product: Product): string[] {
  return product.variants.length > 0 ? product.variants.map((v) => v.sku) : [sku];
}

/** Who holds these SKUs, read once (per 100) for a chunk's creates instead of once per create. */
export async function checkOwners(api: MedusaApi, skus: string[], state: WriteState): Promise<void> {
  const unique = [...new Set(skus)];
  state.owners ??= new Map();
  state.ownersRead ??= new Set();
  for (let i = 0; i < unique.length; i += 100) {
    const page = unique.slice(i, i + 100);
    for (const [sku, owner] of await ownersOfSkus(api, page)) state.owners.set(sku, owner);
    for (const sku of page) state.ownersRead.add(sku);
  }
}

export class OwnedByShop extends Error {}

/**
 * The products a chunk's SKUs stand for, read at once (one call by the mirror's ids, one by
 * `external_id` for the rest) instead of one or two calls per record. The answer gives each
 * record its product (null: none) once; asked again for the same SKU (a SKU twice in a chunk),
 * it reads the product as it then is. Throws `OwnedByShop` as `findCurrent` does.
 */
export async function findCurrents(
  api: MedusaApi,
  recs: TargetRecord[],
): Promise<{
  currentOf: (rec: TargetRecord) => Promise<MedusaProduct | null>;
  /** Whether the shop held a product for the SKU when the chunk was read. */
  held: (sku: string) => boolean;
}> {
  const byId = await productsById(api, [...new Set(recs.flatMap((r) => (r.known ? [r.known.product] : [])))]);
  const rest = recs.filter((r) => !(r.known && byId.has(r.known.product))).map((r) => r.record.sku);
  const byExternalId = await productsByExternalId(api, [...new Set(rest)]);
  const used = new Set<string>();
  const heldSkus = new Set([...byExternalId.keys()]);
  for (const r of recs) if (r.known && byId.has(r.known.product)) heldSkus.add(r.record.sku);
  const currentOf = async (rec: TargetRecord) => {
    const sku = rec.record.sku;
    if (used.has(sku)) return findCurrent(api, rec);
    used.add(sku);
    const known = rec.known ? byId.get(rec.known.product) : undefined;
    if (known) {
      if (known.external_id !== sku) throw new OwnedByShop('the SKU belongs to a product the shop owns');
      return known;
    }
    return byExternalId.get(sku) ?? null;
  };
  return { currentOf, held: (sku) => heldSkus.has(sku) };
}

/** The product the record's SKU stands for: by the mirror's id, else by `external_id`. */
export async function findCurrent(api: MedusaApi, rec: TargetRecord): Promise<MedusaProduct | null> {
  const byId = rec.known ? await getProduct(api, rec.known.product) : null;
  if (byId) {
    if (byId.external_id !== rec.record.sku) throw new OwnedByShop('the SKU belongs to a product the shop owns');
    return byId;
  }
  return (await productsByExternalId(api, [rec.record.sku])).get(rec.record.sku) ?? null;
}

/** `pim_*` keys the shop holds but the record no longer carries are sent as "" (Medusa's metadata merge deletes those). */
function withRemovals(wanted: Record<string, unknown>, current: Record<string, unknown> | null | undefined) {
  const out: Record<string, unknown> = { ...wanted };
  for (const key of Object.keys(current ?? {})) if (key.startsWith('pim_') && !(key in wanted)) out[key] = '';
  return out;
}

/**
 * A variant's metadata for the product update that carries it: Medusa assigns a nested variant's
 * metadata whole (no merge, so a key sent as "" stays ""), so the `pim_*` keys the record no
 * longer carries are left out and the shop's own keys are sent back as they are.
 */
function variantMetadata(wanted: Record<string, unknown>, current: Record<string, unknown> | null | undefined) {
  const own = Object.entries(current ?? {}).filter(([key]) => !key.startsWith('pim_'));
  return { ...Object.fromEntries(own), ...wanted };
}

function variantBodies(desired: DesiredProduct, current: MedusaProduct | null, state: WriteState) {
  return desired.variants.map((v) => {
    const existing = current?.variants.find((c) => c.sku === v.sku);
    const metadata = state.translationModule ? v.metadata : { ...v.metadata, pim_translations: v.translations };
    return {
      ...(existing ? { id: existing.id } : {}),
      title: v.title,
      sku: v.sku,
      ean: v.ean,
      manage_inventory: false,
      options: v.options,
      prices: v.prices,
      metadata: existing ? variantMetadata(metadata, existing.metadata) : metadata,
    };
  });
}

async function linkOptions(api: MedusaApi, current: MedusaProduct, desired: DesiredProduct, phase: 'add' | 'remove') {
  const add: unknown[] = [];
  const update: { product_option_id: string; add?: unknown[]; remove?: string[] }[] = [];
  const remove: string[] = [];
  if (phase === 'add') {
    for (const option of desired.options) {
      const existing = current.options.find((o) => o.title === option.title);
      if (!existing) add.push(option);
      else {
        const missing = option.values.filter((v) => !existing.values.some((e) => e.value === v));
        if (missing.length > 0)
          update.push({ product_option_id: existing.id, add: missing.map((value) => ({ value })) });
      }
    }
  } else {
    for (const existing of current.options) {
      const option = desired.options.find((o) => o.title === existing.title);
      if (!option) remove.push(existing.id);
      else {
        const stale = existing.values.filter((e) => !option.values.includes(e.value)).map((e) => e.id);
        if (stale.length > 0) update.push({ product_option_id: existing.id, remove: stale });
      }
    }
  }
  if (add.length + update.length + remove.length === 0) return;
  await api.post(`/admin/products/${current.id}/options/batch`, { add, update, remove });
}

/** What a create and an update share: the record in Medusa's shape, its categories and images resolved. */
async function prepareBody(
  api: MedusaApi,
  rec: TargetRecord,
  product: Product,
  current: MedusaProduct | null,
  state: WriteState,
) {
  const desired = desiredProduct(rec.record.sku, product, state.mapping);
  if (!current) {
    const skus = desired.variants.map((v) => v.sku);
    const read = state.ownersRead;
    const owners =
      read && state.owners && skus.every((sku) => read.has(sku))
        ? new Map(skus.flatMap((sku) => (state.owners?.has(sku) ? [[sku, state.owners.get(sku) ?? null]] : [])))
        : await ownersOfSkus(api, skus);
    if ([...owners.values()].some((owner) => owner !== rec.record.sku)) {
      throw new OwnedByShop('the SKU belongs to a product the shop owns');
    }
  }
  const categories = await resolveCategories(api, desired.categories, state.categories, state.ctx);
  const known = { ...(current ? idsOf(current).media : {}), ...(rec.known?.media ?? {}) };
  const media = await resolveImages(api, desired.images, known, state.ctx, state.uploads);
  const urls = desired.images.map((ref) => media[ref.sha256] as string);
  const metadata = state.translationModule
    ? desired.metadata
    : { ...desired.metadata, pim_translations: desired.translations };
  const common = {
    title: desired.title,
    description: desired.description,
    handle: desired.handle,
    status: desired.status,
    thumbnail: urls[0] ?? null,
    categories: categories.map((id) => ({ id })),
    variants: variantBodies(desired, current, state),
  };
  return { desired, media, urls, metadata, common };
}

/** An update made ready to send: its options added, its body for `/admin/products/batch`. */
export interface PreparedUpdate {
  rec: TargetRecord;
  current: MedusaProduct;
  desired: DesiredProduct;
  media: Record<string, string>;
  body: Record<string, unknown>;
}

export async function prepareUpdate(
  api: MedusaApi,
  rec: TargetRecord,
  product: Product,
  current: MedusaProduct,
  state: WriteState,
): Promise<PreparedUpdate> {
  const { desired, media, urls, metadata, common } = await prepareBody(api, rec, product, current, state);
  await linkOptions(api, current, desired, 'add');
  const sameImages = current.images.length === urls.length && current.images.every((image, i) => image.url === urls[i]);
  const images = urls.map((url) => {
    const existing = current.images.find((image) => image.url === url);
    return existing ? { id: existing.id, url } : { url };
  });
  const body = {
    id: current.id,
    ...common,
    ...(sameImages ? {} : { images }),
    metadata: withRemovals(metadata, current.metadata),
  };
  return { rec, current, desired, media, body };
}

/**
 * Sends prepared updates in one `/admin/products/batch` (one Medusa workflow for all of them,
 * instead of one per record), removes the options they no longer use, and syncs their
 * translations in one read and one batch. Medusa runs the batch as one workflow: when it
 * refuses it, nothing of it is kept and the caller writes the records one by one.
 */
export async function updateProducts(
  api: MedusaApi,
  updates: PreparedUpdate[],
  state: WriteState,
): Promise<TargetIds[]> {
  const { updated } = await api.post<{ updated: MedusaProduct[] }>(`/admin/products/batch${BATCH_FIELDS}`, {
    update: updates.map((u) => u.body),
  });
  const byId = new Map(updated.map((p) => [p.id, p]));
  for (const u of updates) {
    const answered = byId.get(u.current.id);
    if (answered) checkLinks(u.body, answered);
  }
  const ids: TargetIds[] = [];
  for (const u of updates) {
    // The options as read before the update: those the add phase made are all wanted, so what is
    // stale now was stale then (no second read of the product).
    await linkOptions(api, u.current, u.desired, 'remove');
    ids.push(idsOf(byId.get(u.current.id) ?? u.current, u.media));
  }
  if (state.translationModule) {
    await syncTranslations(
      api,
      updates.map((u, i) => ({ desired: u.desired, ids: ids[i] as TargetIds })),
      state.mapping,
    );
  }
  return ids;
}

/** The batch answers each product with its categories and sales channels, to check its links against. */
const BATCH_FIELDS = query({ fields: '+*categories' });

/**
 * A link the adapter sent that the shop did not make: a category or sales channel id it kept
 * (medusa-facts.ts) that the shop has deleted since. Medusa takes such an id without a word
 * (it links soft-deleted rows, which then do not show), so the answer is checked; the caller
 * drops its kept facts and writes the records again one by one, looked up anew.
 */
export class StaleLink extends MedusaRefusal {
  constructor(what: string) {
    super(`the ${what} the adapter sent is no longer in the shop`, 409);
  }
}

function checkLinks(body: Record<string, unknown>, answered: MedusaProduct): void {
  const linked = (list: { id: string }[] | undefined) => new Set((list ?? []).map((x) => x.id));
  const categories = linked(answered.categories);
  if (((body.categories ?? []) as { id: string }[]).some((c) => !categories.has(c.id))) throw new StaleLink('category');
  const channels = answered.sales_channels && linked(answered.sales_channels);
  if (channels && ((body.sales_channels ?? []) as { id: string }[]).some((c) => !channels.has(c.id)))
    throw new StaleLink('sales channel');
}

/** A create made ready to send: its body for `/admin/products/batch`. */
export interface PreparedCreate {
  rec: TargetRecord;
  desired: DesiredProduct;
  media: Record<string, string>;
  body: Record<string, unknown>;
}

export async function prepareCreate(
  api: MedusaApi,
  rec: TargetRecord,
  product: Product,
  state: WriteState,
): Promise<PreparedCreate> {
  const { desired, media, urls, metadata, common } = await prepareBody(api, rec, product, null, state);
  const body = {
    ...common,
    external_id: desired.sku,
    options: desired.options,
    images: urls.map((url) => ({ url })),
    metadata,
    ...(state.salesChannelId ? { sales_channels: [{ id: state.salesChannelId }] } : {}),
  };
  return { rec, desired, media, body };
}

/**
 * Sends prepared creates in one `/admin/products/batch` (products, their options, variants and
 * prices in one body: one Medusa workflow instead of one per record) and their translations in
 * one read and one batch. Medusa runs the batch as one workflow: refused, nothing of it is kept
 * and the caller writes the records one by one (reading each again first). Sent once: when its
 * answer is lost Medusa may have made the products, so the caller reads them again by
 * `external_id` the same way instead of sending the batch again.
 */
export async function createProducts(
  api: MedusaApi,
  creates: PreparedCreate[],
  state: WriteState,
): Promise<TargetIds[]> {
  const { created } = await api.create<{ created: MedusaProduct[] }>(`/admin/products/batch${BATCH_FIELDS}`, {
    create: creates.map((c) => c.body),
  });
  const byExternalId = new Map(created.map((p) => [p.external_id, p]));
  const ids = creates.map((c) => {
    const product = byExternalId.get(c.desired.sku);
    // Read again and written one by one by the caller, which finds what the batch did create.
    if (!product) throw new MedusaRefusal(`Medusa did not answer the created product ${c.desired.sku}`, 500);
    checkLinks(c.body, product);
    return idsOf(product, c.media);
  });
  if (state.translationModule) {
    await syncTranslations(
      api,
      creates.map((c, i) => ({ desired: c.desired, ids: ids[i] as TargetIds })),
      state.mapping,
    );
  }
  return ids;
}

export async function writeProduct(
  api: MedusaApi,
  rec: TargetRecord,
  product: Product,
  current: MedusaProduct | null,
  state: WriteState,
): Promise<{ ids: TargetIds; created: boolean }> {
  if (current) {
    const [ids] = await updateProducts(api, [await prepareUpdate(api, rec, product, current, state)], state);
    return { ids: ids as TargetIds, created: false };
  }
  const [ids] = await createProducts(api, [await prepareCreate(api, rec, product, state)], state);
  return { ids: ids as TargetIds, created: true };
}
