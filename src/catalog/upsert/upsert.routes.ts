import { Hono } from 'hono';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { upsertProducts } from './upsert-api';
import { UpsertProductsDto, UpsertProductsOut } from './upsert.schemas';

/** `/api/Catalog/UpsertProducts`: bulk create-or-update by SKU (docs/import.md). */
export const upsertRoutes = new Hono<AppEnv>().post(
  '/UpsertProducts',
  describeOperation({
    tag: 'Catalog',
    summary:
      'Create or update up to 1000 products (with variants, values, features, categories, media references) by SKU in one transaction; answers per item',
    response: UpsertProductsOut,
    security: 'cookie',
    scopePerRecord: true,
  }),
  validate('json', UpsertProductsDto),
  async (c) => c.json(await upsertProducts({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
);
