import { type SQL, sql } from 'drizzle-orm';
import type { Database } from './client';
import { forbidden, notFound } from '../kernel/app-error';
import type { Caller, ProductScope } from '../kernel/caller';
import { NOT_PERMITTED } from '../kernel/permissions';

/**
 * A member's catalog, category-subtree and channel scopes (docs/teams.md, "Catalog, category
 * and channel scopes"): the one place every surface's check and every product query builder
 * reads them. A caller without `productScope` (an unscoped member, a job) is never narrowed.
 */

/** What the scope checks read of the caller. */
type Scoped = Pick<Caller, 'companyId'> & Partial<Pick<Caller, 'productScope' | 'channels'>>;

const jsonIds = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/**
 * The ids of the scope's categories and every category below them, as a subquery (a category
 * scope covers its whole subtree). It names the company, so another company's category (or one
 * deleted since) covers nothing; along `categories_parent_idx`, thousands of categories at most.
 * Not correlated: SQLite builds the list once per statement.
 */
export function scopeSubtreeSql(scope: ProductScope, companyId: string): SQL {
  return sql`WITH RECURSIVE scope_sub(id) AS (
      SELECT id FROM categories WHERE company_id = ${companyId} AND id IN ${jsonIds(scope.categoryIds)}
      UNION SELECT c.id FROM categories c JOIN scope_sub ON c.parent_id = scope_sub.id
    ) SELECT id FROM scope_sub`;
}

/**
 * The condition "the master `masterId` of catalog `catalogId` is in the scope": its catalog is
 * one of the scope's, or it is placed in a category of a scoped subtree: one range of
 * `product_categories`' primary key (product_id, category_id), the master's few placements, each
 * looked up in the subtree's list. The `+` keeps SQLite from seeking the primary key once per
 * category of the subtree instead (111 seeks per product for a top-level category of the 1M
 * bench catalog: a scoped list page walking 900 masters took 24 ms of CPU, 1 ms with it; see
 * docs/benchmarks.md "Scoped editor"). The `LIMIT 1` keeps the EXISTS a subquery, judged in
 * the order of the WHERE it stands in: without it SQLite (as D1 runs it) turned it into a join
 * of `ps`, which runs after every subquery condition of the product, so a search's checks (one
 * FTS seek per product or document) ran on every product a list walked, ten times those it
 * keeps for a 10 % scope (docs/teams.md, "What remains": the scoped variant-only word). A variant
 * is in scope with its master: pass the master's id (`coalesce(parent_id, id)`).
 */
export function productScopeSql(scope: ProductScope, companyId: string, catalogId: SQL, masterId: SQL): SQL {
  const placed = scope.categoryIds.length
    ? sql`EXISTS (SELECT 1 FROM product_categories ps WHERE ps.product_id = ${masterId}
        AND +ps.category_id IN (${scopeSubtreeSql(scope, companyId)}) LIMIT 1)`
    : sql`0`;
  return scope.catalogIds.length ? sql`(${catalogId} IN ${jsonIds(scope.catalogIds)} OR ${placed})` : placed;
}

/**
 * The condition "the placements recorded in `changes` (a version's stored changes) lie in the
 * scope": its `categories` entry's `before` (a delete's placements) names a category of a scoped
 * subtree or of a scoped catalog (a category deleted since counts as outside).
 */
function recordedPlacementsInScopeSql(scope: ProductScope, companyId: string, changes: SQL): SQL {
  const recorded = sql`(SELECT json_extract(e.value, '$[1]') FROM json_each(${changes}) e
    WHERE json_extract(e.value, '$[0]') = 'categories')`;
  return sql`EXISTS (SELECT 1 FROM json_each(coalesce(${recorded}, '[]')) rc
    CROSS JOIN categories c ON c.id = rc.value AND c.company_id = ${companyId}
    WHERE c.id IN (${scopeSubtreeSql(scope, companyId)}) OR c.catalog_id IN ${jsonIds(scope.catalogIds)})`;
}

