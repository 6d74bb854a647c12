import { z } from 'zod';
import { ProductDetailOut, ProductOut } from '../../catalog/catalog.schemas';
import { PRODUCT_STATUSES } from '../../kernel/product-status';
import { listProducts } from '../../catalog/product-list';
import { getProduct } from '../../catalog/product-queries';
import { getReferences } from '../../catalog/references/references';
import { ReferencesOut } from '../../catalog/references/reference.schemas';
import { defineTool, READ_ONLY } from '../tool-definition';
import { PAGING_NOTE, PageInput } from './paging';
import { Page } from '../../kernel/pagination';

/** Tools over products and their variants. */
export const productTools = [
  defineTool({
    name: 'search_products',
    title: 'Search products',
    description:
      'Lists or searches the master products of one catalog (variants are listed inside get_product). ' +
      '`query` is a full-text search over SKU (supplier article number), name, manufacturer part number, GTIN and keywords, ' +
      'names and keywords in every language of the catalog (`searchLanguage` limits it to one): ' +
      'every word must match the beginning of a word (case and accents ignored); results come best match first. ' +
      '`categoryId` (with `subtree` for its subcategories) and `status` narrow the list; without `query` the list is ordered by SKU, ' +
      `or by \`sort\`. Returns the built-in fields of each product. ${PAGING_NOTE}`,
    input: z.strictObject({
      catalogId: z.uuid().describe('The catalog to search (see list_catalogs).'),
      query: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .optional()
        .describe('Words to find, e.g. "NYM-J 3x1,5", "Schutzschalter 16", a GTIN or a manufacturer part number.'),
      categoryId: z.uuid().optional().describe('Only products placed in this category (see list_categories).'),
      subtree: z.boolean().optional().describe('With categoryId: also products in its subcategories.'),
      status: z.enum(PRODUCT_STATUSES).optional().describe('Only products with this status.'),
      searchLanguage: z
        .string()
        .regex(/^[a-z]{3}$/)
        .optional()
        .describe(
          'Find words of this language only (ISO 639-2, e.g. eng); without it `query` finds words of every language (name and keywords).',
        ),
      sort: z
        .enum(['sku', 'name', 'updatedAt'])
        .optional()
        .describe('Order by SKU, name or last change instead of relevance.'),
      order: z.enum(['asc', 'desc']).optional().describe('Direction of sort (default asc).'),
      language: z
        .string()
        .optional()
        .describe(
          "The language of the names and descriptions returned (ISO 639-2 code such as eng; default: the catalog's default). " +
            'A text with no translation in it is null and named in `missingTranslations`.',
        ),
      missingTranslation: z
        .string()
        .optional()
        .describe(
          'Only products whose name or description has no text in this language (a language the catalog publishes, e.g. eng): ' +
            'the products still to translate; write them with set_value (language) or update_product (translations).',
        ),
      classificationRelease: z
        .string()
        .max(60)
        .optional()
        .describe(
          'Only products with a class of this classification release (e.g. ETIM-9.0, see list_classification_releases): ' +
            'the products still on an old release; preview_release_upgrade tells what an upgrade would change.',
        ),
      ...PageInput,
    }),
    output: Page(ProductOut),
    annotations: READ_ONLY,
    run: ({ db, caller }, { query, ...rest }) => listProducts(db, caller, { ...rest, q: query }),
  }),
  defineTool({
    name: 'get_product',
    title: 'Get a product',
    description:
      'Everything about one product or variant: built-in fields (SKU, GTIN, manufacturer, unit, price, status ...), ' +
      'attribute values, its classification (ETIM / eCl@ss / proficl@ss classes and feature values, with linkId), ' +
      'media files, its price list (`prices`: type, amount, currency, tax, tiers by lowerBound, territory, validity, base such as per 100 MTR; change it with set_prices), ' +
      'for a master product its variants, and its references (outgoing by target SKU, pending when the SKU ' +
      'is not in the catalog yet, and incoming from other products).',
    input: z.strictObject({
      productId: z.uuid().describe('A product or variant id (see search_products).'),
      language: z
        .string()
        .optional()
        .describe("The language of the texts (ISO 639-2 code such as eng; default: the catalog's default)."),
      languages: z
        .literal('all')
        .optional()
        .describe('all: also every other language of the catalog, under `translations` (language -> field -> text).'),
    }),
    output: ProductDetailOut.extend({ references: ReferencesOut }),
    annotations: READ_ONLY,
    run: async ({ db, caller }, { productId, language, languages }) => ({
      ...(await getProduct(db, caller, productId, { language, languages })),
      references: await getReferences(db, caller, { productId }),
    }),
  }),
];
