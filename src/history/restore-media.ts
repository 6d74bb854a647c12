import { and, eq } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { media } from '../db/schema';
import { linkStorageKey } from '../media/media-links.rules';
import { attachmentColumn, type MediaAttachment } from '../kernel/media-attachment';
import type { Json, Snapshot } from '../records/snapshot';
import { isTranslation } from './restore-translations';

/** What a restore can put back on a file that still exists: its placement in the order and its metadata. */
const FILE_RESTORED = ['sortOrder', 'purpose', 'description', 'attachment'] as const;
/** A link is all metadata (its bytes live elsewhere): where it points comes back too. */
const LINK_RESTORED = [...FILE_RESTORED, 'url', 'fileName', 'contentType', 'mimeCode', 'alt'] as const;

type Entry = Record<string, Json>;
const differs = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);

/**
 * The media part of a restore (docs/history.md "Restore"). A file the element still has gets
 * its order, purpose and description back; its bytes never changed (a file is replaced by
 * upload and delete, not edited). A file deleted since the version is gone with its bytes, and
 * a file uploaded after it is kept: both are reported in `skipped`. A link has no stored
 * bytes, so it comes back whole: one deleted since is re-created under its old id (its history
 * entry holds every column), one changed since points where it pointed, and one added since is
 * removed (a later restore can bring it back the same way). `linksChanged` says whether any
 * link was re-created, removed or changed: a category's links are part of the sync record of
 * every product placed in it (docs/shops.md "Category images").
 */
export function mediaRestore(
  db: Database,
  companyId: string,
  elementId: string,
  current: Snapshot,
  target: Snapshot,
  keep: (path: string, reason: string) => void,
): { statements: BatchStatement[]; applied: Snapshot; removed: string[]; linksChanged: boolean } {
  const statements: BatchStatement[] = [];
  const applied: Snapshot = {};
  const removed: string[] = [];
  let linksChanged = false;
  // A media description in another language (`media.<id>@eng`) is a translation: restore-translations.ts restores it.
  const paths = new Set(
    [...Object.keys(current), ...Object.keys(target)].filter((p) => p.startsWith('media.') && !isTranslation(p)),
  );
  for (const path of paths) {
    const id = path.slice(6);
    const now = current[path] as Entry | undefined;
    const then = target[path] as Entry | undefined;
    if (!now && then?.url) {
      statements.push(db.insert(media).values(linkRow(companyId, elementId, id, then)));
      applied[path] = then;
      linksChanged = true;
      continue;
    }
    if (!now) {
      keep(path, 'the file was deleted after this version and its bytes are not kept: upload it again');
      continue;
    }
    if (!then && now.url) {
      statements.push(db.delete(media).where(and(eq(media.id, id), eq(media.elementId, elementId))));
      removed.push(path);
      linksChanged = true;
      continue;
    }
    if (!then) {
      keep(path, 'the file was uploaded after this version; a restore does not delete files');
      continue;
    }
    if (!differs(now, then)) continue;
    const fields = now.url && then.url ? LINK_RESTORED : FILE_RESTORED;
    const set: Record<string, Json> = Object.fromEntries(fields.map((field) => [field, then[field] ?? null]));
    // The column holds the attachment as JSON text (kernel/media-attachment.ts).
    set.attachment = attachmentColumn(then.attachment as MediaAttachment | undefined);
    if (set.sortOrder === null) set.sortOrder = now.sortOrder ?? 0;
    statements.push(
      db
        .update(media)
        .set(set)
        // The element is the tenant's (checked before the restore); media rows are scoped by it.
        .where(and(eq(media.id, id), eq(media.elementId, elementId))),
    );
    const { attachment: _column, ...restored } = { ...now, ...set };
    applied[path] = then.attachment ? { ...restored, attachment: then.attachment } : restored;
    if (now.url || then.url) linksChanged = true;
  }
  return { statements, applied, removed, linksChanged };
}

/** The row of a link as its snapshot entry recorded it (records/snapshot.ts mediaEntry). */
function linkRow(companyId: string, elementId: string, id: string, entry: Entry): typeof media.$inferInsert {
  const text = (key: string) => (typeof entry[key] === 'string' ? (entry[key] as string) : null);
  return {
    id,
    elementId,
    purpose: text('purpose') ?? 'normal',
    fileName: text('fileName') ?? 'link',
    contentType: text('contentType') ?? 'application/octet-stream',
    size: 0,
    storageKey: linkStorageKey(companyId, id),
    description: text('description'),
    sortOrder: typeof entry.sortOrder === 'number' ? entry.sortOrder : 0,
    url: text('url'),
    mimeCode: text('mimeCode'),
    alt: text('alt'),
    attachment: attachmentColumn(entry.attachment as MediaAttachment | undefined),
  };
}