/** An element's last version (its delete, for one gone), through `history_element_idx`. */
const lastVersionSql = (companyId: string, elementId: SQL, columns: SQL) =>
  sql`SELECT ${columns} FROM history_versions h WHERE h.company_id = ${companyId} AND h.element_id = ${elementId}
    ORDER BY h.id DESC LIMIT 1`;

/**
 * The condition "the product or variant `elementId`, gone now, lay in the scope", judged by what
 * its history recorded (docs/teams.md, "The changes feed"), from its last version (its delete;
 * for a variant deleted with its master, its last change before): the catalog recorded with it
 * (migration 0088) is a scoped one; or, for a master, its recorded placements (the delete's
 * `categories`) lie in the scope; or, for a variant, its recorded master is in scope as a
 * variant's is judged when live: the master as it is now, or, when the master is gone too, by
 * the master's own recorded placements. A version written before migration 0088 records no
 * catalog nor master: a master is then judged by its placements only (one placed nowhere is
 * outside), a variant is outside. Primary-key and index seeks only: the last version by
 * `history_element_idx`, the master by the products' primary key, the subtree as in
 * `scopeSubtreeSql`.
 */
export function goneProductInScopeSql(scope: ProductScope, companyId: string, elementId: SQL): SQL {
  const masterNow = sql`EXISTS (SELECT 1 FROM products p WHERE p.id = l.master_id AND p.company_id = ${companyId}
    AND ${productScopeSql(scope, companyId, sql`p.catalog_id`, sql`p.id`)})`;
  const masterGone = sql`(NOT EXISTS (SELECT 1 FROM products p WHERE p.id = l.master_id)
    AND ${recordedPlacementsInScopeSql(scope, companyId, sql`(${lastVersionSql(companyId, sql`l.master_id`, sql`h.changes`)})`)})`;
  return sql`EXISTS (SELECT 1 FROM (${lastVersionSql(companyId, elementId, sql`h.element_kind, h.catalog_id, h.master_id, h.changes`)}) l
    WHERE l.catalog_id IN ${jsonIds(scope.catalogIds)}
      OR (l.element_kind = 'product' AND ${recordedPlacementsInScopeSql(scope, companyId, sql`l.changes`)})
      OR (l.element_kind = 'variant' AND l.master_id IS NOT NULL AND (${masterNow} OR ${masterGone})))`;
}

