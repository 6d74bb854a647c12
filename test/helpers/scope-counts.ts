import { sql } from 'drizzle-orm';
import { db } from './factories';

/**
 * A category-scoped member's counts made the slow way (docs/teams.md "Counts"): the queries the
 * kept scope-set counters replaced, to check the counters against.
 */

/** The slow way: the scope's subtrees walked down, its masters found through their placements. */
const subtree = (companyId: string, roots: readonly string[]) => sql`WITH RECURSIVE sub(id) AS (
    SELECT id FROM categories WHERE company_id = ${companyId} AND id IN (SELECT value FROM json_each(${JSON.stringify(roots)}))
    UNION SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub`;
const placedMasters = (companyId: string, roots: readonly string[]) => sql`
  SELECT DISTINCT p.id, p.catalog_id FROM product_categories pc JOIN products p ON p.id = pc.product_id
  WHERE pc.category_id IN (${subtree(companyId, roots)}) AND p.company_id = ${companyId} AND p.parent_id IS NULL`;

export async function slowCatalogCounts(companyId: string, roots: readonly string[]) {
  const rows = await db().all<{ catalog_id: string; n: number }>(sql`
    SELECT m.catalog_id, count(*) + coalesce(sum((SELECT count(*) FROM products v WHERE v.parent_id = m.id)), 0) AS n
    FROM (${placedMasters(companyId, roots)}) m GROUP BY m.catalog_id`);
  return Object.fromEntries(rows.filter((r) => r.n > 0).map((r) => [r.catalog_id, Number(r.n)]));
}

export async function slowCategoryCounts(companyId: string, roots: readonly string[], catalogId: string) {
  const rows = await db().all<{ category_id: string; n: number }>(sql`
    SELECT pc.category_id, count(*) AS n FROM (${placedMasters(companyId, roots)}) m
    JOIN product_categories pc ON pc.product_id = m.id WHERE m.catalog_id = ${catalogId} GROUP BY pc.category_id`);
  return Object.fromEntries(rows.map((r) => [r.category_id, Number(r.n)]));
}
