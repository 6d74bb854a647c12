import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { findCategory } from '../db/scope';
import type { Caller } from '../kernel/caller';
import { CategoryOut, categoryOut, MAX_DEPTH } from './categories';

/**
 * One category found by its id alone, with the names of the categories above it. A reference
 * to a category elsewhere (a channel requirement's `categoryId`, docs/completeness.md) carries
 * neither its catalog nor its parents; a form that shows such a reference reads them here
 * instead of loading the catalog's whole tree (which can hold thousands of categories).
 */
export const CategoryPathOut = CategoryOut.extend({
  /** From the top level down to this category (it is the last entry), names in the catalog's default language. */
  path: z.array(z.object({ categoryId: z.string(), name: z.string() })),
});

/** The category (404 when not of the caller's company) and its path, read up the parents in one statement. */
export async function getCategoryPath(db: Database, caller: Caller, input: { categoryId: string }) {
  const category = await findCategory(db, caller, input.categoryId);
  // Parents are of the same company and catalog (AddCategory/MoveCategory check it); the company
  // condition is kept so a read can never leave the tenant. MAX_DEPTH bounds the walk.
  const rows = await db.all<{ categoryId: string; name: string; depth: number }>(sql`
    WITH RECURSIVE up(id, parent_id, name, depth) AS (
      SELECT id, parent_id, name, 0 FROM categories WHERE id = ${category.id} AND company_id = ${caller.companyId}
      UNION ALL
      SELECT c.id, c.parent_id, c.name, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
      WHERE c.company_id = ${caller.companyId} AND up.depth < ${MAX_DEPTH}
    ) SELECT id AS categoryId, name, depth FROM up ORDER BY depth DESC`);
  return { ...categoryOut(category), path: rows.map(({ categoryId, name }) => ({ categoryId, name })) };
}
