import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { JobRef } from '../jobs/jobs';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { startMassEdit, StartMassEditDto } from './mass-edit';

/** `/api/Catalog/StartMassEdit`: one field for many products, as a background job (kind `massEdit`). */
export const massEditRoutes = new Hono<AppEnv>().post(
  '/StartMassEdit',
  describeOperation({
    tag: 'Catalog',
    summary:
      'Set one field, attribute or feature on selected products (productIds) or on all a filter matches, as a background job',
    description:
      'Field and value are checked before the job is queued (400). Poll Job/GetJob: progress {done, total}; result.report {updated, unchanged, failed: [{productId, sku, error}], failedCount}. A member limited to category subtrees: productIds outside them are refused (403, nothing queued); a filter edits the matching products in the subtrees and reports the others as `skipped`.',
    response: JobRef,
    security: 'cookie',
    scopePerRecord: true,
  }),
  validate('json', StartMassEditDto),
  async (c) => c.json(await startMassEdit({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
);
