import type { MediaRef, Product } from '../../../../src/sync/protocol/wire';
import type { WriteContext } from '../target-adapter';
import { type CategoryImage, categoryImage } from '../common/category-image';
import { type MedusaApi, query } from './medusa-api';
import { slugify } from '../common/slug';

/**
 * Categories and images, the two things Medusa keeps outside the product and neither finds by
 * an external key. Categories are found by a handle derived from their PIM path (`pim-` and the
 * path's slugs joined by `--`), so a second run reuses them. Images are uploaded once per
 * content hash: the upload is named `<sha256>.<ext>`, so the hash can be read back from the
 * image URL after a lost mapping (`hashOfUrl`) and the bytes are never sent twice.
 */
export function categoryHandle(path: string[]): string {
  return `pim-${path.map((name) => slugify(name) || 'pim-product').join('--')}`;
}

/**
 * Medusa's product categories have no image in core: a category's picture
 * (common/category-image.ts) is kept in its metadata as `pim_image_url` and `pim_image_alt`,
 * for a storefront to show. Sent when the category is made, and again only when the URL or the
 * text differ from the metadata Medusa answers; a category without a picture loses both keys.
 * Medusa replaces a category's metadata whole on an update (it neither merges nor deletes keys
 * sent as "", unlike a product's), so the update sends the metadata as read with only those two
 * keys changed. Only the placement's own category is touched, its parents keep theirs.
 */
export interface CategoryCache {
  /** handle -> category id */
  ids: Map<string, string>;
  /** handle -> the category's metadata as Medusa answered it (or as the adapter wrote it) */
  metadata: Map<string, Record<string, unknown>>;
  /** handle -> the category's name as Medusa answered it (or as the adapter wrote it) */
  names: Map<string, string>;
  /** handle -> the other handle Medusa answered for that category (changed in the shop), to write back */
  moved: Map<string, string>;
  /** handle -> the parent category id Medusa answered (null: a root), to write the PIM's path back */
  parents: Map<string, string | null>;
}

/** A category as the chunk's verification reads it. */
interface ShopCategory {
  id: string;
  handle: string;
  name: string;
  metadata: Record<string, unknown> | null;
  parent_category_id: string | null;
}

const CATEGORY_FIELDS = 'id,handle,name,metadata,parent_category_id';

/**
 * The kept categories a chunk places products in, and every parent on their paths, read again
 * by id in one request per chunk (issue 35, fifth round): the facts are kept for the isolate
 * (medusa-facts.ts), and a merchant may have renamed, moved (another handle or parent) or
 * deleted any of them since. A category Medusa no longer answers is forgotten, so
 * `resolveCategories` looks it up by handle or makes it again; one whose name, handle,
 * metadata or parent differ has what Medusa answered kept, so `resolveCategories` writes the
 * PIM's path back. Before, only a leaf was compared, and only when a product placed in it was
 * updated (read with its categories); a parent, or the leaf of a product being created,
 * was trusted as kept.
 */
export async function verifyCategories(api: MedusaApi, refs: Product['categories'], cache: CategoryCache) {
  const handles = [
    ...new Set(refs.flatMap((ref) => ref.path.map((_, i) => categoryHandle(ref.path.slice(0, i + 1))))),
  ].filter((handle) => cache.ids.has(handle));
  if (handles.length === 0) return;
  const byId = new Map(handles.map((handle) => [cache.ids.get(handle) as string, handle]));
  const { product_categories } = await api.get<{ product_categories: ShopCategory[] }>(
    `/admin/product-categories${query({ id: [...byId.keys()], fields: CATEGORY_FIELDS, limit: byId.size })}`,
  );
  const answered = new Map(product_categories.map((c) => [c.id, c]));
  for (const [id, handle] of byId) {
    const c = answered.get(id);
    if (!c) {
      forgetCategory(cache, handle);
      continue;
    }
    if (c.handle !== handle) cache.moved.set(handle, c.handle);
    cache.names.set(handle, c.name);
    cache.metadata.set(handle, c.metadata ?? {});
    cache.parents.set(handle, c.parent_category_id ?? null);
  }
}

function forgetCategory(cache: CategoryCache, handle: string) {
  cache.ids.delete(handle);
  cache.names.delete(handle);
  cache.metadata.delete(handle);
  cache.moved.delete(handle);
  cache.parents.delete(handle);
}

type Picture = { pim_image_url: string; pim_image_alt: string } | null;

const pictureOf = (image: CategoryImage | null): Picture =>
  image ? { pim_image_url: image.link.url, pim_image_alt: image.alt } : null;

/** The metadata with the picture's keys set, or without them when there is no picture. */
function withPicture(metadata: Record<string, unknown>, picture: Picture): Record<string, unknown> {
  const { pim_image_url: _url, pim_image_alt: _alt, ...rest } = metadata;
  return picture ? { ...rest, ...picture } : rest;
}

const samePicture = (metadata: Record<string, unknown>, picture: Picture) =>
  (metadata.pim_image_url ?? null) === (picture?.pim_image_url ?? null) &&
  (metadata.pim_image_alt ?? null) === (picture?.pim_image_alt ?? null);

