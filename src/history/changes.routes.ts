import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { getChanges } from './changes-feed';
import { ChangesPageOut, GetChangesQuery } from './changes.schemas';

/** `/api/Changes/GetChanges`: the company's changes in commit order, for systems that pull (docs/changes-feed.md). */
export const changesRoutes = new Hono<AppEnv>().get(
  '/GetChanges',
  describeOperation({
    tag: 'Changes',
    summary: 'Every change of the company after a cursor, in commit order, deletes included; resumable',
    response: ChangesPageOut,
    security: 'cookie',
  }),
  validate('query', GetChangesQuery),
  async (c) => c.json(await getChanges(c.var.db, c.var.caller, c.req.valid('query'))),
);
