import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { AppError, notFound } from '../http/app-error';
import { validate } from '../http/validate';
import { describeRoute } from '../openapi/route-meta';
import { findJob } from '../jobs/jobs';
import { JobRef, StartExportDto, startExport } from './start-export';

const DownloadQuery = z.strictObject({ jobId: z.uuid() });

/** `/api/Export/*`: queue exports and download their files. */
export const exportRoutes = new Hono<AppEnv>()
  .post(
    '/StartExport',
    describeRoute({ tag: 'Export', summary: 'Queue an export of a catalog as a background job', response: JobRef, security: 'cookie' }),
    validate('json', StartExportDto),
    async (c) => c.json(await startExport({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/Download',
    describeRoute({ tag: 'Export', summary: 'Download the file of a succeeded export job', responseContentType: 'application/octet-stream', security: 'cookie' }),
    validate('query', DownloadQuery),
    async (c) => {
      const job = await findJob(c.var.db, c.var.caller, c.req.valid('query').jobId);
      if (job.state !== 'succeeded' || !job.resultKey) throw new AppError('conflict', `export is ${job.state}; no file to download yet`);
      const object = await c.env.FILES.get(job.resultKey);
      if (!object) throw notFound('export file');
      return new Response(object.body, {
        headers: {
          'Content-Type': job.resultContentType ?? 'application/octet-stream',
          'Content-Length': String(object.size),
          'Content-Disposition': `attachment; filename="${job.resultFileName}"`,
          'Cache-Control': 'private, no-store',
        },
      });
    },
  );
