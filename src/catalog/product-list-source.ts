import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import type { SearchPlan } from './search-plan';
import { int, languageNumberSql, type SearchScope, SPAN, scopeRange } from './search-scope';

/**
 * Where the product list reads its rows from (docs/search.md, "Search plans"). Every source
 * yields rows of `products` (the master products the filter `where` keeps) plus, for searches,
 * a score (`search_rank`) or the FTS docid (`search_doc`) for keyset cursors.
 */
export interface Source {
  from: SQL;
  where: SQL;
  /** The score of a search, for ranking (smaller is better, bm25). */
  rank: SQL | null;
  /** The FTS docid (rowid) of the matched product, for the index order of a broad search. */
  doc: SQL | null;
  /**
   * The products are a set joined by id (search hits, a filter's few products), read and sorted
   * in memory: keyset conditions must not use a sort order's index (product-list.ts, `keyed`).
   */
  joined: boolean;
  /**
   * A condition checked after the set is sorted, row by row until the page is full, over the
   * sorted rows `s` (`s.search_rowid`, `s.id`): a broad search's check of a filter's few products,
   * one FTS seek each, then costs about a page of seeks when the word is common instead of one
   * per product of the set (product-list.ts).
   */
  late?: SQL;
  /**
   * The SKU order's columns when they are not the product's own: a category's placements walked
   * in SKU order (`placementSource`) keyset and order on the placement's copy of the SKU and its
   * product id, so SQLite reads the order from the placements' index.
   */
  skuKeys?: { sku: SQL; id: SQL };
  /**
   * A condition constant for the statement (a member's scope is large: product-list.ts
   * `largeScopeCondition`): while it is false the statement reads nothing. It goes into the
   * LIMIT, which SQLite evaluates once before the first row; as a WHERE term with a subquery it
   * would be tested on every row the walk reads (134 ms for a 1M catalog's SKU order, against
   * 0.1 ms as the LIMIT).
   */
  readIf?: SQL;
  /** A broad search's documents in index order (docSource): the walk without its family check, for `familyWindowRows`. */
  family?: { where: SQL; earlier: (doc: SQL) => SQL };
}

export type ProductRow = typeof products.$inferSelect;

const COLUMNS = Object.entries(getTableColumns(products)).map(([key, column]) => [key, column.name] as const);

/** A product row from a raw result row (columns by their SQL names). */
const productRowOf = (r: Record<string, unknown>) =>
  Object.fromEntries(COLUMNS.map(([key, name]) => [key, r[name]])) as ProductRow;

/** A common phrase checked on one document: FTS5 seeks the phrase's doclist to that rowid. */
export const check = (phrase: string, rowid: SQL) =>
  sql`EXISTS (SELECT 1 FROM products_fts c WHERE c.products_fts MATCH ${phrase} AND c.rowid = ${rowid})`;

/**
 * Some document of the product in the scope matches `phrase` (search-scope.ts): its own, one
 * language's, or any of them (its own, then one seek per language it has a translated name or
 * keywords in, found through the translations' primary key).
 */
export function scopedCheck(phrase: string, scope: SearchScope, rowid: SQL, id: SQL): SQL {
  if (scope.kind === 'own') return check(phrase, rowid);
  if (scope.kind === 'lang') return check(phrase, sql`${int(scope.base)} + ${rowid}`);
  return sql`(${check(phrase, rowid)} OR EXISTS (SELECT 1 FROM translations t CROSS JOIN products_fts c
    WHERE t.element_id = ${id} AND t.field IN ('name', 'keywords') AND t.lang GLOB '[a-z][a-z][a-z]'${absentLanguages(phrase, scope)}
      AND c.products_fts MATCH ${phrase} AND c.rowid = ${languageNumberSql(sql`t.lang`)} * ${SPAN} + ${rowid}))`;
}

/**
 * ` AND t.lang NOT IN (...)`: of the catalog's translated languages (SearchScope `translated`),
 * those whose documents hold no match of `phrase` at all, found once per statement (one FTS
 * seek into each language's docid range). A translated name in such a language cannot match, so
 * its seek is skipped: a word of one language, the usual case, costs a master one seek instead of
 * one per language it is translated into. Exact: a translation in any other language (one the
 * catalog no longer publishes) is checked as before. Empty without `translated`.
 */