/** The categories of `catalogId` in the scope's subtrees (thousands at most), for a check record by record. */
export async function scopedCategoriesOf(
  db: Database,
  scope: ProductScope,
  companyId: string,
  catalogId: string,
): Promise<Set<string>> {
  const rows = await db.all<{ id: string }>(
    sql`SELECT id FROM categories WHERE catalog_id = ${catalogId} AND id IN (${scopeSubtreeSql(scope, companyId)})`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Which of `ids` (products or variants of the company) are in the scope's subtrees, judged as
 * stored (a variant with its master): one statement with one bound list, for a check record by
 * record (an import's T_UPDATE_PRODUCTS deletions, imports/write/import-actions.ts).
 */
export async function productsInScope(
  db: Database,
  scope: ProductScope,
  companyId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.all<{ id: string }>(
    sql`SELECT p.id FROM products p WHERE p.id IN ${jsonIds(ids)} AND p.company_id = ${companyId}
      AND ${productScopeSql(scope, companyId, sql`p.catalog_id`, sql`coalesce(p.parent_id, p.id)`)}`,
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * The condition for the masters of one known catalog (the product list, search, mass edit):
 * none when the whole catalog is in scope, so a scoped list of such a catalog costs nothing more.
 */
export function catalogProductScopeSql(caller: Scoped, catalogId: string, masterId: SQL): SQL | null {
  const scope = caller.productScope;
  if (!scope || scope.catalogIds.includes(catalogId)) return null;
  return productScopeSql({ catalogIds: [], categoryIds: scope.categoryIds }, caller.companyId, sql`NULL`, masterId);
}

/**
 * What a request does, for the scope checks: `read` (any `read` operation), `publish` (an
 * operation needing `publish`: its catalog is judged by the export's or sync's own check) or
 * `write` (every other).
 */
export type ScopeMode = 'read' | 'write' | 'publish';

/** The scope mode of an operation that needs `permission`. */
export const scopeModeOf = (permission: string | undefined): ScopeMode =>
  permission === 'read' ? 'read' : permission === 'publish' ? 'publish' : 'write';

/** What a request names that the product scope limits (operation-guard.ts and the MCP tools read it before validation). */
export interface NamedTargets {
  /** Ids that must be products (or variants) in scope. */
  products: string[];
  /** Ids of a product, variant, category or catalog. */
  elements: string[];
  categories: string[];
  catalogs: string[];
}

/** The request fields the scope check reads (the OpenAPI document names its refusals on them: openapi/error-responses.ts). */
export const SCOPE_FIELDS = {
  products: ['productId', 'productIds', 'targetProductId', 'masterId'],
  elements: ['elementId', 'parentId'],
  categories: ['categoryId', 'categoryIds'],
  catalogs: ['catalogId'],
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The well-formed ids a raw request (query or JSON body, before validation) names, by what they must be. */
export function namedTargets(field: (name: string) => unknown): NamedTargets {
  const ids = (...names: string[]) =>
    names.flatMap((name) => {
      const value = field(name);
      const list = Array.isArray(value) ? value : [value];
      return list.filter((v): v is string => typeof v === 'string' && UUID.test(v));
    });
  return {
    products: ids(...SCOPE_FIELDS.products),
    elements: ids(...SCOPE_FIELDS.elements),
    categories: ids(...SCOPE_FIELDS.categories),
    catalogs: ids(...SCOPE_FIELDS.catalogs),
  };
}

/**
 * What the guard judges of an operation that checks the scope record by record (`UpsertProducts`,
 * MCP `upsert_products`: each item is judged by the domain, db/scope-records.ts): for a member
 * with category scopes, not the catalog it names (its rows outside are rejected one by one); for
 * a member limited to catalogs, everything as for any write (another catalog: 403 before validation).
 */
export function perRecordTargets(caller: Scoped, named: NamedTargets): NamedTargets {
  return caller.productScope?.categoryIds.length ? { ...named, catalogs: [] } : named;
}

/**
 * The product-scope check of every surface, before validation: a member with a product scope
 * who names a product outside it is answered as if it did not exist when reading (404
 * `product not found`, as across companies) and refused when writing (403 `NOT_PERMITTED`,
 * naming nothing). A write may name only products in scope, categories of a scoped subtree
 * (or of a scoped catalog) and, unless it names a product or element (whose catalog the domain
 * checks against it), scoped catalogs; an id that names nothing counts as outside (so a refusal
 * never tells whether it exists). A read naming a category or catalog is not limited: its
 * products are filtered (product-filter.ts), and the tree's listings show a member limited to
 * subtrees only their part (catalog/category-reach.ts).
 */
export async function assertNamedInScope(
  db: Database,
  caller: Scoped,
  named: NamedTargets,
  mode: ScopeMode,
): Promise<void> {
  const scope = caller.productScope;
  if (!scope) return;
  const ids = mode === 'read' ? [...named.products, ...named.elements] : Object.values(named).flat();
  if (!ids.length) return;
  const outside = await outsideScope(db, caller.companyId, scope, named, mode);
  if (!outside) return;
  if (mode === 'read') throw notFound('product');
  throw forbidden(NOT_PERMITTED);
}

/**
 * Whether any named id is outside the scope, in one statement with a fixed number of
 * parameters (a review names up to 100 products; D1 binds at most 100): the ids go as one JSON
 * list of `[id, what]`, each looked up by primary key as a product, a category or a catalog of
 * the company, as `what` allows. Each lookup is 1 (in scope), 0 (outside) or NULL (names
 * nothing of that kind).
 */
async function outsideScope(
  db: Database,
  companyId: string,
  scope: ProductScope,
  named: NamedTargets,
  mode: ScopeMode,
): Promise<boolean> {
  const pairs = [
    ...named.products.map((id) => [id, 'product']),
    ...named.elements.map((id) => [id, 'element']),
    ...(mode !== 'read' ? named.categories.map((id) => [id, 'category']) : []),
    // a write of a named product (UpdateProduct names its catalog too; the domain checks they
    // agree, as AddProduct does a variant's with its master's) is judged by the product, one
    // naming categories by them (AddProduct placing a new product in a scoped subtree: the
    // domain checks they are of the catalog), else by the catalog; publishing judges its
    // catalog itself (exportSubtrees)
    ...(mode === 'write' && !named.products.length && !named.elements.length && !named.categories.length
      ? named.catalogs.map((id) => [id, 'catalog'])
      : []),
  ];
  if (!pairs.length) return false;
  const product = sql`(SELECT ${productScopeSql(scope, companyId, sql`p.catalog_id`, sql`coalesce(p.parent_id, p.id)`)}
    FROM products p WHERE p.id = n.id AND p.company_id = ${companyId})`;
  const category = sql`(SELECT (c.catalog_id IN ${jsonIds(scope.catalogIds)} OR c.id IN (${scopeSubtreeSql(scope, companyId)}))
    FROM categories c WHERE c.id = n.id AND c.company_id = ${companyId})`;
  const catalog = sql`(SELECT k.id IN ${jsonIds(scope.catalogIds)} FROM catalogs k WHERE k.id = n.id AND k.company_id = ${companyId})`;
  // a read is limited only for products (anything else it names passes: 1); a write passes only what is in scope
  const verdict =
    mode === 'read'
      ? sql`coalesce(CASE WHEN n.what IN ('product', 'element') THEN ${product} END, 1)`
      : sql`coalesce(
          CASE WHEN n.what IN ('product', 'element') THEN ${product} END,
          CASE WHEN n.what IN ('element', 'category') THEN ${category} END,
          CASE WHEN n.what IN ('element', 'catalog') THEN ${catalog} END,
          0)`;
  const [row] = await db.all<{ ok: number | null }>(
    sql`SELECT min(${verdict}) AS ok FROM (SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS what
      FROM json_each(${JSON.stringify(pairs)})) n`,
  );
  return Number(row?.ok ?? 0) !== 1;
}

/**
 * A whole catalog's publication (a sync's `TestConnection`) needs the whole catalog in scope: 403
 * `NOT_PERMITTED` for a member whose product scope does not name it (`WHOLE_CATALOG_ONLY` for one
 * limited to category subtrees; a sync and an export of such a member run over their subtrees
 * instead: `syncSubtrees`, `exportSubtrees`).
 */
export function assertCatalogInScope(caller: Scoped, catalogId: string): void {
  const scope = caller.productScope;
  if (scope && !scope.catalogIds.includes(catalogId))
    throw forbidden(scope.categoryIds.length ? WHOLE_CATALOG_ONLY : NOT_PERMITTED);
}

/**
 * The refusals of a member limited to category subtrees who publishes more than their part
 * (docs/teams.md): they say what the member may do instead, and name neither the data nor
 * whether it exists.
 */
export const EXPORT_CATEGORY_OUTSIDE =
  "the template's category lies outside your scope: export without a category subset, or through a template limited to a category of your scope";
export const WHOLE_CATALOG_ONLY = 'a sync publishes a whole catalog: your scope must name the catalog';

/**
 * What an export publishes for the caller (docs/teams.md "Exports and syncs"): the whole catalog
 * (null) when the scope allows it, or, for a member limited to category subtrees, the roots of
 * their subtrees in this catalog, which the job keeps (`scopeCategoryIds`, as a sync's): the
 * export then writes only the masters placed in them, with their variants, and of the category
 * tree only what the member's tree view shows (`categoryReachSql`). A template's category subset
 * (`templateCategoryId`) must lie inside one of the subtrees (403 `EXPORT_CATEGORY_OUTSIDE`); a
 * member whose scope holds nothing of this catalog is refused (403 `NOT_PERMITTED`). Judged once,
 * at the start: one statement by primary key, one walk of the subtrees for a template's category.
 */
export async function exportSubtrees(
  db: Database,
  caller: Scoped,
  catalogId: string,
  templateCategoryId: string | null,
): Promise<string[] | null> {
  const scope = caller.productScope;
  if (!scope || scope.catalogIds.includes(catalogId)) return null;
  const roots = scope.categoryIds.length
    ? await db.all<{ id: string }>(
        sql`SELECT id FROM categories WHERE company_id = ${caller.companyId} AND catalog_id = ${catalogId}
          AND id IN ${jsonIds(scope.categoryIds)} ORDER BY id`,
      )
    : [];
  if (!roots.length) throw forbidden(NOT_PERMITTED);
  const categoryIds = roots.map((r) => r.id);
  if (templateCategoryId) {
    const inside = await db.all<{ ok: number }>(
      sql`SELECT 1 AS ok WHERE ${templateCategoryId} IN (${scopeSubtreeSql({ catalogIds: [], categoryIds }, caller.companyId)})`,
    );
    if (!inside.length) throw forbidden(EXPORT_CATEGORY_OUTSIDE);
  }
  return categoryIds;
}

/**
 * The condition "the master `masterId` is placed in one of the subtrees of `rootIds`": the
 * subtree condition of every product query (`productScopeSql`), for a job that keeps a member's
 * roots (a sync's and an export's `scopeCategoryIds`): one range of the master's placements per
 * master a keyset passes.
 */
export function inSubtreesSql(companyId: string, rootIds: readonly string[], masterId: SQL): SQL {
  return productScopeSql({ catalogIds: [], categoryIds: [...rootIds] }, companyId, sql`NULL`, masterId);
}

/**
 * The categories of `catalogId` a member limited to the subtrees of `rootIds` is shown
 * (docs/teams.md "The category tree"), as rows `(id, inside)`: the categories of the subtrees
 * (`inside` 1) and those above each subtree's root (0, the path that orients them); nothing else,
 * not a sibling on that path. The subtrees along `categories_parent_idx`, the path by primary key;
 * thousands of categories at most. The tree's listings (catalog/category-reach.ts) and an export's
 * category tree (exports/bmecat/catalog-queries.ts, the CSV's category paths) read it.
 */
export function categoryReachSql(companyId: string, catalogId: string, rootIds: readonly string[]): SQL {
  const roots = sql`SELECT id, parent_id FROM categories WHERE company_id = ${companyId}
    AND catalog_id = ${catalogId} AND id IN ${jsonIds(rootIds)}`;
  return sql`WITH RECURSIVE down(id) AS (
      SELECT id FROM (${roots})
      UNION SELECT c.id FROM categories c JOIN down ON c.parent_id = down.id
    ), up(id, parent_id) AS (
      SELECT id, parent_id FROM (${roots})
      UNION SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
        WHERE c.company_id = ${companyId}
    )
    SELECT id, 1 AS inside FROM down
    UNION ALL SELECT id, 0 FROM up WHERE id NOT IN (SELECT id FROM down)`;
}

/**
 * Whether the caller sees only the jobs and files they started (docs/teams.md, "Jobs, files and
 * reports"): a member with a product or channel scope. Another member's export file, import
 * report, mass edit or sync result may hold products and channels outside their scope, and a
 * job row does not record which; so GetJob, GetJobs, CancelJob, Download, DownloadReport,
 * GetImports, GetImport and the import uploads answer such a member about their own only (404
 * for another's, as for an id of another company).
 */
export const seesOwnWorkOnly = (caller: Scoped): boolean => Boolean(caller.productScope || caller.channels?.length);

/**
 * The channel-scope check (exports, review decisions): 403 `NOT_PERMITTED` for a member limited
 * to channels when `channelId` is not one of them, or is absent (an export without a channel
 * publishes every product, which a channel-scoped member may not).
 */
export function assertChannelInScope(caller: Scoped, channelId: string | null | undefined): void {
  if (!caller.channels?.length) return;
  if (!channelId || !caller.channels.includes(channelId)) throw forbidden(NOT_PERMITTED);
}
