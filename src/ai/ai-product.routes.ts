import { Hono } from 'hono';
import { z } from 'zod';
import {
  PRODUCT_IDENTITY,
  ProductDetailOut,
  ProductDto,
  ProductListItemOut,
  ProductListQuery,
  ProductOut,
  SetValueDto,
  SetValueOut,
} from '../catalog/catalog.schemas';
import { listProducts } from '../catalog/product-list';
import { tidyAfterSearch } from '../catalog/product.routes';
import { getProduct } from '../catalog/product-queries';
import { updateProduct } from '../catalog/products';
import { LanguageQuery } from '../catalog/translations/read-language';
import { setValue } from '../catalog/values';
import { validate } from '../http/validate';
import { Page } from '../kernel/pagination';
import type { AgentEnv } from '../oauth/bearer';
import { agentCatalogDoc } from './agent-doc';

const doc = agentCatalogDoc;

/** An agent names its department only when it works in another one than its user's default (as MCP's tools). */
const inDepartment = { departmentId: z.uuid().optional() };

/**
 * `{base_url}/ai/*` for products (docs/languages.md "Agents"): the REST reads and writes of
 * names, descriptions and values, with the same schemas and domain functions as
 * `/api/Catalog/*` (language=, languages=all, missingTranslation=; SetValue's `language`,
 * UpdateProduct's `translations`). The caller is the agent, so history records its user,
 * surface `agent` and OAuth client. Mounted behind `requireAgent('api')` (ai.routes.ts).
 */
export const aiProductRoutes = new Hono<AgentEnv>()
  .get(
    '/GetProducts',
    doc(
      'Master products of a catalog as REST GetProducts: q, filters (missingTranslation=eng lists those without English, classificationRelease=ETIM-9.0 those still on that release), language= or languages=all, keyset-paginated',
      Page(ProductListItemOut),
    ),
    validate('query', ProductListQuery),
    async (c) => {
      const query = c.req.valid('query');
      tidyAfterSearch(c, query.q);
      return c.json(await listProducts(c.var.db, c.var.agent, query));
    },
  )
  .get(
    '/GetProduct',
    doc(
      'A product with values, classification, media and variants, its texts in `language` (or every language: languages=all)',
      ProductDetailOut,
    ),
    validate('query', z.strictObject({ productId: z.uuid(), ...LanguageQuery })),
    async (c) => {
      const { productId, ...language } = c.req.valid('query');
      return c.json(await getProduct(c.var.db, c.var.agent, productId, language));
    },
  )
  .post(
    '/SetValue',
    doc(
      'Set one field, attribute or feature value as REST SetValue; `language` writes that language of a localizable field',
      SetValueOut,
      undefined,
      { permission: 'text.write' },
    ),
    validate('json', SetValueDto.extend(inDepartment)),
    async (c) => {
      const input = c.req.valid('json');
      return c.json(
        await setValue(c.var.db, c.var.agent, {
          ...input,
          departmentId: input.departmentId ?? c.var.agent.departmentId,
        }),
      );
    },
  )
  .post(
    '/UpdateProduct',
    doc(
      'Update a product or variant as REST UpdateProduct; `translations` { <language>: { <field>: text|null } } writes texts per language',
      ProductOut,
      'The sku is already used in this catalog',
      { textsOnlyWith: PRODUCT_IDENTITY },
    ),
    validate('json', ProductDto.extend(inDepartment)),
    async (c) => {
      const input = c.req.valid('json');
      return c.json(
        await updateProduct(c.var.db, c.var.agent, {
          ...input,
          departmentId: input.departmentId ?? c.var.agent.departmentId,
        }),
      );
    },
  );
