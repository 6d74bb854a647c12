import { inArray } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jsonInsert } from '../../db/json-rows';
import { media } from '../../db/schema';
import { contentTypeOf } from '../../catalog/upsert/resolve/resolve-record';
import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { MEDIA_PURPOSES } from '../../media/media';
import { isLinkUrl, linkFileName, linkStorageKey, mediaKey } from '../../media/media-links.rules';
import { newId } from '../../kernel/ids';

/** A staged group's media (import_groups.links: links and file references) as JSON text, or null when it has none. */
export function stagedLinks(refs: readonly UpsertMediaRef[]): string | null {
  const kept = refs.filter((m) => (m.url ? isLinkUrl(m.url) : m.fileName.trim() !== ''));
  return kept.length > 0 ? JSON.stringify(kept) : null;
}

/**
 * The media rows of the categories the groups became (docs/import.md "Category media"): a
 * CATALOG_STRUCTURE's MIME_INFO entries in the file's order after the category's existing
 * media, by the rule of product media: an absolute URL is a link, anything else a file
 * reference by name (size 0, no object until Media/Upload). An entry the category already has
 * (the same URL, the same file name) is left as it is, so importing the same file twice adds
 * nothing. Reads the categories' current media in chunks. `categoriesWithNewLinks` names the
 * categories that gained a link (by URL): their products' sync records carry it.
 */
export async function categoryLinkStatements(
  db: Database,
  companyId: string,
  groups: readonly { categoryId: string; links: string }[],
): Promise<{ statements: BatchStatement[]; created: number; categoriesWithNewLinks: string[] }> {
  const ids = [...new Set(groups.map((g) => g.categoryId))];
  const existing = new Map<string, { keys: Set<string>; last: number }>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ elementId: media.elementId, url: media.url, fileName: media.fileName, sortOrder: media.sortOrder })
      .from(media)
      .where(inArray(media.elementId, ids.slice(i, i + 90)));
    for (const r of rows) {
      const entry = existing.get(r.elementId) ?? { keys: new Set<string>(), last: -1 };
      entry.keys.add(mediaKey(r));
      entry.last = Math.max(entry.last, r.sortOrder);
      existing.set(r.elementId, entry);
    }
  }
  const rows: (typeof media.$inferInsert)[] = [];
  for (const g of groups) {
    const entry = existing.get(g.categoryId) ?? { keys: new Set<string>(), last: -1 };
    existing.set(g.categoryId, entry);
    for (const m of JSON.parse(g.links) as UpsertMediaRef[]) {
      const key = mediaKey(m);
      if (entry.keys.has(key)) continue;
      entry.keys.add(key);
      const id = newId();
      const fileName = m.url ? linkFileName(m.url) : m.fileName.slice(0, 250);
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
        // A reference only: no object is stored under this key until the file is uploaded (Media/Upload).
        storageKey: m.url ? linkStorageKey(companyId, id) : `media-ref/${companyId}/${id}`,
        description: m.description?.slice(0, 250) || null,
        sortOrder: ++entry.last,
        url: m.url ?? null,
        mimeCode: m.mimeCode?.trim().slice(0, 10) || null,
        alt: m.alt?.trim().slice(0, 80) || null,
      });
    }
  }
  const categoriesWithNewLinks = [...new Set(rows.filter((r) => r.url).map((r) => r.elementId))];
  return { statements: jsonInsert(db, media, rows), created: rows.length, categoriesWithNewLinks };
}
