import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { media } from '../db/schema';
import { assertDepartment, findElement } from '../db/scope';
import { historyStatement } from '../history/record';
import { mediaEntry } from '../history/snapshot';
import { badRequest, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { bumpRevision, refreshFingerprints } from '../sync/sync-record';
import { findMedia, MEDIA_PURPOSES, mediaInsertStatements, mediaOut } from './media';
import { isLinkUrl, linkFileName, linkStorageKey, MAX_LINK_URL } from './media-links.rules';

const linkUrl = z.string().max(MAX_LINK_URL).refine(isLinkUrl, 'must be an absolute http(s) URL');
const contentType = z
  .string()
  .max(100)
  .regex(/^[\w.+-]+\/[\w.+-]+$/, 'must be a MIME type such as image/jpeg');
const linkFields = {
  purpose: z.enum(MEDIA_PURPOSES),
  description: z.string().max(250).nullable(),
  contentType,
  /** ETIM guideline MIME code (UDX.EDXF.MIME_CODE), MD01 to MD99. */
  mimeCode: z
    .string()
    .regex(/^MD\d\d$/, 'must be an ETIM MIME code such as MD01')
    .nullable(),
  alt: z.string().max(80).nullable(),
};

export const AddMediaLinkDto = z.strictObject({
  departmentId: z.uuid(),
  elementId: z.uuid(),
  url: linkUrl,
  purpose: linkFields.purpose.default('normal'),
  description: linkFields.description.optional(),
  contentType: contentType.optional(),
  mimeCode: linkFields.mimeCode.optional(),
  alt: linkFields.alt.optional(),
});

export const UpdateMediaLinkDto = z.strictObject({
  departmentId: z.uuid(),
  mediaId: z.uuid(),
  url: linkUrl.optional(),
  purpose: linkFields.purpose.optional(),
  description: linkFields.description.optional(),
  contentType: contentType.optional(),
  mimeCode: linkFields.mimeCode.optional(),
  alt: linkFields.alt.optional(),
});

const GUESSED_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

const guessedType = (fileName: string) =>
  GUESSED_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';

/**
 * Adds a link to the end of an element's media list (uploaded files and links share one order).
 * The row, its history entry and the master's revision bump are one transaction; the same URL
 * twice on one element is refused, as the import keeps one entry per URL.
 */
export async function addMediaLink(db: Database, tenant: Caller, input: z.infer<typeof AddMediaLinkDto>) {
  await assertDepartment(db, tenant, input.departmentId);
  const element = await findElement(db, tenant, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  const twin = await db
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.elementId, element.id), eq(media.url, input.url)))
    .limit(1);
  if (twin.length > 0) throw badRequest('url: the element already has a link to this URL');
  const [last] = await db
    .select({ sortOrder: media.sortOrder })
    .from(media)
    .where(eq(media.elementId, element.id))
    .orderBy(desc(media.sortOrder))
    .limit(1);
  const id = newId();
  const fileName = linkFileName(input.url);
  const row = {
    id,
    elementId: element.id,
    purpose: input.purpose,
    fileName,
    contentType: input.contentType?.toLowerCase() ?? guessedType(fileName),
    size: 0,
    storageKey: linkStorageKey(tenant.companyId, id),
    description: input.description ?? null,
    sortOrder: (last?.sortOrder ?? -1) + 1,
    url: input.url,
    mimeCode: input.mimeCode ?? null,
    alt: input.alt ?? null,
  };
  const statements = mediaInsertStatements(db, tenant, element, row);
  await runBatch(db, statements);
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  return mediaOut((await db.query.media.findFirst({ where: eq(media.id, id) }))!);
}

/** Changes a link's URL, purpose, description, type, MIME code or alt text (an uploaded file is refused). */
export async function updateMediaLink(db: Database, tenant: Caller, input: z.infer<typeof UpdateMediaLinkDto>) {
  await assertDepartment(db, tenant, input.departmentId);
  const old = await findMedia(db, tenant, input.mediaId);
  const element = await findElement(db, tenant, old.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('media');
  if (!old.url) throw badRequest('mediaId: an uploaded file, not a link (upload a new file instead)');
  if (input.url !== undefined && input.url !== old.url) {
    const twin = await db
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.elementId, element.id), eq(media.url, input.url)))
      .limit(1);
    if (twin.length > 0) throw badRequest('url: the element already has a link to this URL');
  }
  const url = input.url ?? old.url;
  const fileName = linkFileName(url);
  const next = {
    ...old,
    url,
    fileName,
    purpose: input.purpose ?? old.purpose,
    description: input.description !== undefined ? input.description : old.description,
    contentType: input.contentType?.toLowerCase() ?? (input.url ? guessedType(fileName) : old.contentType),
    mimeCode: input.mimeCode !== undefined ? input.mimeCode : old.mimeCode,
    alt: input.alt !== undefined ? input.alt : old.alt,
  };
  const { id: _id, elementId: _e, createdAt: _c, ...changes } = next;
  const statements: BatchStatement[] = [
    db.update(media).set(changes).where(eq(media.id, old.id)),
    ...historyStatement(db, tenant, {
      elementId: element.id,
      kind: element.kind,
      before: { [`media.${old.id}`]: mediaEntry(old) },
      after: { [`media.${old.id}`]: mediaEntry(next) },
    }),
  ];
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  await runBatch(db, statements);
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  return mediaOut((await db.query.media.findFirst({ where: eq(media.id, old.id) }))!);
}