function absentLanguages(phrase: string, scope: SearchScope): SQL {
  if (scope.kind !== 'any' || !scope.translated?.length) return sql``;
  const n = languageNumberSql(sql`value`);
  return sql` AND t.lang NOT IN (SELECT value FROM json_each(${JSON.stringify(scope.translated)})
      WHERE NOT EXISTS (SELECT 1 FROM products_fts x WHERE x.products_fts MATCH ${phrase}
        AND x.rowid >= ${n} * ${SPAN} AND x.rowid < (${n} + 1) * ${SPAN}))`;
}

/** No search: the products table. */
export const tableSource = (where: SQL): Source => ({
  from: sql`${products}`,
  where,
  rank: null,
  doc: null,
  joined: false,
});

/**
 * One category's master products in SKU order (docs/search.md, "Placements in SKU order"): its
 * placements along `product_categories_category_idx` (category_id, sku, product_id, migration
 * 0047), each joined to its product and checked against `where`, stopping after a page. A page
 * reads about its own length of entries where the category holds the filter's products, instead
 * of every product placed in it (read and sorted) or the catalog's SKU order (each product
 * checked for the placement). `category` is a subquery of the category's id (product-filter.ts,
 * `walkedCategory`); `where` must not repeat the category condition.
 */
export const placementSource = (category: SQL, where: SQL): Source => ({
  from: sql`product_categories pc CROSS JOIN ${products} ON ${products.id} = pc.product_id`,
  where: sql`pc.category_id = (${category}) AND ${where}`,
  rank: null,
  doc: null,
  joined: false,
  skuKeys: { sku: sql`pc.sku`, id: sql`pc.product_id` },
});

/**
 * A selective search: the documents of the driving phrases (at most the rank limit), kept when
 * they are among the documents of the plan's narrowing (the common phrases, read lazily and
 * without a score, so bm25 never counts a common phrase's million documents), a variant's
 * document counting for its master (variants are indexed with their SKU, manufacturer part
 * number and GTIN), the best score per master. The unary `+` keeps SQLite from handing
 * `rowid IN (...)` to FTS5 as one `rowid = ?` query per narrowing document (as slow as a check
 * per document).
 */
export function hitsSource(
  plan: Pick<SearchPlan, 'match' | 'narrowing'>,
  catalogId: string,
  where: SQL,
  scope: SearchScope,
): Source {
  const narrowed = plan.narrowing
    ? sql` AND +f.rowid IN (SELECT n.rowid FROM products_fts n WHERE n.products_fts MATCH ${plan.narrowing} AND ${scopeRange(scope, sql`n.rowid`)})`
    : sql``;
  // a translated document's product is docid % DOC_SPAN; a variant's document counts for its master
  const hits = sql`SELECT coalesce(d.parent_id, d.id) AS mid, min(f.rank) AS r
    FROM products_fts f CROSS JOIN ${products} d ON d.rowid = f.rowid % ${SPAN}
    WHERE f.products_fts MATCH ${plan.match} AND ${scopeRange(scope, sql`f.rowid`)} AND d.catalog_id = ${catalogId}${narrowed}
    GROUP BY mid`;
  return {
    from: sql`(${hits}) h CROSS JOIN ${products} ON ${products.id} = h.mid`,
    where,
    rank: sql`h.r`,
    doc: null,
    joined: true,
  };
}

/**
 * A broad search in index order: the FTS docids of the masters' families, read in docid order
 * (stops after a page): the products' own documents first, then each language's. A variant's
 * document lists its master. A document is listed only when no earlier document of the same
 * family in the scope matches (the master's or a variant's own document with a smaller docid,
 * or a translated one of a language with a smaller number), so each master is listed once, at
 * its family's first match. The family is read through the primary key and
 * `products_parent_idx`; a document seeks the index only for the family's earlier documents,
 * usually none (a master is indexed before its variants, its own document before its
 * translated ones).
 */
export function docSource(plan: SearchPlan, where: SQL, scope: SearchScope): Source {
  const earlier = (doc: SQL) => earlierFamilyMatch(plan.all, scope, doc, sql`${products.id}`);
  const walk = sql`f.products_fts MATCH ${plan.all} AND ${scopeRange(scope, sql`f.rowid`)} AND ${where}`;
  return {
    from: sql`products_fts f CROSS JOIN ${products} d ON d.rowid = f.rowid % ${SPAN}
      CROSS JOIN ${products} ON ${products.id} = coalesce(d.parent_id, d.id)`,
    where: sql`${walk} AND NOT ${earlier(sql`f.rowid`)}`,
    rank: null,
    doc: sql`f.rowid`,
    joined: false,
    family: { where: walk, earlier },
  };
}

