import type { CategoryRef, MediaLink } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';

/**
 * The purposes of a category's links that are pictures (src/kernel/media-purposes.ts), in the
 * order a shop prefers them: the normal picture, then a detail view, then a thumbnail. Data
 * sheets, logos and others are never a category's image.
 */
export const CATEGORY_PICTURE_PURPOSES = ['normal', 'detail', 'thumbnail'] as const;

/** The picture a shop shows for a category, with the record field a refusal is reported on. */
export interface CategoryImage {
  link: MediaLink;
  /** `product.categories.<i>.links.<j>`: the category's place in the record and the link's in its list. */
  field: string;
  /** The text shops show for it (alt text): the link's description, else the category's name. */
  alt: string;
}

/**
 * One rule for every adapter (docs/shops.md "Category images"): a category's image is the first
 * of its links (by position) whose content type is an image and whose purpose is a picture,
 * a normal picture before a detail view before a thumbnail, and, when `mapping.imagePurposes`
 * names purposes, one of those. Null when the category has none: the shop's category image is
 * then removed. A link has no content hash (Vendure's adapter downloads one while the shop
 * lacks its asset, Shopware's learns its hash before planning: shopware/pictures.ts), so the
 * others identify a category image by its URL.
 *
 * `refusedUrl` is the connector's SSRF rule (`WriteContext.refusedUrl`): a picture on a refused
 * URL throws `CategoryImageRefused` naming the link, and the adapter fails the record there.
 */
export function categoryImage(
  category: CategoryRef,
  index: number,
  mapping: TargetMapping,
  refusedUrl: (url: string) => string | null,
): CategoryImage | null {
  const rank = (link: MediaLink) => CATEGORY_PICTURE_PURPOSES.indexOf(link.purpose as never);
  const candidates = (category.links ?? [])
    .map((link, j) => ({ link, j }))
    .filter(({ link }) => link.contentType.toLowerCase().startsWith('image/') && rank(link) >= 0)
    .filter(({ link }) => mapping.imagePurposes.length === 0 || mapping.imagePurposes.includes(link.purpose))
    .sort((a, b) => rank(a.link) - rank(b.link) || a.link.position - b.link.position);
  const first = candidates[0];
  if (!first) return null;
  const field = `product.categories.${index}.links.${first.j}`;
  const refused = refusedUrl(first.link.url);
  if (refused) throw new CategoryImageRefused(field, `the category image URL is refused: ${refused}`);
  const name = category.path[category.path.length - 1] ?? category.id;
  return { link: first.link, field, alt: first.link.description?.trim() || name };
}

/** A category picture whose URL the SSRF rule refuses; `field` names the link in the record. */
export class CategoryImageRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}
