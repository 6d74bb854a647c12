import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeRoute } from '../openapi/route-meta';
import { addAttribute, AttributeDto, AttributeOut, listAttributes, updateAttribute } from './attributes';

const doc = (summary: string, response?: z.ZodType) =>
  describeRoute({ tag: 'Catalog', summary, response, security: 'cookie' });

/** `/api/Catalog/*` for attribute definitions (the typed fields SetValue writes besides built-ins). */
export const attributeRoutes = new Hono<AppEnv>()
  .get(
    '/GetAttributes',
    doc("The company's attribute definitions", z.object({ items: z.array(AttributeOut) })),
    async (c) => c.json(await listAttributes(c.var.db, c.var.caller)),
  )
  .post('/AddAttribute', doc('Define an attribute', AttributeOut), validate('json', AttributeDto), async (c) =>
    c.json(await addAttribute(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateAttribute',
    doc('Rename an attribute or extend its enum values', AttributeOut),
    validate('json', AttributeDto),
    async (c) => c.json(await updateAttribute(c.var.db, c.var.caller, c.req.valid('json'))),
  );