/**
 * The category ids of a product's refs; missing categories are created top-down (by path), and
 * each placement's category gets its picture's metadata; both cached for the batch. `refusedUrl`
 * is the SSRF rule (a refused picture throws `CategoryImageRefused` before anything is written).
 */
export async function resolveCategories(
  api: MedusaApi,
  refs: Product['categories'],
  cache: CategoryCache,
  ctx: Pick<WriteContext, 'mapping' | 'refusedUrl'>,
): Promise<string[]> {
  const levels = new Map<string, { name: string; parent: string | null; pimId: string | null; picture?: Picture }>();
  for (const [index, ref] of refs.entries()) {
    const picture = pictureOf(categoryImage(ref, index, ctx.mapping, ctx.refusedUrl));
    ref.path.forEach((name, i) => {
      const handle = categoryHandle(ref.path.slice(0, i + 1));
      const parent = i === 0 ? null : categoryHandle(ref.path.slice(0, i));
      const leaf = i === ref.path.length - 1;
      const before = levels.get(handle);
      levels.set(handle, {
        name,
        parent,
        pimId: leaf ? ref.id : (before?.pimId ?? null),
        picture: leaf ? picture : before?.picture,
      });
    });
  }
  const unknown = [...levels.keys()].filter((h) => !cache.ids.has(h));
  if (unknown.length > 0) {
    const { product_categories } = await api.get<{ product_categories: ShopCategory[] }>(
      `/admin/product-categories${query({ handle: unknown, fields: CATEGORY_FIELDS, limit: unknown.length })}`,
    );
    for (const c of product_categories) {
      cache.ids.set(c.handle, c.id);
      cache.metadata.set(c.handle, c.metadata ?? {});
      cache.names.set(c.handle, c.name);
      cache.parents.set(c.handle, c.parent_category_id ?? null);
    }
  }
  // Parents come before children in `levels` (each path is walked from its root).
  for (const [handle, level] of levels) {
    const id = cache.ids.get(handle);
    const parentId = level.parent ? (cache.ids.get(level.parent) ?? null) : null;
    if (!id) {
      const metadata = withPicture(level.pimId ? { pim_category_id: level.pimId } : {}, level.picture ?? null);
      const { product_category } = await api.post<{ product_category: { id: string } }>('/admin/product-categories', {
        name: level.name,
        handle,
        is_active: true,
        parent_category_id: parentId,
        metadata,
      });
      cache.ids.set(handle, product_category.id);
      cache.metadata.set(handle, metadata);
      cache.names.set(handle, level.name);
      cache.parents.set(handle, parentId);
      continue;
    }
    // A name, handle or parent changed in the shop is written back (the PIM's path names the category).
    const update: Record<string, unknown> = {};
    const named = cache.names.get(handle);
    if (named !== undefined && named !== level.name) update.name = level.name;
    if (cache.moved.has(handle)) update.handle = handle;
    const parent = cache.parents.get(handle);
    if (parent !== undefined && parent !== parentId) update.parent_category_id = parentId;
    // `undefined`: a parent only, whose picture this record does not decide.
    const held = cache.metadata.get(handle) ?? {};
    if (level.picture !== undefined && !samePicture(held, level.picture))
      update.metadata = withPicture(held, level.picture);
    if (Object.keys(update).length === 0) continue;
    await api.post(`/admin/product-categories/${id}`, update);
    cache.names.set(handle, level.name);
    cache.moved.delete(handle);
    cache.parents.set(handle, parentId);
    if (update.metadata) cache.metadata.set(handle, update.metadata as Record<string, unknown>);
  }
  return refs.map((ref) => cache.ids.get(categoryHandle(ref.path)) as string);
}

const HASH_IN_URL = /\/(?:[^/]*-)?([0-9a-f]{64})\.[a-z0-9]+$/;

/** The content hash an uploaded image's URL carries (file-local prefixes the name with a timestamp). */
export function hashOfUrl(url: string): string | null {
  return HASH_IN_URL.exec(url)?.[1] ?? null;
}

function extensionOf(ref: MediaRef): string {
  const fromName = /\.([a-zA-Z0-9]{1,8})$/.exec(ref.fileName)?.[1];
  if (fromName) return fromName.toLowerCase();
  return ref.contentType.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin';
}

/** The URLs of the images (content hash -> URL): known ones reused, the others uploaded once. */
export async function resolveImages(
  api: MedusaApi,
  refs: MediaRef[],
  known: Record<string, string>,
  ctx: WriteContext,
  uploaded: Map<string, string>,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const ref of refs) {
    let url = known[ref.sha256] ?? uploaded.get(ref.sha256);
    if (!url) {
      const bytes = await ctx.mediaBytes(ref);
      url = (await api.upload(bytes, `${ref.sha256}.${extensionOf(ref)}`)).url;
      uploaded.set(ref.sha256, url);
    }
    out[ref.sha256] = url;
  }
  return out;
}
