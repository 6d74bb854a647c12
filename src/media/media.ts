import { and, asc, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { newId } from '../kernel/ids';
import { media } from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import { assertDepartment, type ElementRef, findElement } from '../db/scope';
import { bumpRevision, refreshFingerprints } from '../records/sync-record';
import { categoryLinksChanged, staleMastersIn } from '../records/category-paths';
import { historyStatement } from '../records/history-record';
import { mediaEntry } from '../records/snapshot';
import type { Caller } from '../kernel/caller';

import { MEDIA_PURPOSES } from '../kernel/media-purposes';
import { ATTACHMENT_TYPE, attachmentOfColumn, attachmentProblem } from '../kernel/media-attachment';
import { LANGUAGE_CODE } from '../kernel/code-rules';

export { MEDIA_PURPOSES };
export const ALLOWED_CONTENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'application/pdf',
] as const;
export const MAX_MEDIA_BYTES = 20 * 1024 * 1024;

export const UploadMediaQuery = z.strictObject({
  departmentId: z.uuid(),
  elementId: z.uuid(),
  fileName: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^/\\\u0000-\u001f]+$/, 'fileName must not contain path separators or control characters'),
  purpose: z.enum(MEDIA_PURPOSES).default('normal'),
  description: z.string().max(250).optional(),
});

/**
 * What a media entry keeps of an ETIM xChange attachment beyond its purpose (kernel/media-attachment.ts):
 * answered by every media read, taken by AddLink / UpdateLink and UpsertProducts.
 */
export const MediaAttachmentDto = z
  .strictObject({
    type: z.string().regex(ATTACHMENT_TYPE, 'must be an ETIM xChange AttachmentType such as ATX004').optional(),
    languages: z.array(z.string().regex(LANGUAGE_CODE, 'must be ISO 639-2 codes such as eng')).max(50).optional(),
    issueDate: z.iso.date().optional(),
    expiryDate: z.iso.date().optional(),
  })
  .refine((a) => attachmentProblem(a) === null, { message: 'expiryDate must not be before issueDate' });

export const MediaOut = z.object({
  mediaId: z.string(),
  elementId: z.string(),
  purpose: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  description: z.string().nullable(),
  /** `file`: uploaded (or referenced by name, size 0, until uploaded); `link`: a URL kept elsewhere. */
  kind: z.enum(['file', 'link']),
  url: z.string().nullable(),
  mimeCode: z.string().nullable(),
  alt: z.string().nullable(),
  attachment: MediaAttachmentDto.nullable(),
});

type MediaRow = typeof media.$inferSelect;

/** The public form of a media row (files and links alike). */
export function mediaOut(row: Omit<MediaRow, 'createdAt'>) {
  return {
    mediaId: row.id,
    elementId: row.elementId,
    purpose: row.purpose,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    description: row.description,
    kind: row.url ? ('link' as const) : ('file' as const),
    url: row.url,
    mimeCode: row.mimeCode,
    alt: row.alt,
    attachment: attachmentOfColumn(row.attachment),
  };
}

/**
 * Stores a file in R2 and attaches it to a catalog element. The object is written first; the
 * row (with the master's revision bump) is one transaction after it, and the object is removed
 * again if that transaction fails, so no row ever points at a missing file.
 */
