import { type SQL, sql } from 'drizzle-orm';
import type { Database } from './client';
import type { Caller, ProductScope } from '../kernel/caller';
import { scopeSubtreeSql } from './product-scope';

/**
 * Counts narrowed to a member's product scope (docs/teams.md, "Counts"). The stored counters
 * (`catalogs.product_count`, `categories.product_count`, `completeness_counts`) are the
 * company's; a member limited to category subtrees sees counts of their products only. A
 * catalog in the scope is whole, so its counters are used as they are. The catalog and category
 * counts of the scoped subtrees are counters too, kept per **scope set** (the company's set of
 * scoped root categories, shared by the members with the same roots) by the triggers of
 * migration 0083: read by primary key, whatever the scope's size. The completeness counts are
 * still made from the member's products (below).
 */
type Scoped = Pick<Caller, 'companyId'> & Partial<Pick<Caller, 'productScope'>>;

/** The scope when it narrows `catalogId` (a catalog named by the scope is whole: null). */
export function narrowingScope(caller: Scoped, catalogId: string): ProductScope | null {
  const scope = caller.productScope;
  return scope && !scope.catalogIds.includes(catalogId) ? scope : null;
}

/** A scope set's key: its root categories, sorted and joined (migration 0083). */
function scopeSetKey(scope: ProductScope): string {
  return [...new Set(scope.categoryIds)].sort().join(',');
}

/**
 * The key of a scope naming catalogs (migration 0094, `catalog_scopes.key`): its catalogs and its
 * subtree roots, each sorted like a scope set's key, joined by `|`. Members with the same scope
 * share its daily rows.
 */
export function catalogScopeKey(scope: ProductScope): string {
  return `${[...new Set(scope.catalogIds)].sort().join(',')}|${scopeSetKey(scope)}`;
}

/**
 * The id of the scope set of `scope`'s categories, made (and counted, trigger
 * `scope_sets_rebuild`) on the first count of a new set: that one count costs what the scope's
 * products cost to read; every later one reads the kept counters. A set a category move marked
 * out of date (`stale = 3`, migration 0087) and not yet counted again in the move's background
 * is counted here first, so a count read is always exact. Each step may be repeated (a first
 * count interrupted, or two at once): the set is counted by the step that finds it not built or
 * out of date, with every root inserted before it. The trend of a category-scoped member reads
 * the set's daily rows (`scope_set_completeness_daily`, migration 0090) by this id.
 */
export async function scopeSetId(db: Database, companyId: string, scope: ProductScope): Promise<number> {
  const key = scopeSetKey(scope);
  const [found] = await db.all<{ id: number; kept: number }>(
    sql`SELECT id, built = 1 AND stale = 0 AS kept FROM scope_sets WHERE company_id = ${companyId} AND key = ${key}`,
  );
  if (found?.kept) return found.id;
  const setOf = sql`(SELECT id FROM scope_sets WHERE company_id = ${companyId} AND key = ${key})`;
  await db.run(sql`INSERT INTO scope_sets (company_id, key) VALUES (${companyId}, ${key}) ON CONFLICT DO NOTHING`);
  // a root of another company (or deleted since) covers nothing, as in scopeSubtreeSql
  await db.run(sql`INSERT OR IGNORE INTO scope_set_roots (set_id, category_id)
    SELECT ${setOf}, id FROM categories
    WHERE company_id = ${companyId} AND id IN (SELECT value FROM json_each(${JSON.stringify(scope.categoryIds)}))`);
  await db.run(sql`UPDATE scope_sets SET stale = 1 WHERE id = ${setOf} AND (built = 0 OR stale <> 0)`);
  const [made] = await db.all<{ id: number }>(
    sql`SELECT id FROM scope_sets WHERE company_id = ${companyId} AND key = ${key} AND built = 1`,
  );
  if (!made) throw new Error('scope set not built');
  return made.id;
}

/**
 * The rows of one of a kept set's counter tables (`table`, joined `ON c.set_id = s.id AND on`),
 * read in the statement that finds the set: one round trip where `scopeSetId` and a read are two.
 * Null when the set is not made, not counted yet or out of date: the caller then has
 * `scopeSetId` make or count it and reads after it.
 */
