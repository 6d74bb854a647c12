import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { AppError, notFound } from '../kernel/app-error';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { findJob, JobRef } from '../jobs/jobs';
import { PageQuery, Page } from '../kernel/pagination';
import { StartExportDto, startExport } from './start-export';
import {
  addTemplate,
  deleteTemplate,
  ExportTemplateDto,
  ExportTemplateOut,
  getTemplate,
  listTemplates,
  updateTemplate,
} from './templates';
import { contentDisposition } from '../kernel/content-disposition';

const DownloadQuery = z.strictObject({ jobId: z.uuid() });
const TemplateQuery = z.strictObject({ templateId: z.uuid() });
const DeleteTemplateDto = z.strictObject({ templateId: z.uuid() });
const doc = (summary: string, response?: z.ZodType, conflict?: string) =>
  describeOperation({ tag: 'Export', summary, response, security: 'cookie', conflict });

/** Templates say what an export writes: publishing, like running it (docs/teams.md). */
const templateDoc = (summary: string, response?: z.ZodType, conflict?: string) =>
  describeOperation({ tag: 'Export', summary, response, security: 'cookie', conflict, permission: 'publish' });
const NAME_TAKEN = 'A template of that name already exists';

/** `/api/Export/*`: queue exports, download their files, and manage export templates. */
export const exportRoutes = new Hono<AppEnv>()
  .post(
    '/StartExport',
    describeOperation({
      tag: 'Export',
      summary: 'Queue an export of a catalog as a background job',
      response: JobRef,
      security: 'cookie',
      permission: 'publish',
    }),
    validate('json', StartExportDto),
    async (c) =>
      c.json(
        await startExport(
          { db: c.var.db, queue: c.env.JOB_QUEUE, origin: new URL(c.req.url).origin },
          c.var.caller,
          c.req.valid('json'),
        ),
      ),
  )
  .get(
    '/Download',
    describeOperation({
      tag: 'Export',
      summary: 'Download the file of a succeeded export job',
      responseContentType: 'application/octet-stream',
      security: 'cookie',
      conflict: 'The export has not succeeded (no file to download yet)',
    }),
    validate('query', DownloadQuery),
    async (c) => {
      const job = await findJob(c.var.db, c.var.caller, c.req.valid('query').jobId);
      if (job.state !== 'succeeded' || !job.resultKey)
        throw new AppError('conflict', `export is ${job.state}; no file to download yet`);
      const object = await c.env.FILES.get(job.resultKey);
      if (!object) throw notFound('export file');
      return new Response(object.body, {
        headers: {
          'Content-Type': job.resultContentType ?? 'application/octet-stream',
          'Content-Length': String(object.size),
          'Content-Disposition': contentDisposition('attachment', job.resultFileName ?? 'export'),
          'Cache-Control': 'private, no-store',
        },
      });
    },
  )
  .post(
    '/AddTemplate',
    templateDoc('Create an export template (format, language, options)', ExportTemplateOut, NAME_TAKEN),
    validate('json', ExportTemplateDto),
    async (c) => c.json(await addTemplate(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateTemplate',
    templateDoc('Replace an export template (templateId required)', ExportTemplateOut, NAME_TAKEN),
    validate('json', ExportTemplateDto),
    async (c) => c.json(await updateTemplate(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetTemplates',
    doc("The company's export templates", Page(ExportTemplateOut)),
    validate('query', z.strictObject(PageQuery)),
    async (c) => c.json(await listTemplates(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get('/GetTemplate', doc('One export template', ExportTemplateOut), validate('query', TemplateQuery), async (c) =>
    c.json(await getTemplate(c.var.db, c.var.caller, c.req.valid('query').templateId)),
  )
  .post(
    '/DeleteTemplate',
    templateDoc('Delete an export template', z.object({ templateId: z.string(), deleted: z.literal(true) })),
    validate('json', DeleteTemplateDto),
    async (c) => c.json(await deleteTemplate(c.var.db, c.var.caller, c.req.valid('json').templateId)),
  );
