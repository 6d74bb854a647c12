import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { REFERENCE_TYPES } from './reference-rules';
import { GetReferencesQuery, getReferences, SetReferencesIn, setReferences } from './references';

/** The answer of GetReferences and SetReferences (documented in docs/rest-api.md "Product references"). */
export const ReferencesOut = z.object({
  productId: z.string(),
  sku: z.string().nullable(),
  outgoing: z.array(
    z.object({
      position: z.number().int(),
      type: z.enum(REFERENCE_TYPES),
      targetSku: z.string(),
      quantity: z.number().int().nullable(),
      targetProductId: z.string().nullable(),
      targetName: z.string().nullable(),
      /** The target SKU is not in the catalog (yet); the reference resolves when it arrives. */
      pending: z.boolean(),
    }),
  ),
  incoming: z.array(
    z.object({
      productId: z.string(),
      sku: z.string().nullable(),
      name: z.string().nullable(),
      type: z.enum(REFERENCE_TYPES),
      quantity: z.number().int().nullable(),
    }),
  ),
  incomingTruncated: z.boolean(),
});

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
