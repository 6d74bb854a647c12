import { and, asc, desc, getTableColumns, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { decodeJsonCursor, encodeJsonCursor } from '../db/pagination';
import { products } from '../db/schema';
import { badRequest } from '../http/app-error';
import type { ProductListInput } from './catalog.schemas';
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
 * descending last, so the cursor is always "segment, value, id" and never needs an OR of ranges.
 */
type ProductRow = typeof products.$inferSelect;
type Direction = 'asc' | 'desc';
type SortName = 'sku' | 'name' | 'updatedAt';

interface SortSpec {
  /** The ORDER BY expression; indexes: products_catalog_sku_uq, products_list_name_idx, products_list_updated_idx. */
  expr: SQL;
  nullable: boolean;
  /** Unique among a catalog's products, so the value alone orders them. */
  unique: boolean;
  key: (row: ProductRow) => string | null;
}

const SORTS: Record<SortName, SortSpec> = {
  sku: { expr: sql`${products.sku}`, nullable: true, unique: true, key: (r) => r.sku },
  name: { expr: sql`${products.name} COLLATE NOCASE`, nullable: true, unique: false, key: (r) => r.name },
  updatedAt: { expr: sql`${products.updatedAt}`, nullable: false, unique: false, key: (r) => r.updatedAt },
};

type Segment = 'null' | 'value';
interface ValueCursor { s: SortName; o: Direction; g: Segment; k: string | null; i: string }
interface RankCursor { s: 'rank'; r: number; i: string }

function readCursor(cursor: string | undefined, sort: SortName | 'rank', order: Direction): ValueCursor | RankCursor | null {
  if (!cursor) return null;
  const c = decodeJsonCursor(cursor) as { s?: unknown; o?: unknown; g?: unknown; k?: unknown; i?: unknown; r?: unknown } | null;
  const bound = c && typeof c === 'object' && c.s === sort && typeof c.i === 'string';
  if (!bound) throw badRequest('cursor does not belong to this sort order; start again without cursor');
  if (sort === 'rank') {
    if (typeof c.r !== 'number') throw badRequest('cursor is not valid');
    return c as unknown as RankCursor;
  }
  if (c.o !== order) throw badRequest('cursor does not belong to this sort order; start again without cursor');
  if ((c.g !== 'null' && c.g !== 'value') || (c.g === 'value' && typeof c.k !== 'string')) throw badRequest('cursor is not valid');
  return c as unknown as ValueCursor;
}

const dirOf = (order: Direction) => (order === 'asc' ? asc : desc);

function segmentQuery(db: Database, where: SQL, spec: SortSpec, order: Direction, segment: Segment, after: ValueCursor | null, limit: number) {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  const conditions: (SQL | undefined)[] = [where];
  if (segment === 'null') {
    conditions.push(sql`${spec.expr} IS NULL`);
    if (after) conditions.push(sql`${products.id} ${cmp} ${after.i}`);
    return db.select().from(products).where(and(...conditions)).orderBy(dirOf(order)(products.id)).limit(limit);
  }
  if (spec.nullable) conditions.push(isNotNull(sql`${spec.expr}`));
  if (after) {
    if (spec.unique) conditions.push(sql`${spec.expr} ${cmp} ${after.k}`);
    else {
      // The plain bound lets SQLite seek the index; a row value under COLLATE alone does not.
      conditions.push(sql`${spec.expr} ${cmp}= ${after.k}`, sql`(${spec.expr}, ${products.id}) ${cmp} (${after.k}, ${after.i})`);
    }
  }
  const orderBy = spec.unique ? [sql`${spec.expr} ${sql.raw(order)}`] : [sql`${spec.expr} ${sql.raw(order)}`, dirOf(order)(products.id)];
  return db.select().from(products).where(and(...conditions)).orderBy(...orderBy).limit(limit);
}

async function listBySort(db: Database, where: SQL, sort: SortName, order: Direction, cursor: ValueCursor | null, limit: number) {
  const spec = SORTS[sort];
  const segments: Segment[] = !spec.nullable ? ['value'] : order === 'asc' ? ['null', 'value'] : ['value', 'null'];
  const start = cursor ? segments.indexOf(cursor.g) : 0;
  const rows: ProductRow[] = [];
  for (let s = Math.max(0, start); s < segments.length && rows.length <= limit; s++) {
    const segment = segments[s]!;
    const after = cursor && s === start ? cursor : null;
    rows.push(...(await segmentQuery(db, where, spec, order, segment, after, limit + 1 - rows.length)));
  }
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor =
    rows.length > limit && last
      ? encodeJsonCursor({ s: sort, o: order, g: spec.key(last) === null ? 'null' : 'value', k: spec.key(last), i: last.id } satisfies ValueCursor)
      : null;
  return { items, nextCursor };
}

const COLUMNS = Object.entries(getTableColumns(products)).map(([key, column]) => [key, column.name] as const);

async function listByRank(db: Database, where: SQL, match: string, cursor: RankCursor | null, limit: number) {
  const after = cursor ? sql`AND (products_fts.rank, ${products.id}) > (${cursor.r}, ${cursor.i})` : sql``;
  const raw = await db.all<Record<string, unknown>>(sql`
    SELECT ${products}.*, products_fts.rank AS search_rank FROM products_fts JOIN ${products} ON ${products}.rowid = products_fts.rowid
    WHERE products_fts MATCH ${match} AND ${where} ${after}
    ORDER BY products_fts.rank, ${products.id} LIMIT ${limit + 1}`);
  const rows = raw.map((r) => ({ row: Object.fromEntries(COLUMNS.map(([key, name]) => [key, r[name]])) as ProductRow, rank: Number(r.search_rank) }));
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last ? encodeJsonCursor({ s: 'rank', r: last.rank, i: last.row.id } satisfies RankCursor) : null;
  return { items: items.map((r) => r.row), nextCursor };
}

/** Master products of a catalog matching the filter, one keyset page in the requested order. */
export async function listProducts(db: Database, tenant: Tenant, input: ProductListInput) {
  const catalog = await findCatalog(db, tenant, input.catalogId);
  const { catalogId: _catalogId, sort, order = 'asc', cursor, limit, ...filter } = input;
  const match = filter.q !== undefined && filter.q.trim() !== '' ? ftsMatchExpression(filter.q) : null;
  if (!sort && match !== null) {
    const where = productFilterWhere(tenant, catalog.id, { ...filter, q: undefined });
    const page = await listByRank(db, where, match, readCursor(cursor, 'rank', order) as RankCursor | null, limit);
    return { items: page.items.map((r) => productOut(r, catalog.departmentId)), nextCursor: page.nextCursor };
  }
  const sortName = sort ?? 'sku';
  const where = productFilterWhere(tenant, catalog.id, filter);
  const page = await listBySort(db, where, sortName, order, readCursor(cursor, sortName, order) as ValueCursor | null, limit);
  return { items: page.items.map((r) => productOut(r, catalog.departmentId)), nextCursor: page.nextCursor };
}
