import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { categories, media } from '../db/schema';
import type { MediaLink } from './protocol/wire';

/**
 * The media links of the categories a batch's masters are placed in, for the wire's
 * `categories[].links` (docs/shops.md "Category images"): the category pictures a shop shows.
 * Links only: a category's uploaded files and file references are not sent yet (docs/sync.md).
 * `position` is a link's place in its category's whole media list, as for a product's links.
 * Reads in chunks of 90 ids, each row joined to its category of the company.
 */
export async function categoryLinksOf(
  db: Database,
  companyId: string,
  categoryIds: Iterable<string>,
): Promise<Map<string, MediaLink[]>> {
  const ids = [...new Set(categoryIds)];
  const out = new Map<string, MediaLink[]>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({
        elementId: media.elementId,
        url: media.url,
        contentType: media.contentType,
        fileName: media.fileName,
        purpose: media.purpose,
        description: media.description,
        mimeCode: media.mimeCode,
      })
      .from(media)
      .innerJoin(categories, and(eq(categories.id, media.elementId), eq(categories.companyId, companyId)))
      .where(inArray(media.elementId, ids.slice(i, i + 90)))
      .orderBy(asc(media.elementId), asc(media.sortOrder), asc(media.id));
    let element = '';
    let position = 0;
    for (const r of rows) {
      position = r.elementId === element ? position + 1 : 0;
      element = r.elementId;
      if (!r.url) continue;
      const list = out.get(r.elementId) ?? [];
      list.push({
        url: r.url,
        contentType: r.contentType,
        fileName: r.fileName,
        purpose: r.purpose,
        description: r.description,
        mimeCode: r.mimeCode,
        position,
      });
      out.set(r.elementId, list);
    }
  }
  return out;
}
