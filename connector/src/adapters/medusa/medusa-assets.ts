import type { MediaRef, Product } from '../../../../src/sync/protocol/wire';
import type { WriteContext } from '../target-adapter';
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

/** The category ids of a product's refs; missing categories are created top-down (by path) and cached for the batch. */
export async function resolveCategories(
  api: MedusaApi,
  refs: Product['categories'],
  cache: Map<string, string>,
): Promise<string[]> {
  const levels = new Map<string, { name: string; parent: string | null; pimId: string | null }>();
  for (const ref of refs) {
    ref.path.forEach((name, i) => {
      const handle = categoryHandle(ref.path.slice(0, i + 1));
      const parent = i === 0 ? null : categoryHandle(ref.path.slice(0, i));
      levels.set(handle, {
        name,
        parent,
        pimId: i === ref.path.length - 1 ? ref.id : (levels.get(handle)?.pimId ?? null),
      });
    });
  }
  const unknown = [...levels.keys()].filter((h) => !cache.has(h));
  if (unknown.length > 0) {
    const { product_categories } = await api.get<{ product_categories: { id: string; handle: string }[] }>(
      `/admin/product-categories${query({ handle: unknown, fields: 'id,handle', limit: unknown.length })}`,
    );
    for (const c of product_categories) cache.set(c.handle, c.id);
  }
  // Parents come before children in `levels` (each path is walked from its root).
  for (const [handle, level] of levels) {
    if (cache.has(handle)) continue;
    const { product_category } = await api.post<{ product_category: { id: string } }>('/admin/product-categories', {
      name: level.name,
      handle,
      is_active: true,
      parent_category_id: level.parent ? cache.get(level.parent) : null,
      metadata: level.pimId ? { pim_category_id: level.pimId } : {},
    });
    cache.set(handle, product_category.id);
  }
  return refs.map((ref) => cache.get(categoryHandle(ref.path)) as string);
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
