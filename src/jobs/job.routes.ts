import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { PageQuery } from '../kernel/pagination';
import { cancelJob, getJob, JobOut, listJobs } from './jobs';
import { releaseJobResources, sweepDeps, sweepIfStale } from '../runners/recovery';

const JobQuery = z.strictObject({ jobId: z.uuid() });
const CancelJobDto = z.strictObject({ jobId: z.uuid() });

/**
 * `/api/Job/*`: background job status (docs/design.md section 5). Polls also run the job
 * recovery sweep when one of the company's jobs is stale (docs/reliability.md).
 */
export const jobRoutes = new Hono<AppEnv>()
  .get(
    '/GetJob',
    describeOperation({
      tag: 'Job',
      summary: 'Status, progress and result of a background job',
      response: JobOut,
      security: 'cookie',
    }),
    validate('query', JobQuery),
    async (c) => {
      await sweepIfStale(sweepDeps(c.env, c.var.db), c.var.caller, new Date());
      return c.json(await getJob(c.var.db, c.var.caller, c.req.valid('query').jobId));
    },
  )
  .get(
    '/GetJobs',
    describeOperation({
      tag: 'Job',
      summary: "The company's jobs, newest first",
      response: z.object({ items: z.array(JobOut), nextCursor: z.string().nullable() }),
      security: 'cookie',
    }),
    validate('query', z.strictObject(PageQuery)),
    async (c) => {
      await sweepIfStale(sweepDeps(c.env, c.var.db), c.var.caller, new Date());
      return c.json(await listJobs(c.var.db, c.var.caller, c.req.valid('query')));
    },
  )
  .post(
    '/CancelJob',
    describeOperation({
      tag: 'Job',
      summary: 'Cancel a queued or running job',
      response: JobOut,
      security: 'cookie',
      conflict: 'The job has already finished',
      // A publisher cancels the exports and syncs they started; any other job needs product.write (cancelJob).
      permission: 'publish',
    }),
    validate('json', CancelJobDto),
    async (c) => {
      const job = await cancelJob(c.var.db, c.var.caller, c.req.valid('json').jobId);
      // The open upload goes now; a slice still running notices the cancel and stops.
      await releaseJobResources(c.var.db, c.env.FILES, job.jobId);
      return c.json(job);
    },
  );
