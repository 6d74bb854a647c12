import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import type { SearchPlan } from './search-plan';

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
}

export type ProductRow = typeof products.$inferSelect;

const COLUMNS = Object.entries(getTableColumns(products)).map(([key, column]) => [key, column.name] as const);

/** A common phrase checked on one document: FTS5 seeks the phrase's doclist to that rowid. */
export const check = (phrase: string, rowid: SQL) =>
  sql`EXISTS (SELECT 1 FROM products_fts c WHERE c.products_fts MATCH ${phrase} AND c.rowid = ${rowid})`;

/** No search: the products table. */
export const tableSource = (where: SQL): Source => ({
  from: sql`${products}`,
  where,
  rank: null,
  doc: null,
  joined: false,
});

/**
 * A selective search: the documents of the driving phrases (at most the rank limit), each
 * common phrase checked per document, a variant's document counting for its master (variants
 * are indexed with their SKU, manufacturer part number and GTIN), the best score per master.
 */
export function hitsSource(plan: Pick<SearchPlan, 'match' | 'checks'>, catalogId: string, where: SQL): Source {
  const checks = plan.checks.map((phrase) => sql` AND ${check(phrase, sql`f.rowid`)}`);
  const hits = sql`SELECT coalesce(d.parent_id, d.id) AS mid, min(f.rank) AS r
    FROM products_fts f CROSS JOIN ${products} d ON d.rowid = f.rowid
    WHERE f.products_fts MATCH ${plan.match} AND d.catalog_id = ${catalogId}${sql.join(checks)}
    GROUP BY mid`;
  return {
    from: sql`(${hits}) h CROSS JOIN ${products} ON ${products.id} = h.mid`,
    where,
    rank: sql`h.r`,
    doc: null,
    joined: true,
  };
}

/** A broad search in index order: the FTS docids of the masters, read in rowid order (stops after a page). */
export const docSource = (plan: SearchPlan, where: SQL): Source => ({
  from: sql`products_fts f CROSS JOIN ${products} ON ${products}.rowid = f.rowid`,
  where: sql`f.products_fts MATCH ${plan.all} AND ${where}`,
  rank: null,
  doc: sql`f.rowid`,
  joined: false,
});

/** The product's own document matches the whole search (a broad search's check of each product it reads). */
export function matchesSearch(plan: SearchPlan): SQL {
  const rowid = sql`${products}.rowid`;
  // A phrase FTS5 cannot answer lazily (a long prefix) would be merged once per product: merge it once.
  return plan.allLazy
    ? check(plan.all, rowid)
    : sql`${rowid} IN (SELECT rowid FROM products_fts WHERE products_fts MATCH ${plan.all})`;
}

/** A broad search in a sort order: that order's index, each product checked against the search. */
export const checkedTableSource = (plan: SearchPlan, where: SQL): Source =>
  tableSource(sql`${where} AND ${matchesSearch(plan)}`);

/**
 * The few products a filter names (`ids`, a subquery of master ids, product-list.ts
 * `drivenIds`), joined to their rows by id, sorted in memory; `doc` gives a broad search's index
 * order (the FTS docid is the product's rowid).
 */
export const joinedSource = (ids: SQL, where: SQL, doc: SQL | null = null): Source => ({
  from: sql`(${ids}) h CROSS JOIN ${products} ON ${products.id} = h.mid`,
  where,
  rank: null,
  doc,
  joined: true,
});

interface SourceRow {
  row: ProductRow;
  rank: number;
  doc: number;
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
  const raw = await db.all<Record<string, unknown>>(
    sql`SELECT ${products}.*${rank}${doc} FROM ${source.from} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit}`,
  );
  return raw.map((r) => ({
    row: Object.fromEntries(COLUMNS.map(([key, name]) => [key, r[name]])) as ProductRow,
    rank: Number(r.search_rank ?? 0),
    doc: Number(r.search_doc ?? 0),
  }));
}
