import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import {
  CatalogDto,
  CatalogListQuery,
  CatalogOut,
  CatalogStats,
  DepartmentQuery,
  SetValueDto,
  SetValueOut,
} from './catalog.schemas';
import { Page } from '../kernel/pagination';
import { addCatalog, deleteCatalog, getCatalog, getStats, listCatalogs, updateCatalog } from './catalogs';
import { setValue } from './values';
import { CodesInUseOut, CodesInUseQuery, listCodesInUse } from './codes-in-use';

const doc = (summary: string, response?: z.ZodType, conflict?: string) =>
  describeOperation({ tag: 'Catalog', summary, response, security: 'cookie', conflict });

/** `/api/Catalog/*` for catalogs, statistics and SetValue. */
export const catalogRoutes = new Hono<AppEnv>()
  .get(
    '/GetStats',
    doc('Counts of catalogs, categories and products of the current department', CatalogStats),
    validate('query', DepartmentQuery),
    async (c) => c.json(await getStats(c.var.db, c.var.caller, c.req.valid('query').departmentId)),
  )
  .post('/AddCatalog', doc('Create a catalog', CatalogOut), validate('json', CatalogDto), async (c) =>
    c.json(await addCatalog(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateCatalog',
    doc('Update a catalog (catalogId required)', CatalogOut),
    validate('json', CatalogDto),
    async (c) => c.json(await updateCatalog(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetCatalogs',
    doc("List the company's catalogs", Page(CatalogOut)),
    validate('query', CatalogListQuery),
    async (c) => c.json(await listCatalogs(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetCatalog',
    doc('Get one catalog', CatalogOut),
    validate('query', z.strictObject({ catalogId: z.uuid() })),
    async (c) => c.json(await getCatalog(c.var.db, c.var.caller, c.req.valid('query').catalogId)),
  )
  .get(
    '/GetCodesInUse',
    doc("The price types or feature-block systems a catalog's products use, in code order", CodesInUseOut),
    validate('query', CodesInUseQuery),
    async (c) => c.json(await listCodesInUse(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/DeleteCatalog',
    doc('Delete a catalog with everything in it', z.object({ catalogId: z.string(), deleted: z.literal(true) })),
    validate('json', z.strictObject({ departmentId: z.uuid(), catalogId: z.uuid() })),
    async (c) => c.json(await deleteCatalog({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/SetValue',
    doc(
      'Set one field, attribute or classification feature value of an element',
      SetValueOut,
      'The sku is already used in this catalog',
    ),
    validate('json', SetValueDto),
    async (c) => c.json(await setValue(c.var.db, c.var.caller, c.req.valid('json'))),
  );