async function keptCounters<T>(
  db: Database,
  companyId: string,
  scope: ProductScope,
  table: SQL,
  on: SQL,
  columns: SQL,
): Promise<T[] | null> {
  const rows = await db.all<T & { kept: number; found: number | null }>(
    sql`SELECT s.built = 1 AND s.stale = 0 AS kept, c.set_id AS found, ${columns} FROM scope_sets s
      LEFT JOIN ${table} c ON c.set_id = s.id AND ${on}
      WHERE s.company_id = ${companyId} AND s.key = ${scopeSetKey(scope)}`,
  );
  if (!rows[0]?.kept) return null;
  return rows.filter((r) => r.found !== null);
}

/**
 * Counts again the company's scope sets a category move marked out of date (`stale = 3`,
 * migration 0087), one statement per set: the move's route runs it after its answer
 * (`waitUntil`), so the recount is not part of the move's request. A set a member's count
 * reached first is counted already (its update then changes nothing); lost, the next count of
 * each set does it.
 */
export async function recountStaleSets(db: Database, companyId: string): Promise<void> {
  const stale = await db.all<{ id: number }>(
    sql`SELECT id FROM scope_sets WHERE company_id = ${companyId} AND stale = 3`,
  );
  for (const { id } of stale) await db.run(sql`UPDATE scope_sets SET stale = 1 WHERE id = ${id} AND stale = 3`);
}

/**
 * How many masters of `catalogId` the kept counters hold for `scope`'s set, as a scalar subquery
 * of primary-key reads (0 when the set holds none of the catalog's): NULL while the set is not
 * made or its counts are being made again (`stale`), when a caller must count for itself. The
 * product list's count of a scope that might drive it (product-list.ts `fewestIds`) reads it
 * instead of counting placements.
 */
export function keptScopeMastersSql(companyId: string, scope: ProductScope, catalogId: string): SQL {
  return sql`(SELECT coalesce((SELECT c.masters FROM scope_set_counts c WHERE c.set_id = s.id AND c.catalog_id = ${catalogId}), 0)
    FROM scope_sets s WHERE s.company_id = ${companyId} AND s.key = ${scopeSetKey(scope)} AND s.built = 1 AND s.stale = 0)`;
}

/**
 * Makes and counts the scope set of `categoryIds` ahead of the member's first count: SetMemberRole
 * runs it after its answer (`waitUntil`), so the one count that reads the scope's products is
 * the admin's background work, not the member's first page. Safe to repeat or to race a count
 * (scopeSetId).
 */
export async function prepareScopeSet(db: Database, companyId: string, categoryIds: string[]): Promise<void> {
  if (categoryIds.length > 0) await scopeSetId(db, companyId, { catalogIds: [], categoryIds });
}

/**
 * `prepareScopeSet` for a member's category scope as stored now (read from `directory`, where
 * memberships live; the set is made in `catalogDb`, the company's cell): what runs after every
 * answer that gave a membership category scopes (an invitation accepted, a first single sign-on
 * consuming one, a reactivation, SetMemberRole). A member without one costs this one read.
 */
export async function prepareMemberScopeSet(
  directory: Database,
  catalogDb: Database,
  companyId: string,
  userId: string,
): Promise<void> {
  const rows = await directory.all<{ value: string }>(sql`SELECT value FROM membership_scopes
    WHERE company_id = ${companyId} AND user_id = ${userId} AND kind = 'category'`);
  const categoryIds = rows.map((r) => r.value);
  await dropUnusedSets(directory, catalogDb, companyId, scopeSetKey({ catalogIds: [], categoryIds }));
  await prepareScopeSet(catalogDb, companyId, categoryIds);
}

/**
 * Deletes the company's sets that no membership's category scope names any more (and their
 * counters, by the foreign keys), so a scope changed or a member gone stops costing every write
 * below its roots. Run after every answer that gave a membership category scopes
 * (`prepareMemberScopeSet`), with the memberships read from the directory, where they live: a
 * count, which sees only the company's cell, drops nothing. A set deleted while a member still
 * needs it (a scope read before a change) is made again by the next count.
 */
