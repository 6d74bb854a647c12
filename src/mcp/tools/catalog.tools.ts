import { z } from 'zod';
import { CatalogOut, CatalogStats } from '../../catalog/catalog.schemas';
import { Page } from '../../kernel/pagination';
import { getCatalog, getStats, listCatalogs } from '../../catalog/catalogs';
import { CategoryListItem, listCategories } from '../../catalog/categories';
import { defineTool, READ_ONLY } from '../tool-definition';
import { PAGING_NOTE, PageInput } from './paging';

const departmentId = z
  .uuid()
  .optional()
  .describe("A department of the user's company; omit it to use the user's own department.");

/** Tools over catalogs, the category tree and the department statistics. */
export const catalogTools = [
  defineTool({
    name: 'get_statistics',
    title: 'Catalog statistics',
    description:
      "Counts of catalogs, categories and products in one department of the user's company. " +
      'A cheap first call to see how big the data is before listing anything.',
    input: z.strictObject({ departmentId }),
    output: CatalogStats,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getStats(db, caller, input.departmentId),
  }),
  defineTool({
    name: 'list_catalogs',
    title: 'List catalogs',
    description:
      "Lists the catalogs of the user's company (id, name, type, version, language, currency and product/category counts), " +
      `optionally only those of one department. Use a catalogId from here for categories, products and exports. ${PAGING_NOTE}`,
    input: z.strictObject({ departmentId, ...PageInput }),
    output: Page(CatalogOut),
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listCatalogs(db, caller, input),
  }),
  defineTool({
    name: 'get_catalog',
    title: 'Get a catalog',
    description: 'One catalog by its catalogId, with its description, language, currency and counts.',
    input: z.strictObject({ catalogId: z.uuid().describe('The catalog to read.') }),
    output: CatalogOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getCatalog(db, caller, input.catalogId),
  }),
  defineTool({
    name: 'list_categories',
    title: 'List categories',
    description:
      'Lists the categories of a catalog one level at a time, in display order: without parentId the top level, ' +
      'with parentId the children of that category. Walk down the tree by passing a categoryId as parentId. ' +
      'A categoryId can filter search_products.',
    input: z.strictObject({
      catalogId: z.uuid().describe('The catalog whose category tree to read.'),
      parentId: z.uuid().optional().describe('List the children of this category; omit it for the top level.'),
    }),
    output: z.object({ items: z.array(CategoryListItem) }),
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => listCategories(db, caller, input),
  }),
];