/**
 * A page of a broad search in index order (docSource) read from a window of the walk: the next
 * `page * perRow` documents after `after`, grouped by master (each at its first document in the
 * window), masters with a matching document before `after` (listed on an earlier page) left
 * out, in order of that first document. The family check of the plain walk (does an earlier
 * document of the product's family match: one FTS seek per earlier family member, for every
 * document walked) was nearly all of such a page's cost: 7.2 of 7.5 ms CPU for a word only
 * variants carry at 1M; here it runs for the page's masters only, and on the first page not at
 * all. The window is a prefix of the walk, so a master's first document in it is its first
 * after `after`: when the window holds at least `page` masters, or the walk ended inside it, the
 * page is the plain walk's; else null (the caller walks as before). Honours `readIf`.
 */
export async function familyWindowRows(
  db: Database,
  source: Source,
  after: number | null,
  page: number,
  perRow: number,
): Promise<SourceRow[] | null> {
  const family = source.family!;
  const size = page * perRow;
  const bound = source.readIf ? sql`CASE WHEN ${source.readIf} THEN ${size} ELSE 0 END` : sql`${size}`;
  const from = after === null ? sql`` : sql` AND f.rowid > ${after}`;
  // listed before: a document of the family at or before `after` (docids are integers)
  const listed = after === null ? sql`` : sql`WHERE NOT ${family.earlier(sql`${after + 1}`)}`;
  const raw = await db.all<Record<string, unknown>>(sql`WITH w AS MATERIALIZED (
      SELECT f.rowid AS doc, ${products}.rowid AS pkey FROM ${source.from} WHERE ${family.where}${from}
      ORDER BY f.rowid LIMIT ${bound})
    SELECT k.walked, r.* FROM (SELECT count(*) AS walked FROM w) k LEFT JOIN (
      SELECT ${products}.*, g.doc AS search_doc FROM (SELECT pkey, min(doc) AS doc FROM w GROUP BY pkey) g
        CROSS JOIN ${products} ON ${products}.rowid = g.pkey ${listed}
      ORDER BY g.doc LIMIT ${page}) r
    ORDER BY r.search_doc`);
  const rows = raw.filter((r) => r.search_doc !== null);
  if (rows.length < page && Number(raw[0]?.walked ?? size) >= size) return null;
  return rows.map((r) => ({
    row: productRowOf(r),
    rank: 0,
    doc: Number(r.search_doc),
  }));
}

/** Some document of the family of master `id` in the scope, with a docid below `doc`, matches `phrase`. */
function earlierFamilyMatch(phrase: string, scope: SearchScope, doc: SQL, id: SQL): SQL {
  const family = sql`FROM ${products} q WHERE (q.id = ${id} OR q.parent_id = ${id})`;
  if (scope.kind === 'lang') {
    const docid = sql`${int(scope.base)} + q.rowid`;
    return sql`EXISTS (SELECT 1 ${family} AND ${docid} < ${doc} AND ${check(phrase, docid)})`;
  }
  const own = sql`q.rowid < ${doc} AND ${check(phrase, sql`q.rowid`)}`;
  if (scope.kind === 'own') return sql`EXISTS (SELECT 1 ${family} AND ${own})`;
  // translated documents lie above every own document: only a translated one has any before it
  const docid = sql`${languageNumberSql(sql`t.lang`)} * ${SPAN} + q.rowid`;
  return sql`EXISTS (SELECT 1 ${family} AND (${own} OR (${doc} >= ${SPAN} AND EXISTS (SELECT 1 FROM translations t CROSS JOIN products_fts c
      WHERE t.element_id = q.id AND t.field IN ('name', 'keywords') AND t.lang GLOB '[a-z][a-z][a-z]'${absentLanguages(phrase, scope)} AND ${docid} < ${doc}
        AND c.products_fts MATCH ${phrase} AND c.rowid = ${docid}))))`;
}

/**
 * Some document of master `id`'s family (its own and its variants') in the scope matches
 * `phrase`: a word only variants carry finds their master in every plan, as a variant's SKU does.
 */
export const familyCheck = (phrase: string, scope: SearchScope, rowid: SQL, id: SQL): SQL =>
  sql`(${scopedCheck(phrase, scope, rowid, id)} OR EXISTS (SELECT 1 FROM ${products} v
    WHERE v.parent_id = ${id} AND ${scopedCheck(phrase, scope, sql`v.rowid`, sql`v.id`)}))`;

