import { inArray } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jsonInsert } from '../../db/json-rows';
import { media } from '../../db/schema';
import { contentTypeOf } from '../../catalog/upsert/resolve/resolve-record';
import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { MEDIA_PURPOSES } from '../../media/media';
import { isLinkUrl, linkFileName, linkStorageKey } from '../../media/media-links.rules';
import { newId } from '../../kernel/ids';

/** A staged group's links (import_groups.links) as JSON text, or null when it has none. */
export function stagedLinks(refs: readonly UpsertMediaRef[]): string | null {
  const links = refs.filter((m) => m.url && isLinkUrl(m.url));
  return links.length > 0 ? JSON.stringify(links) : null;
}

/**
 * The link rows of the categories the groups became (docs/import.md "Category media"): a
 * CATALOG_STRUCTURE's MIME_INFO entries whose MIME_SOURCE is an absolute URL, in the file's
 * order after the category's existing media. A URL the category already has is left as it is,
 * so importing the same file twice adds nothing. File names (no URL) are not kept for
 * categories: there are no bytes to attach. Reads the categories' current links in chunks.
 */
export async function categoryLinkStatements(
  db: Database,
  companyId: string,
  groups: readonly { categoryId: string; links: string }[],
): Promise<{ statements: BatchStatement[]; created: number }> {
  const ids = [...new Set(groups.map((g) => g.categoryId))];
  const existing = new Map<string, { urls: Set<string>; last: number }>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ elementId: media.elementId, url: media.url, sortOrder: media.sortOrder })
      .from(media)
      .where(inArray(media.elementId, ids.slice(i, i + 90)));
    for (const r of rows) {
      const entry = existing.get(r.elementId) ?? { urls: new Set<string>(), last: -1 };
      if (r.url) entry.urls.add(r.url);
      entry.last = Math.max(entry.last, r.sortOrder);
      existing.set(r.elementId, entry);
    }
  }
  const rows: (typeof media.$inferInsert)[] = [];
  for (const g of groups) {
    const entry = existing.get(g.categoryId) ?? { urls: new Set<string>(), last: -1 };
    existing.set(g.categoryId, entry);
    for (const m of JSON.parse(g.links) as UpsertMediaRef[]) {
      if (!m.url || entry.urls.has(m.url)) continue;
      entry.urls.add(m.url);
      const id = newId();
      const fileName = linkFileName(m.url);
      rows.push({
        id,
        elementId: g.categoryId,
        purpose:
          m.purpose && (MEDIA_PURPOSES as readonly string[]).includes(m.purpose)
            ? m.purpose
            : m.purpose
              ? 'others'
              : 'normal',
        fileName,
        contentType: contentTypeOf(fileName, m.contentType),
        size: 0,
        storageKey: linkStorageKey(companyId, id),
        description: m.description?.slice(0, 250) || null,
        sortOrder: ++entry.last,
        url: m.url,
        mimeCode: m.mimeCode?.trim().slice(0, 10) || null,
        alt: m.alt?.trim().slice(0, 80) || null,
      });
    }
  }
  return { statements: jsonInsert(db, media, rows), created: rows.length };
}