export async function attachMedia(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: z.infer<typeof UploadMediaQuery> & { contentType: string; bytes: ArrayBuffer | Uint8Array },
) {
  const { db, files } = deps;
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const contentType = input.contentType.split(';')[0]!.trim().toLowerCase();
  if (!(ALLOWED_CONTENT_TYPES as readonly string[]).includes(contentType)) {
    throw badRequest(`Content-Type must be one of ${ALLOWED_CONTENT_TYPES.join(', ')}`);
  }
  const size = input.bytes.byteLength;
  if (size === 0) throw badRequest('the file is empty');
  if (size > MAX_MEDIA_BYTES) throw badRequest(`the file exceeds ${MAX_MEDIA_BYTES} bytes`);
  const id = newId();
  const sha256 = await sha256OfBytes(input.bytes);
  // Keys are grouped by catalog so deleting a catalog can remove its files by prefix.
  const storageKey = `${catalogMediaPrefix(tenant.companyId, element.catalogId)}${id}/${input.fileName}`;
  await files.put(storageKey, input.bytes, { httpMetadata: { contentType } });
  const [last] = await db
    .select({ sortOrder: media.sortOrder })
    .from(media)
    .where(eq(media.elementId, element.id))
    .orderBy(desc(media.sortOrder))
    .limit(1);
  const row = {
    id,
    elementId: element.id,
    purpose: input.purpose,
    fileName: input.fileName,
    contentType,
    size,
    storageKey,
    sha256,
    description: input.description ?? null,
    sortOrder: (last?.sortOrder ?? -1) + 1,
  };
  const statements = mediaInsertStatements(db, tenant, element, row);
  try {
    await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  } catch (err) {
    await files.delete(storageKey);
    throw err;
  }
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  const stored = await db.query.media.findFirst({ where: eq(media.id, id) });
  return mediaOut(stored!);
}

/**
 * The media row with this id if its element (product, category or catalog) is the company's:
 * media rows carry no company_id (migration 0010), the tenant is the element's.
 */
export async function findMedia(db: Database, tenant: Caller, mediaId: string) {
  const owned = (table: string) =>
    sql`EXISTS (SELECT 1 FROM ${sql.identifier(table)} o WHERE o.id = ${media.elementId} AND o.company_id = ${tenant.companyId})`;
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.id, mediaId), or(owned('products'), owned('categories'), owned('catalogs'))))
    .limit(1);
  if (!row) throw notFound('media');
  return row;
}

/**
 * A category's media links go on the wire with every product placed in it (docs/shops.md
 * "Category images"), so a write that changes them marks those products' records stale in the
 * write's batch (`staleOnLinkChange`) and refreshes their fingerprints after it
 * (`refreshAfterLinkChange`), as a category rename does. Files of a category are not sent.
 */
export function staleOnLinkChange(db: Database, companyId: string, element: ElementRef, link: boolean) {
  return element.kind === 'category' && link ? [categoryLinksChanged(db, companyId, [element.id])] : [];
}

export async function refreshAfterLinkChange(db: Database, companyId: string, element: ElementRef, link: boolean) {
  if (element.kind !== 'category' || !link) return;
  await refreshFingerprints(db, companyId, await staleMastersIn(db, companyId, element.id, { subtree: false }));
}