/**
 * Some document of the product's family in the scope matches the whole search (a broad search's
 * check of each master it reads): its own documents, else its variants'.
 */
export function matchesSearch(
  plan: SearchPlan,
  scope: SearchScope,
  rowid: SQL = sql`${products}.rowid`,
  id: SQL = sql`${products.id}`,
): SQL {
  // A phrase FTS5 cannot answer lazily (a long prefix) would be merged once per product: merge it once.
  if (plan.allLazy) return familyCheck(plan.all, scope, rowid, id);
  const docs = sql`(SELECT f.rowid % ${SPAN} FROM products_fts f WHERE f.products_fts MATCH ${plan.all} AND ${scopeRange(scope, sql`f.rowid`)})`;
  return sql`(${rowid} IN ${docs} OR EXISTS (SELECT 1 FROM ${products} v WHERE v.parent_id = ${id} AND v.rowid IN ${docs}))`;
}

/** A broad search in a sort order: that order's index, each product checked against the search. */
export const checkedTableSource = (plan: SearchPlan, where: SQL, scope: SearchScope): Source =>
  tableSource(sql`${where} AND ${matchesSearch(plan, scope)}`);

/**
 * The few products a filter names (`ids`, a subquery of master ids, product-list.ts
 * `drivenIds`), joined to their rows by id, sorted in memory; `doc` gives a broad search's index
 * order (the FTS docid is the product's rowid).
 */
export const joinedSource = (ids: SQL, where: SQL, doc: SQL | null = null, late?: SQL): Source => ({
  from: sql`(${ids}) h CROSS JOIN ${products} ON ${products.id} = h.mid`,
  where,
  rank: null,
  doc,
  joined: true,
  late,
});

/** The sorted rows' product rowid and id, for a `late` condition (Source.late). */
export const lateRow = { rowid: sql`s.search_rowid`, id: sql`s.id` };

interface SourceRow {
  row: ProductRow;
  rank: number;
  doc: number;
}

/**
 * A set with a late condition (Source.late): the set's keys sorted alone (the product's rowid
 * and id from its id's index, and the order's keys with `extra`, the cursor's condition), read
 * as a co-routine (the subquery's LIMIT keeps SQLite from flattening it into the join), then
 * each product's row read in that order, checked against the filter and the late condition,
 * until the page is full: a leaf category of 1,000 masters with a broad word in index order
 * reads a page of rows, not the category's 1,000 (docs/search.md "Filter plans").
 */
function lateSource(source: Source, extra: SQL[], orderBy: SQL, page: SQL): SQL {
  const keys = sql.join([sql`${products}.rowid AS search_rowid`, sql`${products.id} AS id`], sql`, `);
  const rank = source.rank ? sql`, ${source.rank} AS search_rank` : sql``;
  const doc = source.doc ? sql`, ${source.doc} AS search_doc` : sql``;
  const ordered = extra.length ? sql` WHERE ${sql.join(extra, sql` AND `)}` : sql``;
  return sql`SELECT ${products}.*, s.search_rowid${source.rank ? sql`, s.search_rank` : sql``}${source.doc ? sql`, s.search_doc` : sql``}
    FROM (SELECT ${keys}${rank}${doc} FROM ${source.from}${ordered} ORDER BY ${orderBy} LIMIT -1) s
    CROSS JOIN ${products} ON ${products}.rowid = s.search_rowid
    WHERE ${source.where} AND ${source.late} LIMIT ${page}`;
}

export async function selectRows(
  db: Database,
  source: Source,
  extra: SQL[],
  orderBy: SQL,
  limit: number,
): Promise<SourceRow[]> {
  const rank = source.rank ? sql`, ${source.rank} AS search_rank` : sql``;
  const doc = source.doc ? sql`, ${source.doc} AS search_doc` : sql``;
  const where = sql.join([source.where, ...extra], sql` AND `);
  const page = source.readIf ? sql`CASE WHEN ${source.readIf} THEN ${limit} ELSE 0 END` : sql`${limit}`;
  const select = sql`SELECT ${products}.*${rank}${doc} FROM ${source.from} WHERE ${where} ORDER BY ${orderBy}`;
  const raw = await db.all<Record<string, unknown>>(
    source.late ? lateSource(source, extra, orderBy, page) : sql`${select} LIMIT ${page}`,
  );
  return raw.map((r) => ({
    row: productRowOf(r),
    rank: Number(r.search_rank ?? 0),
    doc: Number(r.search_doc ?? 0),
  }));
}
