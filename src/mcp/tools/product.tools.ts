import { z } from 'zod';
import { Page, ProductDetailOut, ProductOut } from '../../catalog/catalog.schemas';
import { getProduct, listProducts } from '../../catalog/product-queries';
import { defineTool, READ_ONLY } from '../tool-definition';
import { PAGING_NOTE, PageInput } from './paging';

/** Tools over products and their variants. */
export const productTools = [
  defineTool({
    name: 'search_products',
    title: 'Search products',
    description:
      'Lists or searches the master products of one catalog (variants are listed inside get_product). ' +
      '`query` matches the beginning of a SKU (supplier article number) or any part of the product name; ' +
      `\`categoryId\` restricts the list to one category. Returns the built-in fields of each product. ${PAGING_NOTE}`,
    input: z.strictObject({
      catalogId: z.uuid().describe('The catalog to search (see list_catalogs).'),
      query: z.string().trim().min(1).max(100).optional().describe('SKU prefix or part of the name, e.g. "NYM-J" or "circuit breaker".'),
      categoryId: z.uuid().optional().describe('Only products placed in this category (see list_categories).'),
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
      'media files and, for a master product, its variants.',
    input: z.strictObject({ productId: z.uuid().describe('A product or variant id (see search_products).') }),
    output: ProductDetailOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getProduct(db, caller, input.productId),
  }),
];