/** Detaches a file; the row goes in one transaction with the revision bump, then the object. */
export async function deleteMedia(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: { departmentId: string; mediaId: string },
) {
  const { db, files } = deps;
  await assertDepartment(db, tenant, input.departmentId);
  const row = await findMedia(db, tenant, input.mediaId);
  const element = await findElement(db, tenant, row.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('media');
  const statements: BatchStatement[] = [
    db.delete(media).where(eq(media.id, row.id)),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      place: element,
      before: { [`media.${row.id}`]: mediaEntry(row) },
      after: {},
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  statements.push(...staleOnLinkChange(db, tenant.companyId, element, Boolean(row.url)));
  await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  await files.delete(row.storageKey);
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  await refreshAfterLinkChange(db, tenant.companyId, element, Boolean(row.url));
  return { mediaId: row.id, deleted: true as const };
}

export const ReorderMediaDto = z.strictObject({
  departmentId: z.uuid(),
  elementId: z.uuid(),
  /** Every file of the element exactly once, in the new order. */
  mediaIds: z.array(z.uuid()).min(1).max(500),
});

/**
 * Puts an element's files in the given order (BMEcat writes MIME entries in this order; the
 * first image is the main one). The whole set must be named, so a stale client that missed an
 * upload gets 400 instead of silently misplacing files.
 */
export async function reorderMedia(db: Database, tenant: Caller, input: z.infer<typeof ReorderMediaDto>) {
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const current = await db.select().from(media).where(eq(media.elementId, element.id));
  const known = new Set(current.map((m) => m.id));
  const unique = new Set(input.mediaIds);
  if (unique.size !== input.mediaIds.length) throw badRequest('mediaIds: a file is listed twice');
  if (unique.size !== known.size || input.mediaIds.some((id) => !known.has(id))) {
    throw badRequest(`mediaIds: must list each of the element's ${known.size} files exactly once`);
  }
  const position = new Map(input.mediaIds.map((id, sortOrder) => [id, sortOrder]));
  // Every file already in its place: nothing is written (docs/history.md, "A write that changes nothing").
  const moved = current.filter((m) => m.sortOrder !== position.get(m.id));
  if (moved.length > 0) await writeOrder(db, tenant, element, current, moved, position);
  const rows = await db.select().from(media).where(eq(media.elementId, element.id)).orderBy(asc(media.sortOrder));
  return { elementId: element.id, items: rows.map(mediaOut) };
}

/** The new places of the files `moved`, with the element's version and its master's revision. */
async function writeOrder(
  db: Database,
  tenant: Caller,
  element: ElementRef,
  current: MediaRow[],
  moved: MediaRow[],
  position: Map<string, number>,
) {
  const statements: BatchStatement[] = moved.map((m) =>
    db
      .update(media)
      .set({ sortOrder: position.get(m.id)! })
      .where(eq(media.id, m.id)),
  );
  const snapshot = (order: (m: MediaRow) => number) =>
    Object.fromEntries(current.map((m) => [`media.${m.id}`, mediaEntry({ ...m, sortOrder: order(m) })]));
  statements.push(
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      place: element,
      before: snapshot((m) => m.sortOrder),
      after: snapshot((m) => position.get(m.id)!),
    }),
  );
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  const links = moved.some((m) => m.url);
  statements.push(...staleOnLinkChange(db, tenant.companyId, element, links));
  await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  await refreshAfterLinkChange(db, tenant.companyId, element, links);
}

/** Lowercase hex SHA-256 of a file's bytes (the content address a shop connector stores images under). */
export async function sha256OfBytes(bytes: ArrayBuffer | Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Every media object of a catalog lives under this prefix. */
function catalogMediaPrefix(companyId: string, catalogId: string): string {
  return `media/${companyId}/${catalogId}/`;
}

/** Storage keys of the media attached to the elements `condition` selects (read before deleting rows). */
export async function mediaKeysWhere(db: Database, condition: SQL): Promise<string[]> {
  const rows = await db.select({ key: media.storageKey }).from(media).where(condition);
  return rows.map((r) => r.key);
}

/** Deletes R2 objects, at most 1000 keys per call as R2 allows. */
export async function deleteObjects(files: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 1000) await files.delete(keys.slice(i, i + 1000));
}

/** Removes all files of a deleted catalog, one listing page at a time (bounded memory). */
export async function purgeCatalogMedia(files: R2Bucket, companyId: string, catalogId: string): Promise<void> {
  const prefix = catalogMediaPrefix(companyId, catalogId);
  let cursor: string | undefined;
  do {
    const page = await files.list({ prefix, cursor, limit: 1000 });
    await deleteObjects(
      files,
      page.objects.map((o) => o.key),
    );
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * A new media entry (an uploaded file or a link) of `element`: the row, its history version
 * and the master's revision, for one batch. A guarded write passes `bump: null` and bumps the
 * revision with the new fingerprint itself (media-link-write.ts).
 */
export function mediaInsertStatements(
  db: Database,
  tenant: Caller,
  element: ElementRef,
  row: typeof media.$inferInsert & Parameters<typeof mediaEntry>[0] & { id: string },
  bump: 'revision' | null = 'revision',
): BatchStatement[] {
  const statements: BatchStatement[] = [
    db.insert(media).values(row),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      place: element,
      before: {},
      after: { [`media.${row.id}`]: mediaEntry(row) },
    }),
  ];
  if (element.masterId && bump) statements.push(bumpRevision(db, element.masterId));
  return statements;
}
