import { bodyHash } from '../../../../src/sync/protocol/signing';
import { MediaError } from '../../media/media-bytes';
import { CategoryImageRefused, categoryImage } from '../common/category-image';
import type { TargetRecord, WriteContext } from '../target-adapter';

/** A category picture as the write knows it: the hash its media id derives from, and the bytes when read. */
export interface PictureContent {
  sha256: string;
  bytes: ArrayBuffer | null;
}

/**
 * The content of every category picture the records show, read before planning (docs/shops.md
 * "One picture, one file"): Shopware's media ids derive from content hashes, so a category
 * picture with the same bytes as a product image is the same media entity. A link has no hash:
 * `WriteContext.categoryPicture` knows it (`category_pictures`, connector migration 0002; a
 * conditional request per URL and request, a fetch on first sight), else the bytes are fetched
 * (`linkBytes`) and hashed. A URL that cannot be read is answered with the plain reason (the
 * record fails there, retryably); a refused URL is left to the plan, which fails the record.
 */
export async function readCategoryPictures(
  records: TargetRecord[],
  ctx: Pick<WriteContext, 'mapping' | 'refusedUrl' | 'linkBytes' | 'categoryPicture'>,
): Promise<Map<string, PictureContent | Error>> {
  const links = new Map<string, Parameters<WriteContext['linkBytes']>[0]>();
  for (const r of records) {
    for (const [i, ref] of (r.record.product?.categories ?? []).entries()) {
      try {
        const image = categoryImage(ref, i, ctx.mapping, ctx.refusedUrl);
        if (image && !links.has(image.link.url)) links.set(image.link.url, image.link);
      } catch (err) {
        if (!(err instanceof CategoryImageRefused)) throw err;
      }
    }
  }
  const out = new Map<string, PictureContent | Error>();
  for (const [url, link] of links) {
    try {
      const known = await ctx.categoryPicture?.(url);
      if (known) {
        out.set(url, known);
        continue;
      }
      const bytes = await (await ctx.linkBytes(link)).arrayBuffer();
      out.set(url, { sha256: await bodyHash(bytes), bytes });
    } catch (err) {
      if (!(err instanceof MediaError)) throw err;
      out.set(url, new Error(`the category picture could not be read: ${err.message}`));
    }
  }
  return out;
}

/**
 * The bytes to upload for a category picture whose media has no file: those read before
 * planning, else fetched again and checked against the hash the media id promises (bytes that
 * changed meanwhile are not put under it: the record goes again with the next run).
 */
export async function pictureBytes(
  picture: PictureContent,
  link: Parameters<WriteContext['linkBytes']>[0],
  linkBytes: WriteContext['linkBytes'],
): Promise<ArrayBuffer> {
  if (picture.bytes) return picture.bytes;
  const bytes = await (await linkBytes(link)).arrayBuffer();
  if ((await bodyHash(bytes)) !== picture.sha256)
    throw new MediaError('the category picture changed while it was written; it goes again with the next run');
  return bytes;
}
