import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeRoute } from '../openapi/route-meta';
import { getHistory } from './history';
import { GetHistoryQuery, HistoryPageOut, RestoreOut, RestoreVersionDto } from './history.schemas';
import { restoreVersion } from './restore';

/** `/api/Catalog/GetHistory` and `/api/Catalog/RestoreVersion` (docs/history.md). */
export const historyRoutes = new Hono<AppEnv>()
  .get(
    '/GetHistory',
    describeRoute({
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
    describeRoute({
      tag: 'Catalog',
      summary: 'Put an element back as it was after a version (recorded as a new version)',
      response: RestoreOut,
      security: 'cookie',
    }),
    validate('json', RestoreVersionDto),
    async (c) => c.json(await restoreVersion({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  );
