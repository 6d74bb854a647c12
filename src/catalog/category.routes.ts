import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import {
  addCategory,
  CategoryDto,
  CategoryListItem,
  CategoryOut,
  deleteCategory,
  getCategoryTree,
  listCategories,
  moveCategory,
  MoveCategoryDto,
  updateCategory,
} from './categories';
import {
  CategoryPathOut,
  CategorySearchOut,
  CategorySearchQuery,
  getCategoryPath,
  searchCategories,
} from './category-path';
import { LanguageQuery } from './translations/read-language';

const doc = (summary: string, response?: z.ZodType) =>
  describeOperation({ tag: 'Catalog', summary, response, security: 'cookie' });

/** Named, so the document's generator gives the recursive node its own component instead of a numbered one. */
const CategoryTreeNode: z.ZodType = z
  .lazy(() => CategoryListItem.extend({ children: z.array(CategoryTreeNode) }))
  .meta({ id: 'CategoryTreeNode' });

/** `/api/Catalog/*` for the category tree. */
export const categoryRoutes = new Hono<AppEnv>()
  .post(
    '/AddCategory',
    doc('Create a category (top level or below parentId)', CategoryOut),
    validate('json', CategoryDto),
    async (c) => c.json(await addCategory(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateCategory',
    doc('Update a category (categoryId required)', CategoryOut),
    validate('json', CategoryDto),
    async (c) => c.json(await updateCategory(c.var.db, c.var.caller, c.req.valid('json'), c.env.JOB_QUEUE)),
  )
  .post(
    '/MoveCategory',
    doc('Move a category below another parent (or to the top level with parentId null)', CategoryOut),
    validate('json', MoveCategoryDto),
    async (c) => c.json(await moveCategory(c.var.db, c.var.caller, c.req.valid('json'), {}, {}, c.env.JOB_QUEUE)),
  )
  .post(
    '/DeleteCategory',
    doc(
      'Delete a category and its subtree; products stay in the catalog',
      z.object({ categoryId: z.string(), deleted: z.number().int() }),
    ),
    validate('json', z.strictObject({ departmentId: z.uuid(), categoryId: z.uuid() })),
    async (c) => c.json(await deleteCategory({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetCategories',
    doc(
      'Children of a category, or the top level, with product counts',
      z.object({ items: z.array(CategoryListItem) }),
    ),
    validate('query', z.strictObject({ catalogId: z.uuid(), parentId: z.uuid().optional(), ...LanguageQuery })),
    async (c) => c.json(await listCategories(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetCategoryTree',
    doc('The whole category tree of a catalog', z.object({ catalogId: z.string(), items: z.array(CategoryTreeNode) })),
    validate('query', z.strictObject({ catalogId: z.uuid(), ...LanguageQuery })),
    async (c) => {
      const { catalogId, ...language } = c.req.valid('query');
      return c.json(await getCategoryTree(c.var.db, c.var.caller, catalogId, language));
    },
  )
  .get(
    '/GetCategory',
    doc('One category by its id, with the path of names from the top level down to it', CategoryPathOut),
    validate('query', z.strictObject({ categoryId: z.uuid() })),
    async (c) => c.json(await getCategoryPath(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/SearchCategories',
    doc('Categories of a catalog whose name contains q (up to 20, by name), each with its path', CategorySearchOut),
    validate('query', CategorySearchQuery),
    async (c) => c.json(await searchCategories(c.var.db, c.var.caller, c.req.valid('query'))),
  );
