import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { getHistory } from './history';
import { GetHistoryQuery, HistoryPageOut, RestoreOut, RestoreVersionDto } from './history.schemas';
import { restoreVersion } from './restore';

/** `/api/Catalog/GetHistory` and `/api/Catalog/RestoreVersion` (docs/history.md). */
export const historyRoutes = new Hono<AppEnv>()
  .get(
    '/GetHistory',
    describeOperation({
      tag: 'Catalog',
      summary: "An element's change history, newest first, keyset-paginated",
      response: HistoryPageOut,
      security: 'cookie',
    }),
    validate('query', GetHistoryQuery),
    async (c) => c.json(await getHistory(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/RestoreVersion',
    describeOperation({
      tag: 'Catalog',
      summary: 'Put an element back as it was after a version (recorded as a new version)',
      response: RestoreOut,
      security: 'cookie',
      conflict: 'A SKU of that version is used by another product now',
    }),
    validate('json', RestoreVersionDto),
    async (c) => c.json(await restoreVersion({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  );
