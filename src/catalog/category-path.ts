import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { findCatalog, findCategory } from '../db/scope';
import { scopedCategoryCounts } from '../db/scope-counts';
import type { Caller } from '../kernel/caller';
import { media } from '../db/schema';
import { MediaOut, mediaOut } from '../media/media';
import { categoryDetailOut, CategoryOut, MAX_DEPTH } from './categories';
import { categoryReach } from './category-reach';

/**
 * One category found by its id alone, with the names of the categories above it. A reference
 * to a category elsewhere (a channel requirement's `categoryId`, docs/completeness.md) carries
 * neither its catalog nor its parents; a form that shows such a reference reads them here
 * instead of loading the catalog's whole tree (which can hold thousands of categories).
 */
export const CategoryPathOut = CategoryOut.extend({
  /** From the top level down to this category (it is the last entry), names in the catalog's default language. */
  path: z.array(z.object({ categoryId: z.string(), name: z.string() })),
  /** The category's media list in order (docs/data-model.md "Media"): uploaded files, file references an import kept, links. */
  media: z.array(MediaOut),
});

/**
 * The recursive CTE `up(hit, id, name, depth)`: the categories `starts` names (a subquery of ids)
 * and every category above each, `hit` the start it belongs to, `depth` 0 at the start. Parents
 * are of the same company and catalog (AddCategory/MoveCategory check it); the company condition
 * is kept so a read can never leave the tenant. MAX_DEPTH bounds the walk.
 */
const upFrom = (caller: Caller, starts: SQL) => sql`up(hit, id, parent_id, name, depth) AS (
  SELECT c.id, c.id, c.parent_id, c.name, 0 FROM categories c WHERE c.id IN (${starts}) AND c.company_id = ${caller.companyId}
  UNION ALL
  SELECT up.hit, c.id, c.parent_id, c.name, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id
  WHERE c.company_id = ${caller.companyId} AND up.depth < ${MAX_DEPTH})`;

/** The category (404 when not of the caller's company) and its path, read up the parents in one statement. */
export async function getCategoryPath(db: Database, caller: Caller, input: { categoryId: string }) {
  const category = await findCategory(db, caller, input.categoryId);
  const rows = await db.all<{ categoryId: string; name: string }>(sql`
    WITH RECURSIVE ${upFrom(caller, sql`SELECT ${category.id}`)}
    SELECT id AS categoryId, name FROM up ORDER BY depth DESC`);
  // The category is the caller's (findCategory): its media rows carry no company of their own.
  const mediaRows = await db
    .select()
    .from(media)
    .where(eq(media.elementId, category.id))
    .orderBy(asc(media.sortOrder), asc(media.id));
  // its product count narrowed to the caller's product scope (db/scope-counts.ts)
  const scoped = await scopedCategoryCounts(db, caller, category.catalogId);
  const counted = scoped ? { ...category, productCount: scoped.get(category.id) ?? 0 } : category;
  return { ...categoryDetailOut(counted), path: rows, media: mediaRows.map(mediaOut) };
}

/** How many categories a search answers: enough to pick from, a hint to type more when full. */
export const CATEGORY_SEARCH_LIMIT = 20;

export const CategorySearchQuery = z.strictObject({
  catalogId: z.uuid(),
  /**
   * Part of the name (default language), case-insensitive for ASCII letters; `%` and `_` match
   * literally. Compared with instr, not LIKE: D1 refuses LIKE patterns over 50 bytes, which 13
   * non-Latin characters already reach.
   */
  q: z.string().trim().min(1, 'q must not be empty').max(100),
});

export const CategorySearchOut = z.object({
  items: z.array(CategoryPathOut.pick({ categoryId: true, name: true, path: true })),
});

/**
 * Categories of one catalog whose name contains `q`, by name, with their paths: the search box
 * of a category choice (the channel dialog's requirement limit) for catalogs whose tree is too
 * large to walk level by level. Reads the catalog's categories by `categories_catalog_idx` (a
 * catalog holds thousands of categories, not millions) and the paths of at most 20 hits. A
 * member limited to category subtrees finds the categories of their subtrees only (the path
 * above a hit still names the categories it hangs below, as the tree shows them).
 */
export async function searchCategories(db: Database, caller: Caller, input: z.infer<typeof CategorySearchQuery>) {
  const catalog = await findCatalog(db, caller, input.catalogId);
  const reach = await categoryReach(db, caller, catalog.id);
  const within = reach ? sql`AND id IN (SELECT value FROM json_each(${JSON.stringify([...reach.inside])}))` : sql``;
  const rows = await db.all<{ hit: string; hitName: string; categoryId: string; name: string }>(sql`
    WITH RECURSIVE hits AS (
      SELECT id, name FROM categories
      WHERE catalog_id = ${catalog.id} AND company_id = ${caller.companyId} AND instr(lower(name), lower(${input.q})) > 0
        ${within}
      ORDER BY name, id LIMIT ${CATEGORY_SEARCH_LIMIT}
    ), ${upFrom(caller, sql`SELECT id FROM hits`)}
    SELECT up.hit, hits.name AS hitName, up.id AS categoryId, up.name FROM up JOIN hits ON hits.id = up.hit
    ORDER BY hits.name, up.hit, up.depth DESC`);
  const items = new Map<string, { categoryId: string; name: string; path: { categoryId: string; name: string }[] }>();
  for (const r of rows) {
    const item = items.get(r.hit) ?? { categoryId: r.hit, name: r.hitName, path: [] };
    item.path.push({ categoryId: r.categoryId, name: r.name });
    items.set(r.hit, item);
  }
  return { items: [...items.values()] };
}