async function dropUnusedSets(directory: Database, catalogDb: Database, companyId: string, keep: string) {
  const rows = await directory.all<{ userId: string; categoryId: string }>(sql`
    SELECT user_id AS userId, value AS categoryId FROM membership_scopes WHERE company_id = ${companyId} AND kind = 'category'`);
  const byMember = new Map<string, string[]>();
  for (const { userId, categoryId } of rows) byMember.set(userId, [...(byMember.get(userId) ?? []), categoryId]);
  const keys = [keep, ...[...byMember.values()].map((categoryIds) => scopeSetKey({ catalogIds: [], categoryIds }))];
  await catalogDb.run(sql`DELETE FROM scope_sets WHERE company_id = ${companyId}
    AND key NOT IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`);
}

/**
 * Per catalog, the products in scope (masters and their variants, as `catalogs.product_count`
 * counts them) for every catalog the scope does not name; catalogs absent from the map have none.
 */
export async function scopedCatalogCounts(db: Database, caller: Scoped): Promise<Map<string, number> | null> {
  const scope = caller.productScope;
  if (!scope) return null;
  if (!scope.categoryIds.length) return new Map();
  type Row = { catalog_id: string; n: number };
  const rows =
    (await keptCounters<Row>(
      db,
      caller.companyId,
      scope,
      sql`scope_set_counts`,
      sql`1`,
      sql`c.catalog_id, c.masters + c.variants AS n`,
    )) ??
    (await db.all<Row>(sql`SELECT catalog_id, masters + variants AS n FROM scope_set_counts
      WHERE set_id = ${await scopeSetId(db, caller.companyId, scope)}`));
  return new Map(rows.map((r) => [r.catalog_id, Number(r.n)]));
}

/** `catalogs.product_count` as the caller may see it: the counter, or the products in scope. */
export function catalogCount(
  caller: Scoped,
  counts: Map<string, number> | null,
  catalog: { id: string; productCount: number },
): number {
  if (!counts || !narrowingScope(caller, catalog.id)) return catalog.productCount;
  return counts.get(catalog.id) ?? 0;
}

/**
 * Per category of `catalogId`, its placements of products in scope (as
 * `categories.product_count` counts placements), or null when the scope does not narrow the
 * catalog (the counters then hold). A category absent from the map holds none.
 */
export async function scopedCategoryCounts(
  db: Database,
  caller: Scoped,
  catalogId: string,
): Promise<Map<string, number> | null> {
  const scope = narrowingScope(caller, catalogId);
  if (!scope) return null;
  if (!scope.categoryIds.length) return new Map();
  type Row = { category_id: string; n: number };
  const rows =
    (await keptCounters<Row>(
      db,
      caller.companyId,
      scope,
      sql`scope_set_category_counts`,
      sql`c.catalog_id = ${catalogId} AND c.n > 0`,
      sql`c.category_id, c.n`,
    )) ??
    (await db.all<Row>(sql`SELECT category_id, n FROM scope_set_category_counts
      WHERE set_id = ${await scopeSetId(db, caller.companyId, scope)} AND catalog_id = ${catalogId} AND n > 0`));
  return new Map(rows.map((r) => [r.category_id, Number(r.n)]));
}

/**
 * The masters in scope as `SELECT key, id` (rowid and id): the products of the scope's catalogs
 * (`products_catalog_master_id_idx`) and the masters placed in its subtrees (through their
 * placements). Not correlated, read once per statement.
 */
function scopedMastersSql(scope: ProductScope, companyId: string) {
  const placed = scope.categoryIds.length
    ? sql`UNION SELECT p.rowid, p.id FROM product_categories pc CROSS JOIN products p ON p.id = pc.product_id
        WHERE pc.category_id IN (${scopeSubtreeSql(scope, companyId)}) AND p.company_id = ${companyId} AND p.parent_id IS NULL`
    : sql``;
  return sql`SELECT p.rowid AS key, p.id FROM products p
    WHERE p.catalog_id IN (SELECT value FROM json_each(${JSON.stringify(scope.catalogIds)}))
      AND p.company_id = ${companyId} AND p.parent_id IS NULL
    ${placed}`;
}

/** One counter of `completeness_counts` (its `item`: '', '#complete', '#score', '#variants', '#variantsComplete' or a missing label). */
export interface CountRow {
  channelKey: number;
  lang: string;
  item: string;
  n: number;
}

