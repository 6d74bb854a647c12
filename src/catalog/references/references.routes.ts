import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { ReferencesOut } from './reference.schemas';
import { GetReferencesQuery, getReferences, SetReferencesIn, setReferences } from './references';

const doc = (summary: string, conflict?: string) =>
  describeOperation({ tag: 'Catalog', summary, response: ReferencesOut, security: 'cookie', conflict });

/** `/api/Catalog/GetReferences` and `/api/Catalog/SetReferences`. */
export const referenceRoutes = new Hono<AppEnv>()
  .get(
    '/GetReferences',
    doc("A product's outgoing references (pending ones marked) and the references of other products to it"),
    validate('query', GetReferencesQuery),
    async (c) => c.json(await getReferences(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/SetReferences',
    doc(
      'Replace a product\'s outgoing references (an empty list only with "clear": true); a target SKU not in the catalog is kept as pending',
      'The product was changed by other writes at the same time',
    ),
    validate('json', SetReferencesIn),
    async (c) => c.json(await setReferences(c.var.db, c.var.caller, c.req.valid('json'))),
  );
