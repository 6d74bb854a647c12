import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import type { ProductListInput } from './catalog.schemas';
import {
  assertCursorOrder,
  decodeProductCursor,
  encodeProductCursor,
  type Direction,
  type RankCursor,
  type Segment,
  type SortName,
  type ValueCursor,
} from './product-cursor';
import { productFilterWhere } from './product-filter';
import { productOut } from './product-queries';
import { ftsMatchExpression } from './product-search';
import { findCatalog, type Tenant } from './scope';

/**
 * The product list (`GET /api/Catalog/GetProducts`, the MCP search tool, the web grid): master
 * products of one catalog, filtered by `ProductFilter`, ordered by SKU, name, last change or,
 * for a search without an explicit sort, by relevance; keyset-paginated per order (docs/search.md).
 *
 * A nullable sort column is read as two segments, each one index range: rows without a value
 * (by id) and rows with one (by value, then id). Ascending lists the empty values first,
 * descending last, so a cursor is always "segment, value, id" and never needs an OR of ranges.
 *
 * A search drives the query from the FTS index when it matches at most RANK_LIMIT products
 * (ranked or sorted in memory, cheap at that size). A broader search walks the sort order's
 * index instead and keeps the rows the search matched; without an explicit sort it is listed
 * by SKU, because ranking hundreds of thousands of near-identical matches costs a full pass.
 */
export const RANK_LIMIT = 5000;

type ProductRow = typeof products.$inferSelect;

interface SortSpec {
  /** ORDER BY expression; indexes: products_catalog_sku_uq, products_list_name_idx, products_list_updated_idx. */
  expr: SQL;
  /** The keyset condition "after (k, i)": a row value SQLite seeks in the index (the collation goes on the value side). */
  after: (cmp: SQL, k: string | null, i: string) => SQL;
  nullable: boolean;
  /** Unique among a catalog's products, so the value alone orders them. */
  unique: boolean;
  key: (row: ProductRow) => string | null;
}

const SORTS: Record<SortName, SortSpec> = {
  sku: {
    expr: sql`${products.sku}`,
    after: (cmp, k) => sql`${products.sku} ${cmp} ${k}`,
    nullable: true,
    unique: true,
    key: (r) => r.sku,
  },
  name: {
    expr: sql`${products.name} COLLATE NOCASE`,
    after: (cmp, k, i) => sql`(${products.name}, ${products.id}) ${cmp} (${k} COLLATE NOCASE, ${i})`,
    nullable: true,
    unique: false,
    key: (r) => r.name,
  },
  updatedAt: {
    expr: sql`${products.updatedAt}`,
    after: (cmp, k, i) => sql`(${products.updatedAt}, ${products.id}) ${cmp} (${k}, ${i})`,
    nullable: false,
    unique: false,
    key: (r) => r.updatedAt,
  },
};

const COLUMNS = Object.entries(getTableColumns(products)).map(([key, column]) => [key, column.name] as const);

/** Where rows come from: the products table, or the FTS matches joined to it (FTS first). */
interface Source {
  where: SQL;
  ftsMatch: string | null;
}

async function selectRows(db: Database, source: Source, extra: SQL[], orderBy: SQL, limit: number) {
  const from =
    source.ftsMatch !== null
      ? sql`products_fts CROSS JOIN ${products} ON ${products}.rowid = products_fts.rowid`
      : sql`${products}`;
  const match = source.ftsMatch !== null ? sql`products_fts MATCH ${source.ftsMatch} AND ` : sql``;
  const rank = source.ftsMatch !== null ? sql`, products_fts.rank AS search_rank` : sql``;
  const where = sql.join([source.where, ...extra], sql` AND `);
  const raw = await db.all<Record<string, unknown>>(
    sql`SELECT ${products}.*${rank} FROM ${from} WHERE ${match}${where} ORDER BY ${orderBy} LIMIT ${limit}`,
  );
  return raw.map((r) => ({
    row: Object.fromEntries(COLUMNS.map(([key, name]) => [key, r[name]])) as ProductRow,
    rank: Number(r.search_rank ?? 0),
  }));
}

