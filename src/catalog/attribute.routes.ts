import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import {
  AttributesQuery,
  addAttribute,
  AttributeDto,
  AttributeOut,
  listAttributes,
  updateAttribute,
} from './attributes';

const doc = (summary: string, response?: z.ZodType, conflict?: string) =>
  describeOperation({ tag: 'Catalog', summary, response, security: 'cookie', conflict });
const CODE_TAKEN = 'The attribute code is already in use';

/** `/api/Catalog/*` for attribute definitions (the typed fields SetValue writes besides built-ins). */
export const attributeRoutes = new Hono<AppEnv>()
  .get(
    '/GetAttributes',
    doc(
      "The company's attribute definitions (all, or a page with limit / cursor)",
      z.object({ items: z.array(AttributeOut), nextCursor: z.string().nullable().optional() }),
    ),
    validate('query', AttributesQuery),
    async (c) => c.json(await listAttributes(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/AddAttribute',
    doc('Define an attribute', AttributeOut, CODE_TAKEN),
    validate('json', AttributeDto),
    async (c) => c.json(await addAttribute(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateAttribute',
    doc('Rename an attribute or extend its enum values', AttributeOut, CODE_TAKEN),
    validate('json', AttributeDto),
    async (c) =>
      c.json(await updateAttribute({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  );