/**
 * The rows `completeness_counts` would hold if the company had only the member's products. A
 * scope of category subtrees only reads its set's kept counters (`scope_set_completeness`,
 * migration 0083); a scope naming catalogs counts them from the products (below).
 */
export async function scopedCompletenessCounts(db: Database, caller: Scoped): Promise<CountRow[] | null> {
  const scope = caller.productScope;
  if (!scope) return null;
  if (scope.catalogIds.length) return countedCompletenessCounts(db, caller.companyId, scope);
  if (!scope.categoryIds.length) return [];
  const rows =
    (await keptCounters<CountRow>(
      db,
      caller.companyId,
      scope,
      sql`scope_set_completeness`,
      sql`1`,
      sql`c.channel_key AS channelKey, c.lang, c.item, c.n`,
    )) ??
    (await db.all<CountRow>(sql`SELECT channel_key AS channelKey, lang, item, n
      FROM scope_set_completeness WHERE set_id = ${await scopeSetId(db, caller.companyId, scope)}`));
  return keptRows(rows.map((r) => ({ ...r, n: Number(r.n) })));
}

/**
 * The kept rows as counting them would give them: a channel and language only when products
 * (or variants) of the scope have scores there, and a missing label only while one lacks it
 * (a kept counter stays, at 0, once its last product left).
 */
function keptRows(rows: CountRow[]): CountRow[] {
  const group = (r: CountRow, item: string) => `${r.channelKey}\u0000${r.lang}\u0000${item}`;
  const byKey = new Map(rows.map((r) => [group(r, r.item), r.n]));
  return rows.filter((r) => {
    if (r.item === '' || r.item === '#complete' || r.item === '#score') return (byKey.get(group(r, '')) ?? 0) > 0;
    if (r.item === '#variants' || r.item === '#variantsComplete') return (byKey.get(group(r, '#variants')) ?? 0) > 0;
    return r.n > 0;
  });
}

/**
 * The completeness rows of a scope counted from the score rows of the masters in scope and of
 * their variants (primary-key seeks of `completeness` and `variant_completeness`), so its cost
 * grows with the scope: a scope naming catalogs (whose masters a set does not count). With
 * `totalsOnly`, only the items `''`, `#complete` and `#score` (the same first term, without the
 * missing labels and the variants): what a day row of the trend keeps (migration 0094).
 */
export async function countedCompletenessCounts(
  db: Database,
  companyId: string,
  scope: ProductScope,
  options: { totalsOnly?: boolean } = {},
): Promise<CountRow[]> {
  // three terms (D1 limits a compound SELECT): the scores' totals, their missing labels, the variants'
  const rows = await db.all<{
    channelKey: number;
    lang: string;
    item: string;
    n: number;
    complete: number;
    sum: number;
  }>(sql`
    WITH scoped AS MATERIALIZED (${scopedMastersSql(scope, companyId)}),
    scores AS MATERIALIZED (SELECT c.channel_key, c.lang, c.score, c.missing FROM scoped CROSS JOIN completeness c ON c.product_key = scoped.key)
    SELECT channel_key AS channelKey, lang, '' AS item, count(*) AS n, sum(score = 100) AS complete, sum(score) AS sum
      FROM scores GROUP BY 1, 2
    ${
      options.totalsOnly
        ? sql``
        : sql`UNION ALL SELECT s.channel_key, s.lang, j.value, count(*), 0, 0
      FROM scores s, json_each(coalesce(s.missing, '[]')) j GROUP BY 1, 2, 3
    UNION ALL SELECT c.channel_key, c.lang, '#variants', count(*), sum(c.score = 100), 0
      FROM scoped CROSS JOIN products v ON v.parent_id = scoped.id CROSS JOIN variant_completeness c ON c.product_key = v.rowid
      GROUP BY 1, 2`
    }`);
  return rows.flatMap(({ channelKey, lang, item, n, complete, sum }) => {
    if (item === '')
      return [
        { channelKey, lang, item: '', n },
        { channelKey, lang, item: '#complete', n: complete },
        { channelKey, lang, item: '#score', n: sum },
      ];
    if (item === '#variants')
      return [
        { channelKey, lang, item, n },
        { channelKey, lang, item: '#variantsComplete', n: complete },
      ];
    return [{ channelKey, lang, item, n }];
  });
}
