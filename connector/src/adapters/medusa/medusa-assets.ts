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
 * text differ from the metadata Medusa answers; a category without a picture has both keys
 * removed (sent as "", which Medusa deletes). Only the placement's own category is touched, its
 * parents keep theirs.
 */
export interface CategoryCache {
  /** handle -> category id */
  ids: Map<string, string>;
  /** handle -> the picture metadata the category holds (`url` "" for none) */
  pictures: Map<string, { url: string; alt: string }>;
}

const pictureMetadata = (image: CategoryImage | null) => ({
  pim_image_url: image?.link.url ?? '',
  pim_image_alt: image?.link.url ? image.alt : '',
});

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
  const levels = new Map<
    string,
    { name: string; parent: string | null; pimId: string | null; picture?: { url: string; alt: string } }
  >();
  for (const [index, ref] of refs.entries()) {
    const picture = pictureMetadata(categoryImage(ref, index, ctx.mapping, ctx.refusedUrl));
    ref.path.forEach((name, i) => {
      const handle = categoryHandle(ref.path.slice(0, i + 1));
      const parent = i === 0 ? null : categoryHandle(ref.path.slice(0, i));
      const leaf = i === ref.path.length - 1;
      const before = levels.get(handle);
      levels.set(handle, {
        name,
        parent,
        pimId: leaf ? ref.id : (before?.pimId ?? null),
        picture: leaf ? { url: picture.pim_image_url, alt: picture.pim_image_alt } : before?.picture,
      });
    });
  }
  const unknown = [...levels.keys()].filter((h) => !cache.ids.has(h));
  if (unknown.length > 0) {
    const { product_categories } = await api.get<{
      product_categories: { id: string; handle: string; metadata: Record<string, unknown> | null }[];
    }>(`/admin/product-categories${query({ handle: unknown, fields: 'id,handle,metadata', limit: unknown.length })}`);
    for (const c of product_categories) {
      cache.ids.set(c.handle, c.id);
      const url = c.metadata?.pim_image_url;
      const alt = c.metadata?.pim_image_alt;
      cache.pictures.set(c.handle, {
        url: typeof url === 'string' ? url : '',
        alt: typeof alt === 'string' ? alt : '',
      });
    }
  }
  // Parents come before children in `levels` (each path is walked from its root).
  for (const [handle, level] of levels) {
    const picture = level.picture;
    const metadata = picture ? { pim_image_url: picture.url, pim_image_alt: picture.alt } : {};
    const id = cache.ids.get(handle);
    if (!id) {
      const { product_category } = await api.post<{ product_category: { id: string } }>('/admin/product-categories', {
        name: level.name,
        handle,
        is_active: true,
        parent_category_id: level.parent ? cache.ids.get(level.parent) : null,
        metadata: {
          ...(level.pimId ? { pim_category_id: level.pimId } : {}),
          ...(picture?.url ? metadata : {}),
        },
      });
      cache.ids.set(handle, product_category.id);
      cache.pictures.set(handle, picture ?? { url: '', alt: '' });
      continue;
    }
    const held = cache.pictures.get(handle) ?? { url: '', alt: '' };
    if (!picture || (held.url === picture.url && held.alt === picture.alt)) continue;
    await api.post(`/admin/product-categories/${id}`, { metadata });
    cache.pictures.set(handle, picture);
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
