import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { BatchStatement, Database } from '../db/client';
import { media } from '../db/schema';
import { historyStatement } from '../records/history-record';
import { mediaEntry } from '../records/snapshot';
import { retryOnConflict } from '../records/write-guard';
import { badRequest, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { attachmentColumn } from '../kernel/media-attachment';
import { MEDIA_PURPOSES, MediaAttachmentDto, mediaInsertStatements, mediaOut } from './media';
import { aggregateMedia, mediaUnchanged, readLinkContext, writeLink } from './media-link-write';
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
  /**
   * ETIM guideline MIME code (UDX.EDXF.MIME_CODE), MD01 to MD99, or the ETIM xChange
   * AttachmentTypeSpecification an xChange import keeps (MDX049 ...): what a read returns, a write accepts.
   */
  mimeCode: z
    .string()
    .regex(/^MD(\d\d|X\d{3})$/, 'must be an ETIM MIME code such as MD01 or an xChange code such as MDX049')
    .nullable(),
  alt: z.string().max(80).nullable(),
  attachment: MediaAttachmentDto.nullable(),
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
  attachment: linkFields.attachment.optional(),
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
  attachment: linkFields.attachment.optional(),
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
 * One read round trip, then one guarded batch (docs/history.md "Concurrency"): the row, its
 * history entry and, for a product, the master's revision bump with its new fingerprint; a
 * concurrent write of the product fails the guard and the add is planned again. The same URL
 * twice on one element is refused, as the import keeps one entry per URL.
 */
export async function addMediaLink(db: Database, tenant: Caller, input: z.infer<typeof AddMediaLinkDto>) {
  // The answer is the row the batch wrote: no read after the write.
  return mediaOut(await retryOnConflict(() => addOnce(db, tenant, input)));
}

async function addOnce(db: Database, tenant: Caller, input: z.infer<typeof AddMediaLinkDto>) {
  const ctx = await readLinkContext(db, tenant, input);
  if (ctx.siblings.some((m) => m.url === input.url))
    throw badRequest('url: the element already has a link to this URL');
  const last = Math.max(-1, ...ctx.siblings.map((m) => m.sortOrder));
  const id = newId();
  const fileName = linkFileName(input.url);
  const row = {
    id,
    elementId: ctx.element.id,
    purpose: input.purpose,
    fileName,
    contentType: input.contentType?.toLowerCase() ?? guessedType(fileName),
    size: 0,
    storageKey: linkStorageKey(tenant.companyId, id),
    sha256: null,
    description: input.description ?? null,
    sortOrder: last + 1,
    url: input.url,
    mimeCode: input.mimeCode ?? null,
    alt: input.alt ?? null,
    attachment: attachmentColumn(input.attachment),
  };
  await writeLink(
    db,
    tenant,
    ctx,
    mediaInsertStatements(db, tenant, ctx.element, row, null),
    (node) => node.media.push(aggregateMedia(row)),
    mediaUnchanged(ctx.element.id, input.url, last, null),
  );
  return row;
}

/**
 * Changes a link's URL, purpose, description, type, MIME code, alt text or attachment details (an uploaded file is
 * refused). One read round trip and one guarded batch, like AddLink.
 */
export async function updateMediaLink(db: Database, tenant: Caller, input: z.infer<typeof UpdateMediaLinkDto>) {
  return mediaOut(await retryOnConflict(() => updateOnce(db, tenant, input)));
}

async function updateOnce(db: Database, tenant: Caller, input: z.infer<typeof UpdateMediaLinkDto>) {
  const ctx = await readLinkContext(db, tenant, input);
  const old = ctx.row;
  if (!old) throw notFound('media');
  if (!old.url) throw badRequest('mediaId: an uploaded file, not a link (upload a new file instead)');
  const url = input.url ?? old.url;
  if (ctx.siblings.some((m) => m.url === url && m.id !== old.id))
    throw badRequest('url: the element already has a link to this URL');
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
    attachment: input.attachment !== undefined ? attachmentColumn(input.attachment) : old.attachment,
  };
  const { id: _id, elementId: _e, createdAt: _c, ...changes } = next;
  // Every column as read (the state the guard holds): nothing is written (docs/history.md, "A write that changes nothing").
  if (Object.entries(changes).every(([key, value]) => old[key as keyof typeof old] === value)) return old;
  const statements: BatchStatement[] = [
    db.update(media).set(changes).where(eq(media.id, old.id)),
    ...historyStatement(db, tenant, {
      elementId: ctx.element.id,
      kind: ctx.element.kind,
      place: ctx.element,
      before: { [`media.${old.id}`]: mediaEntry(old) },
      after: { [`media.${old.id}`]: mediaEntry(next) },
    }),
  ];
  const last = Math.max(-1, ...ctx.siblings.map((m) => m.sortOrder));
  await writeLink(
    db,
    tenant,
    ctx,
    statements,
    (node) => {
      node.media = node.media.map((m) => (m.mediaId === old.id ? aggregateMedia(next) : m));
    },
    mediaUnchanged(ctx.element.id, url, last, old),
  );
  return next;
}
