import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { afterAnswer } from '../http/background';
import { validate } from '../http/validate';
import { recountStaleSets } from '../db/scope-counts';
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

/**
 * After a move's answer: the scope sets with a root above the category's old or new place,
 * which the move marked out of date, are counted again (docs/teams.md "Counts"); a count asked
 * for before that counts its set itself.
 */
const recountAfterMove = (c: Context<AppEnv>) =>
  afterAnswer(c, 'scope_set_recount_failed', () => recountStaleSets(c.var.db, c.var.caller.companyId));

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
    async (c) => {
      const input = c.req.valid('json');
      const answer = await updateCategory(c.var.db, c.var.caller, input, c.env.JOB_QUEUE);
      if (input.parentId !== undefined) recountAfterMove(c);
      return c.json(answer);
    },
  )
  .post(
    '/MoveCategory',
    doc('Move a category below another parent (or to the top level with parentId null)', CategoryOut),
    validate('json', MoveCategoryDto),
    async (c) => {
      const answer = await moveCategory(c.var.db, c.var.caller, c.req.valid('json'), {}, {}, c.env.JOB_QUEUE);
      recountAfterMove(c);
      return c.json(answer);
    },
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
