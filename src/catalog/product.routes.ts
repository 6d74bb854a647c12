import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import { afterAnswer } from '../http/background';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import {
  PRODUCT_IDENTITY,
  ProductDetailOut,
  ProductDto,
  ProductListItemOut,
  ProductListQuery,
  ProductOut,
} from './catalog.schemas';
import { Page } from '../kernel/pagination';
import { listProducts } from './product-list';
import { SEARCH_BUDGET_MS, tidyIsDue, tidySearchIndex } from './search-tidy';
import { getProduct, listVariants } from './product-queries';
import { addProduct, deleteProduct, updateProduct } from './products';
import { LanguageQuery } from './translations/read-language';

const doc = (
  summary: string,
  response?: z.ZodType,
  conflict?: string,
  more: { textsOnlyWith?: readonly string[] } = {},
) => describeOperation({ tag: 'Catalog', summary, response, security: 'cookie', conflict, ...more });

const SKU_TAKEN = 'The sku is already used in this catalog';
const ProductQuery = z.strictObject({ productId: z.uuid(), ...LanguageQuery });

/**
 * After a search's answer (GetProducts with `q`, REST and `/api/ai`), the index is tidied when
 * this isolate has not done so for a minute (`tidyIsDue`, docs/search.md "Index upkeep"): the
 * cron's upkeep, triggered where Cron Triggers do not fire.
 */
export function tidyAfterSearch<E extends { Variables: { db: Database } }>(c: Context<E>, q: string | undefined): void {
  if (!q || !tidyIsDue()) return;
  const db = c.var.db;
  afterAnswer(c, 'search_tidy_failed', () => tidySearchIndex(db, { budgetMs: SEARCH_BUDGET_MS }));
}

/** `/api/Catalog/*` for products and variants. */
export const productRoutes = new Hono<AppEnv>()
  .post(
    '/AddProduct',
    doc('Create a product, or a variant when parentId names its master', ProductOut, SKU_TAKEN),
    validate('json', ProductDto),
    async (c) => c.json(await addProduct(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateProduct',
    doc('Update a product or variant (productId required)', ProductOut, SKU_TAKEN, { textsOnlyWith: PRODUCT_IDENTITY }),
    validate('json', ProductDto),
    async (c) => c.json(await updateProduct(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetProducts',
    doc(
      'Master products of a catalog: full-text search (q), filters (incompleteFor=<channelId>: masters incomplete for a channel; incompleteVariantsFor=<channelId>: masters with an incomplete variant), sort by sku, name or updatedAt (or relevance with q), keyset-paginated; with attributes=codes also those attribute values per row',
      Page(ProductListItemOut),
    ),
    validate('query', ProductListQuery),
    async (c) => {
      const query = c.req.valid('query');
      tidyAfterSearch(c, query.q);
      return c.json(await listProducts(c.var.db, c.var.caller, query));
    },
  )
  .get(
    '/GetProduct',
    doc(
      'A product with values, classification, media and variants, its texts in `language` (or with every language: languages=all)',
      ProductDetailOut,
    ),
    validate('query', ProductQuery),
    async (c) => {
      const { productId, ...language } = c.req.valid('query');
      return c.json(await getProduct(c.var.db, c.var.caller, productId, language));
    },
  )
  .get(
    '/GetVariants',
    doc('Variants of a master product', z.object({ items: z.array(ProductOut) })),
    validate('query', ProductQuery),
    async (c) => {
      const { productId, ...language } = c.req.valid('query');
      return c.json(await listVariants(c.var.db, c.var.caller, productId, language));
    },
  )
  .post(
    '/DeleteProduct',
    doc('Delete a product with its variants', z.object({ productId: z.string(), deleted: z.number().int() })),
    validate('json', z.strictObject({ departmentId: z.uuid(), productId: z.uuid() })),
    async (c) => c.json(await deleteProduct({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  );
