import type { ShopwareClient } from './client';
import { shopwareId } from './ids';
import type { OwnedItem } from './sync';

/**
 * Media the PIM made and nothing shows any more leave the shop's media library (docs/shops.md
 * "Images"): a replaced or removed product image, a replaced category picture, the images of a
 * product deleted on deactivation. Their deletes go into the batch's own Sync request, which
 * Shopware writes in one transaction with the product media and categories that let go of them,
 * so no crash can come between the detach and the delete; a record the shop refuses takes its
 * deletes out with the rest of its items.
 *
 * Only the PIM's media: a product image's media id derives from its content hash (ids.ts), and a
 * category's picture read from the shop counts only when its id is the one its file's name (the
 * sha256 the adapter uploads it under) derives. A media entity still shown is kept: by any
 * product's media (the merchant's products too) or category that this request does not take off
 * it, by a manufacturer, or by a record of this batch (the same bytes are one entity for every
 * product and category).
 */
export interface Dropped {
  /** The record (batch index) that no longer shows the media. */
  owner: number;
  mediaId: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

interface Going {
  /** Media ids the batch upserts or points a category at. */
  planned: Set<string>;
  productMedia: Set<string>;
  products: Set<string>;
  /** Category id -> the media id the batch sets on it (null: none). */
  categories: Map<string, string | null>;
}

/** What the batch's items keep, take away or point elsewhere. */
function going(items: OwnedItem[]): Going {
  const out: Going = { planned: new Set(), productMedia: new Set(), products: new Set(), categories: new Map() };
  for (const item of items) {
    const id = item.payload.id as string;
    if (item.action === 'delete') {
      if (item.op === 'product_media') out.productMedia.add(id);
      if (item.op === 'product') out.products.add(id);
      continue;
    }
    if (item.op === 'media') out.planned.add(id);
    if (item.op === 'category' && 'mediaId' in item.payload) {
      const mediaId = (item.payload.mediaId as string | null) ?? null;
      out.categories.set(id, mediaId);
      if (mediaId) out.planned.add(mediaId);
    }
  }
  return out;
}

/** The pictures the batch's categories show now and will not: the shop's media ids, to be checked as the PIM's. */
async function replacedPictures(client: ShopwareClient, items: OwnedItem[], g: Going): Promise<Dropped[]> {
  if (g.categories.size === 0) return [];
  const ids = [...g.categories.keys()];
  const rows = await client.searchAll<{ id: string; mediaId: string | null }>('category', {
    ids,
    includes: { category: ['id', 'mediaId'] },
  });
  const out: Dropped[] = [];
  for (const row of rows) {
    if (!row.mediaId || row.mediaId === g.categories.get(row.id)) continue;
    for (const item of items)
      if (item.op === 'category' && item.payload.id === row.id) out.push({ owner: item.owner, mediaId: row.mediaId });
  }
  return out;
}

/**
 * The media deletes to add to the batch's Sync request. `dropped` are product images the records
 * showed before (their previous product, their mirror ids) and show no more; the categories the
 * batch writes are read for the pictures it replaces. Requests: one category search when the batch
 * writes categories, and four more (the media, the product media, categories and manufacturers
 * showing them) only when something is dropped.
 */
export async function retireMedia(
  client: ShopwareClient,
  items: OwnedItem[],
  dropped: Dropped[],
): Promise<OwnedItem[]> {
  const g = going(items);
  const pictures = await replacedPictures(client, items, g);
  const candidates = [...dropped, ...pictures].filter((d) => !g.planned.has(d.mediaId));
  const ids = [...new Set(candidates.map((d) => d.mediaId))];
  if (ids.length === 0) return [];

  const media = await client.searchAll<{ id: string; fileName: string | null }>('media', {
    ids,
    includes: { media: ['id', 'fileName'] },
  });
  const pictureIds = new Set(pictures.map((p) => p.mediaId));
  const derived = new Set(dropped.map((d) => d.mediaId));
  const ours = new Set<string>();
  for (const m of media) {
    if (derived.has(m.id)) ours.add(m.id);
    else if (pictureIds.has(m.id) && SHA256.test(m.fileName ?? '') && (await shopwareId('media', m.fileName!)) === m.id)
      ours.add(m.id);
  }
  if (ours.size === 0) return [];

  const filter = [{ type: 'equalsAny', field: 'mediaId', value: [...ours].join('|') }];
  const shown = new Set<string>();
  for (const row of await client.searchAll<{ id: string; productId: string; mediaId: string }>('product_media', {
    filter,
    includes: { product_media: ['id', 'productId', 'mediaId'] },
  })) {
    if (!g.productMedia.has(row.id) && !g.products.has(row.productId)) shown.add(row.mediaId);
  }
  for (const row of await client.searchAll<{ id: string; mediaId: string }>('category', {
    filter,
    includes: { category: ['id', 'mediaId'] },
  })) {
    if (!g.categories.has(row.id)) shown.add(row.mediaId);
  }
  for (const row of await client.searchAll<{ id: string; mediaId: string }>('product_manufacturer', {
    filter,
    includes: { product_manufacturer: ['id', 'mediaId'] },
  })) {
    shown.add(row.mediaId);
  }
  return candidates
    .filter((d) => ours.has(d.mediaId) && !shown.has(d.mediaId))
    .map((d) => ({
      op: 'media',
      action: 'delete',
      owner: d.owner,
      field: 'product.media',
      payload: { id: d.mediaId },
    }));
}
