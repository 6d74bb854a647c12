import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { newId } from '../kernel/ids';
import { importFiles } from '../db/schema';
import { AppError, badRequest, conflict, notFound } from '../kernel/app-error';
import { seesOwnWorkOnly } from '../db/product-scope';
import type { Caller } from '../kernel/caller';

/** Largest single-request upload: the Workers request body limit. Larger files go through CreateUpload. */
const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
/** Part size of multipart uploads (R2: every part but the last the same size, at least 5 MiB). */
const UPLOAD_PART_SIZE = 50 * 1024 * 1024;
/** R2 allows 10,000 parts: with 50 MiB parts, files up to about 488 GiB. */
const MAX_PARTS = 10_000;

const FileName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\\\u0000-\u001f]+$/, 'fileName must not contain path separators or control characters');
export const UploadQuery = z.strictObject({ fileName: FileName });
export const UploadPartQuery = z.strictObject({
  fileId: z.uuid(),
  part: z.coerce.number().int().min(1).max(MAX_PARTS),
});
export const FileIdDto = z.strictObject({ fileId: z.uuid() });
export const CreateUploadDto = z.strictObject({ fileName: FileName, contentType: z.string().max(100).optional() });
export const ImportFileOut = z.object({
  fileId: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  state: z.enum(['uploading', 'complete']),
});
export const CreateUploadOut = z.object({ fileId: z.string(), partSize: z.number().int() });

const keyOf = (companyId: string, fileId: string) => `imports/${companyId}/files/${fileId}`;
const contentTypeOf = (raw: string | undefined) =>
  (raw ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase() || 'application/octet-stream';

/** An upload of the caller's company, else 404 (other tenants' files are never revealed). */
export async function findImportFile(db: Database, tenant: Caller, fileId: string) {
  const row = await db.query.importFiles.findFirst({
    where: and(
      eq(importFiles.id, fileId),
      eq(importFiles.companyId, tenant.companyId),
      // a scoped member's uploads are their own (db/product-scope.ts)
      seesOwnWorkOnly(tenant) ? eq(importFiles.userId, tenant.userId) : undefined,
    ),
  });
  if (!row) throw notFound('import file');
  return row;
}

const out = (row: typeof importFiles.$inferSelect) => ({
  fileId: row.id,
  fileName: row.fileName,
  size: row.size,
  state: row.state,
});

/**
 * Stores a file sent as the raw request body (up to MAX_UPLOAD_BYTES) in R2, streamed: the
 * body is never held in memory. The row is written after the object, so a row always has a file.
 */
export async function uploadImportFile(
  deps: { db: Database; files: R2Bucket },
  caller: Caller,
  input: { fileName: string; contentType?: string; length: number; body: ReadableStream<Uint8Array> | null },
) {
  if (!Number.isInteger(input.length) || input.length <= 0 || !input.body)
    throw badRequest('the body is empty (send the file as the body, with Content-Length)');
  if (input.length > MAX_UPLOAD_BYTES)
    throw new AppError(
      'payload_too_large',
      `the file exceeds ${MAX_UPLOAD_BYTES} bytes; use Import/CreateUpload for larger files`,
    );
  const id = newId();
  const key = keyOf(caller.companyId, id);
  const contentType = contentTypeOf(input.contentType);
  // FixedLengthStream tells R2 the length up front and fails if the body is shorter or longer.
  const { readable, writable } = new FixedLengthStream(input.length);
  const [, object] = await Promise.all([
    input.body.pipeTo(writable),
    deps.files.put(key, readable, { httpMetadata: { contentType } }),
  ]);
  const [row] = await deps.db
    .insert(importFiles)
    .values({
      id,
      companyId: caller.companyId,
      userId: caller.userId,
      fileName: input.fileName,
      contentType,
      storageKey: key,
      state: 'complete',
      size: object?.size ?? input.length,
    })
    .returning();
  return out(row!);
}

/** Starts a multipart upload for a file larger than one request; the client sends parts of `partSize` bytes. */
export async function createImportUpload(
  deps: { db: Database; files: R2Bucket },
  caller: Caller,
  input: z.infer<typeof CreateUploadDto>,
) {
  const id = newId();
  const key = keyOf(caller.companyId, id);
  const contentType = contentTypeOf(input.contentType);
  const upload = await deps.files.createMultipartUpload(key, { httpMetadata: { contentType } });
  await deps.db.insert(importFiles).values({
    id,
    companyId: caller.companyId,
    userId: caller.userId,
    fileName: input.fileName,
    contentType,
    storageKey: key,
    uploadId: upload.uploadId,
    parts: [],
    state: 'uploading',
  });
  return { fileId: id, partSize: UPLOAD_PART_SIZE };
}

/** Stores one part (1-based). Parts may be sent again; the last one sent for a number counts. */
export async function uploadImportPart(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: { fileId: string; part: number; length: number; body: ReadableStream<Uint8Array> | null },
) {
  const row = await findImportFile(deps.db, tenant, input.fileId);
  if (row.state !== 'uploading' || !row.uploadId) throw conflict('the upload is already complete');
  if (!Number.isInteger(input.length) || input.length <= 0 || !input.body)
    throw badRequest('the part is empty (send it as the body, with Content-Length)');
  if (input.length > UPLOAD_PART_SIZE)
    throw new AppError('payload_too_large', `a part holds at most ${UPLOAD_PART_SIZE} bytes`);
  const upload = deps.files.resumeMultipartUpload(row.storageKey, row.uploadId);
  const { readable, writable } = new FixedLengthStream(input.length);
  const [, part] = await Promise.all([input.body.pipeTo(writable), upload.uploadPart(input.part, readable)]);
  // Read-modify-write of the part list, conditional on the list read: concurrent parts retry.
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await findImportFile(deps.db, tenant, input.fileId);
    const parts = [
      ...(current.parts ?? []).filter((p) => p.partNumber !== input.part),
      { partNumber: part.partNumber, etag: part.etag },
    ].sort((a, b) => a.partNumber - b.partNumber);
    const [updated] = await deps.db
      .update(importFiles)
      .set({ parts })
      .where(
        and(
          eq(importFiles.id, current.id),
          eq(importFiles.state, 'uploading'),
          current.parts ? eq(importFiles.parts, current.parts) : undefined,
        ),
      )
      .returning();
    if (updated) return { fileId: current.id, part: input.part, size: input.length };
  }
  throw conflict('too many parts at once; send this part again');
}

/** Completes a multipart upload: the file becomes importable. */
export async function completeImportUpload(deps: { db: Database; files: R2Bucket }, tenant: Caller, fileId: string) {
  const row = await findImportFile(deps.db, tenant, fileId);
  if (row.state === 'complete') return out(row);
  const parts = row.parts ?? [];
  if (parts.length === 0) throw badRequest('no parts were uploaded');
  if (parts.some((p, i) => p.partNumber !== i + 1))
    throw badRequest(`parts must be numbered 1..${parts.length} without gaps`);
  const object = await deps.files.resumeMultipartUpload(row.storageKey, row.uploadId!).complete(parts);
  const [updated] = await deps.db
    .update(importFiles)
    .set({ state: 'complete', uploadId: null, size: object.size })
    .where(eq(importFiles.id, row.id))
    .returning();
  return out(updated!);
}