function segmentRows(
  db: Database,
  source: Source,
  spec: SortSpec,
  order: Direction,
  segment: Segment,
  after: ValueCursor | null,
  limit: number,
) {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  const dir = sql.raw(order);
  if (segment === 'null') {
    const extra = [sql`${spec.expr} IS NULL`, ...(after ? [sql`${products.id} ${cmp} ${after.i}`] : [])];
    return selectRows(db, source, extra, sql`${products.id} ${dir}`, limit);
  }
  const extra = spec.nullable ? [sql`${spec.expr} IS NOT NULL`] : [];
  if (after) extra.push(spec.after(cmp, after.k, after.i));
  const orderBy = spec.unique ? sql`${spec.expr} ${dir}` : sql`${spec.expr} ${dir}, ${products.id} ${dir}`;
  return selectRows(db, source, extra, orderBy, limit);
}

async function listBySort(
  db: Database,
  source: Source,
  sort: SortName,
  order: Direction,
  cursor: ValueCursor | null,
  limit: number,
) {
  const spec = SORTS[sort];
  const segments: Segment[] = !spec.nullable ? ['value'] : order === 'asc' ? ['null', 'value'] : ['value', 'null'];
  const start = cursor ? Math.max(0, segments.indexOf(cursor.g)) : 0;
  const rows: ProductRow[] = [];
  for (let s = start; s < segments.length && rows.length <= limit; s++) {
    const after = cursor && s === start ? cursor : null;
    const found = await segmentRows(db, source, spec, order, segments[s]!, after, limit + 1 - rows.length);
    rows.push(...found.map((f) => f.row));
  }
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const key = last ? spec.key(last) : null;
  const next =
    rows.length > limit && last
      ? encodeProductCursor({ s: sort, o: order, g: key === null ? 'null' : 'value', k: key, i: last.id })
      : null;
  return { items, nextCursor: next };
}

async function listByRank(db: Database, source: Source, cursor: RankCursor | null, limit: number) {
  const extra = cursor ? [sql`(products_fts.rank, ${products.id}) > (${cursor.r}, ${cursor.i})`] : [];
  const rows = await selectRows(db, source, extra, sql`products_fts.rank, ${products.id}`, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next = rows.length > limit && last ? encodeProductCursor({ s: 'rank', r: last.rank, i: last.row.id }) : null;
  return { items: items.map((r) => r.row), nextCursor: next };
}

/** How many index entries match, counting no further than `cap` (all companies: it only picks a plan). */
async function countHits(db: Database, match: string, cap: number): Promise<number> {
  const [row] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${match} LIMIT ${cap})`,
  );
  return row?.n ?? 0;
}

/**
 * Master products of a catalog matching the filter, one keyset page in the requested order.
 * `rankLimit` (tests only) moves the line between a selective and a broad search.
 */
export async function listProducts(
  db: Database,
  tenant: Tenant,
  input: ProductListInput,
  options: { rankLimit?: number } = {},
) {
  const rankLimit = options.rankLimit ?? RANK_LIMIT;
  const catalog = await findCatalog(db, tenant, input.catalogId);
  const { catalogId: _catalogId, sort, order = 'asc', cursor: rawCursor, limit, ...filter } = input;
  const cursor = decodeProductCursor(rawCursor);
  const page = (result: { items: ProductRow[]; nextCursor: string | null }) => ({
    items: result.items.map((r) => productOut(r, catalog.departmentId)),
    nextCursor: result.nextCursor,
  });
  const match = filter.q !== undefined && filter.q.trim() !== '' ? ftsMatchExpression(filter.q) : null;
  if (match === null) {
    // No search (or one without searchable characters, which the filter turns into "no rows").
    const sortName = sort ?? 'sku';
    assertCursorOrder(cursor, sortName, order);
    const source = { where: productFilterWhere(tenant, catalog.id, filter), ftsMatch: null };
    return page(await listBySort(db, source, sortName, order, cursor as ValueCursor | null, limit));
  }
  const hits = await countHits(db, match, rankLimit + 1);
  if (hits === 0) return { items: [], nextCursor: null };
  const selective = hits <= rankLimit;
  const chosen = sort ?? (cursor ? cursor.s : selective ? 'rank' : 'sku');
  assertCursorOrder(cursor, chosen, order);
  const withoutQ = productFilterWhere(tenant, catalog.id, { ...filter, q: undefined });
  if (chosen === 'rank')
    return page(await listByRank(db, { where: withoutQ, ftsMatch: match }, cursor as RankCursor | null, limit));
  const source = selective
    ? { where: withoutQ, ftsMatch: match }
    : { where: productFilterWhere(tenant, catalog.id, filter), ftsMatch: null };
  return page(await listBySort(db, source, chosen, order, cursor as ValueCursor | null, limit));
}
