import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { AppError, notFound } from '../kernel/app-error';
import { validate } from '../http/validate';
import { describeOperation, type OperationDoc } from '../openapi/describe-operation';
import { findJob, JobRef } from '../jobs/jobs';
import {
  completeImportUpload,
  createImportUpload,
  CreateUploadDto,
  CreateUploadOut,
  FileIdDto,
  ImportFileOut,
  uploadImportFile,
  uploadImportPart,
  UploadPartQuery,
  UploadQuery,
} from './import-files';
import { getImport, ImportDetailOut, ImportOut, listImports } from './import-views';
import { startImport, StartImportDto } from './start-import';
import { Page, PageQuery } from '../kernel/pagination';

const doc = (summary: string, response?: z.ZodType, more: Partial<OperationDoc> = {}) =>
  describeOperation({ tag: 'Import', summary, response, security: 'cookie', ...more });
const lengthOf = (header: string | undefined) => (header && /^\d+$/.test(header) ? Number(header) : NaN);

/** `/api/Import/*`: upload files, start import jobs, download their reports (docs/import.md). */
export const importRoutes = new Hono<AppEnv>()
  .post(
    '/Upload',
    doc('Upload a file to import (raw body up to 100 MB, with Content-Length)', ImportFileOut, {
      upload: 'application/octet-stream',
      textsUpload: true,
    }),
    validate('query', UploadQuery),
    async (c) =>
      c.json(
        await uploadImportFile({ db: c.var.db, files: c.env.FILES }, c.var.caller, {
          fileName: c.req.valid('query').fileName,
          contentType: c.req.header('Content-Type'),
          length: lengthOf(c.req.header('Content-Length')),
          body: c.req.raw.body,
        }),
      ),
  )
  .post(
    '/CreateUpload',
    doc('Start a multipart upload for a file over 100 MB; send parts of partSize bytes', CreateUploadOut, {
      textsUpload: true,
    }),
    validate('json', CreateUploadDto),
    async (c) =>
      c.json(await createImportUpload({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  )
  .put(
    '/UploadPart',
    doc(
      'Upload one part (1-based) of a multipart upload as the raw body',
      z.object({ fileId: z.string(), part: z.number().int(), size: z.number().int() }),
      {
        upload: 'application/octet-stream',
        textsUpload: true,
        conflict: 'The upload is already complete, or too many parts arrive at once (send the part again)',
      },
    ),
    validate('query', UploadPartQuery),
    async (c) =>
      c.json(
        await uploadImportPart({ db: c.var.db, files: c.env.FILES }, c.var.caller, {
          ...c.req.valid('query'),
          length: lengthOf(c.req.header('Content-Length')),
          body: c.req.raw.body,
        }),
      ),
  )
  .post(
    '/CompleteUpload',
    doc('Complete a multipart upload', ImportFileOut, { textsUpload: true }),
    validate('json', FileIdDto),
    async (c) =>
      c.json(
        await completeImportUpload({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json').fileId),
      ),
  )
  .post(
    '/StartImport',
    doc('Queue an import of an uploaded file into a catalog as a background job', JobRef, {
      description:
        '`mode: "texts"` is a texts-only import: of each product of the file that exists in the catalog it writes only the name, description and keywords and the translations (names, descriptions, keywords, localizable attributes) in the languages the caller may write, creates and deletes nothing, and names every other field it ignores once in the job\'s warnings; it is the one import a translator (a role with "text.write" but not "product.write") may start. A member limited to category subtrees imports row by row: a product row or category outside them is rejected and reported, the others land (docs/teams.md).',
      conflict: 'The upload is not complete yet (Import/CompleteUpload)',
      scopePerRecord: true,
      textsImport: true,
    }),
    validate('json', StartImportDto),
    async (c) => c.json(await startImport({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/DownloadReport',
    doc("Download a finished import's report (CSV of rejected products with line and reason)", undefined, {
      responseContentType: 'text/csv',
      conflict: 'The import has not finished (no report yet)',
    }),
    validate('query', z.strictObject({ jobId: z.uuid() })),
    async (c) => {
      const job = await findJob(c.var.db, c.var.caller, c.req.valid('query').jobId);
      if (job.kind !== 'import') throw notFound('import job');
      if (job.state !== 'succeeded' || !job.resultKey)
        throw new AppError('conflict', `import is ${job.state}; no report yet`);
      const object = await c.env.FILES.get(job.resultKey);
      if (!object) throw notFound('import report');
      return new Response(object.body, {
        headers: {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Length': String(object.size),
          'Content-Disposition': `attachment; filename="${job.resultFileName}"`,
          'Cache-Control': 'private, no-store',
        },
      });
    },
  )
  .get(
    '/GetImports',
    doc(
      "The company's imports, newest first (optionally of one catalog), with state, counts, who and when",
      Page(ImportOut),
    ),
    validate('query', z.strictObject({ ...PageQuery, catalogId: z.uuid().optional() })),
    async (c) => c.json(await listImports(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetImport',
    doc(
      'One import: its job, the detected format, version, transaction, encoding and languages of its file, and the report grouped by reason with the first rows of each',
      ImportDetailOut,
    ),
    validate('query', z.strictObject({ jobId: z.uuid() })),
    async (c) =>
      c.json(await getImport({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('query').jobId)),
  );
