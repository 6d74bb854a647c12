import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import type { ProductListInput } from './catalog.schemas';
import {
  assertCursorOrder,
  type CompletenessCursor,
  decodeProductCursor,
  encodeProductCursor,
  type Direction,
  type MatchCursor,
  type RankCursor,
  type Segment,
  type SortName,
  type ValueCursor,
} from './product-cursor';
import {
  type FilterDriver,
  filterDrivers,
  type ProductFilterInput,
  productFilterWhere,
  walkedCategory,
} from './product-filter';
import { listedValues, resolveListAttributes } from './product-list-values';
import { listByCompleteness, resolveScoreChannel, scoresFor } from './product-list-completeness';
import { productOut } from './product-queries';
import { assertPublished, readLanguageFor } from './translations/read-language';
import { localizedProduct, translationsFor } from './translations/localized-outputs';
import {
  checkedTableSource,
  docSource,
  familyWindowRows,
  hitsSource,
  joinedSource,
  lateRow,
  matchesSearch,
  placementSource,
  type ProductRow,
  selectRows,
  type Source,
  tableSource,
} from './product-list-source';
import { findCatalog } from '../db/scope';
import { type HeadBound, headBound, headRows, laterOf } from './search-heads';
import { resolveSearchScope, type SearchScope } from './search-scope';
import { planSearch, RANK_LIMIT, type SearchPlan } from './search-plan';
import type { Caller } from '../kernel/caller';

/**
 * The product list (`GET /api/Catalog/GetProducts`, the MCP search tool, the web grid): master
 * products of one catalog, filtered by `ProductFilter`, ordered by SKU, name, last change or,
 * for a search without an explicit sort, by relevance; keyset-paginated per order (docs/search.md).
 *
 * A nullable sort column is read as two segments, each one index range: rows without a value
 * (by id) and rows with one (by value, then id). Ascending lists the empty values first,
 * descending last, so a cursor is always "segment, value, id" and never needs an OR of ranges.
 *
 * A search is planned per word (search-plan.ts): when some word matches at most RANK_LIMIT
 * index entries, those drive the query (ranked, or sorted in memory: cheap at that size). A
 * broad search (every word common) is listed in FTS index order, stopping after a page, or with
 * an explicit sort walks that order's index checking each product; ranking hundreds of
 * thousands of near-identical matches would cost a full pass for an order that says nothing.
 */
interface SortSpec {
  /** The sort column; indexes: products_catalog_sku_uq, products_list_name_idx, products_list_updated_idx. */
  column: SQLiteColumn;
  /** The order's collation, on the column in ORDER BY and on the value side of the keyset condition. */
  collate: SQL;
  nullable: boolean;
  /** Unique among a catalog's products, so the value alone orders them. */
  unique: boolean;
  key: (row: ProductRow) => string | null;
}

const SORTS: Record<SortName, SortSpec> = {
  sku: { column: products.sku, collate: sql``, nullable: true, unique: true, key: (r) => r.sku },
  name: { column: products.name, collate: sql` COLLATE NOCASE`, nullable: true, unique: false, key: (r) => r.name },
  updatedAt: { column: products.updatedAt, collate: sql``, nullable: false, unique: false, key: (r) => r.updatedAt },
};

/**
 * A column in a keyset condition. Over a joined set of products (Source.joined) it gets a unary
 * `+`, which keeps SQLite from answering the condition with the sort order's index: without
 * it SQLite looked each product of the set up by a range of that index (`sku > ?` over the
 * whole catalog) instead of by its id, 23 s for a search's second page at 1M.
 */
const keyed = (column: SQLiteColumn, source: Source) => (source.joined ? sql`+${column}` : sql`${column}`);

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
  // a category's placements in SKU order (Source.skuKeys): the placement's columns, its index's order
  const walked = spec === SORTS.sku ? source.skuKeys : undefined;
  const value = walked?.sku ?? keyed(spec.column, source);
  const id = walked?.id ?? keyed(products.id, source);
  if (segment === 'null') {
    const extra = [sql`${value}${spec.collate} IS NULL`, ...(after ? [sql`${id} ${cmp} ${after.i}`] : [])];
    return selectRows(db, source, extra, sql`${walked?.id ?? products.id} ${dir}`, limit);
  }
  const extra = spec.nullable ? [sql`${value}${spec.collate} IS NOT NULL`] : [];
  // "after (k, i)": a row value SQLite seeks in the index (the collation goes on the value side)
  if (after)
    extra.push(
      spec.unique
        ? sql`${value} ${cmp} ${after.k}`
        : sql`(${value}, ${id}) ${cmp} (${after.k}${spec.collate}, ${after.i})`,
    );
  const expr = walked?.sku ?? sql`${spec.column}${spec.collate}`;
  const orderBy = spec.unique ? sql`${expr} ${dir}` : sql`${expr} ${dir}, ${products.id} ${dir}`;
  return selectRows(db, source, extra, orderBy, limit);
}

/**
 * A joined set (at most a few thousand products, sorted in memory) in one statement for both
 * segments: `value IS NOT NULL` orders the segments (asc: empty values first), so the set is
 * read and its filter (a search check per product) evaluated once, not once per segment.
 */
function joinedRows(
  db: Database,
  source: Source,
  spec: SortSpec,
  order: Direction,
  after: ValueCursor | null,
  limit: number,
) {
  const cmp = sql.raw(order === 'asc' ? '>' : '<');
  const dir = sql.raw(order);
  const value = keyed(spec.column, source);
  const id = keyed(products.id, source);
  const has = sql`(${value}${spec.collate} IS NOT NULL)`;
  const extra: SQL[] = [];
  if (after) {
    // (segment, value, id) after the cursor's; the null segment comes first ascending, last descending
    const valueAfter = sql`(${has} AND (${value}, ${id}) ${cmp} (${after.k}${spec.collate}, ${after.i}))`;
    const nullAfter = sql`(NOT ${has} AND ${id} ${cmp} ${after.i})`;
    if (after.g === 'null') extra.push(order === 'asc' ? sql`(${nullAfter} OR ${has})` : nullAfter);
    else extra.push(order === 'asc' ? valueAfter : sql`(${valueAfter} OR NOT ${has})`);
  }
  const orderBy = sql`${has} ${dir}, ${spec.column}${spec.collate} ${dir}, ${products.id} ${dir}`;
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
  if (source.joined) rows.push(...(await joinedRows(db, source, spec, order, cursor, limit + 1)).map((f) => f.row));
  for (let s = start; !source.joined && s < segments.length && rows.length <= limit; s++) {
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
  const rank = source.rank!;
  const extra = cursor ? [sql`(${rank}, ${products.id}) > (${cursor.r}, ${cursor.i})`] : [];
  const rows = await selectRows(db, source, extra, sql`${rank}, ${products.id}`, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next = rows.length > limit && last ? encodeProductCursor({ s: 'rank', r: last.rank, i: last.row.id }) : null;
  return { items: items.map((r) => r.row), nextCursor: next };
}

/** A broad search in index order (FTS docid, the order products were indexed): stops after a page. */
async function listByDoc(db: Database, source: Source, cursor: MatchCursor | null, limit: number) {
  const doc = source.doc!;
  const extra = cursor ? [sql`${doc} > ${cursor.d}`] : [];
  // A window of 4 documents per row holds a page of families of up to 4 matching documents each
  // (a master and its 3 variants); one of 32 the larger families, whose plain walk costs the most
  // (each document checks every earlier one of its family); beyond that the walk as before.
  const after = cursor?.d ?? null;
  const windowed = source.family
    ? ((await familyWindowRows(db, source, after, limit + 1, 4)) ??
      (await familyWindowRows(db, source, after, limit + 1, 32)))
    : null;
  const rows = windowed ?? (await selectRows(db, source, extra, doc, limit + 1));
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next = rows.length > limit && last ? encodeProductCursor({ s: 'match', d: last.doc, i: last.row.id }) : null;
  return { items: items.map((r) => r.row), nextCursor: next };
}

/** What a broad search by name reads first: the head's bound and the null segment (nothing read past them yet). */
interface NameHeadStart {
  bound: HeadBound | null;
  nulls: ProductRow[];
  /** The whole table checked against the filter and search: walked past the head's bound. */
  checked: Source;
}

/**
 * The first reads of a broad search by name, sent to D1 together: the head's bound (built first
 * when there is none) and the products without a name (the null segment, walked as before),
 * which the page lists first. The caller may start this before it knows whether the search is
 * listed this way (a member's scope counted beside it) and drop it if not.
 */
async function startBroadByName(
  db: Database,
  tenant: Caller,
  catalogId: string,
  plan: SearchPlan,
  checked: Source,
  cursor: ValueCursor | null,
  limit: number,
  headSize?: number,
): Promise<NameHeadStart> {
  const nulls =
    !cursor || cursor.g === 'null'
      ? segmentRows(db, checked, SORTS.name, 'asc', 'null', cursor, limit + 1).then((rows) => rows.map((f) => f.row))
      : Promise.resolve([]);
  const [bound, nullRows] = await Promise.all([
    headBound(db, catalogId, tenant.companyId, plan.lazyCommon[0]!, headSize),
    nulls,
  ]);
  return { bound, nulls: nullRows, checked };
}

/**
 * A broad search by name, ascending (docs/search.md, "Broad search by name"): the products
 * without a name (the null segment), then the head of the search's first lazy common phrase
 * (search-heads.ts), then, only past its bound, the walk of the name index from the bound. Each
 * product read is checked against the whole filter and search. Null when the head could not be
 * had (the caller walks the order).
 */
async function listBroadByName(
  db: Database,
  catalogId: string,
  plan: SearchPlan,
  scope: SearchScope,
  where: SQL,
  cursor: ValueCursor | null,
  limit: number,
  start: NameHeadStart,
) {
  const { bound, checked } = start;
  if (!bound) return null;
  const rows: ProductRow[] = [...start.nulls];
  const after = cursor?.g === 'value' ? cursor : null;
  if (rows.length <= limit)
    rows.push(
      ...(await headRows(
        db,
        catalogId,
        plan.lazyCommon[0]!,
        sql`${where} AND ${matchesSearch(plan, scope)}`,
        after,
        limit + 1 - rows.length,
      )),
    );
  if (rows.length <= limit && !bound.complete) {
    const beyond = await laterOf(db, after, bound);
    rows.push(
      ...(await segmentRows(db, checked, SORTS.name, 'asc', 'value', beyond, limit + 1 - rows.length)).map(
        (f) => f.row,
      ),
    );
  }
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const next =
    rows.length > limit && last
      ? encodeProductCursor({ s: 'name', o: 'asc', g: last.name === null ? 'null' : 'value', k: last.name, i: last.id })
      : null;
  return { items, nextCursor: next };
}

/** A filter condition naming at most this many products drives the list (read them, sort in memory). */
const DRIVE_LIMIT = 5000;

/**
 * The few products a filter names, if it names few: when a condition of the filter that can
 * name its products (filterDrivers) names at most `driveLimit` of them, the fewest (their ids
 * and count); else null. Indexed conditions are counted first, in one statement; a scanned one
 * (the class code) only when none of those drives, read once.
 *
 * Read and sorted in memory, such a set costs a few milliseconds for thousands; the alternative,
 * walking a sort order's (or the search index's) order checking each product against the
 * filter, stops after a page when the filter is broad but walked the whole catalog for a filter
 * matching few products (a leaf category, "missing GTIN", status draft, a rare class): one to
 * three seconds at 1M products.
 */
async function drivenIds(
  db: Database,
  tenant: Caller,
  catalogId: string,
  filter: ProductFilterInput,
  driveLimit: number,
): Promise<Driven | null> {
  const drivers = filterDrivers(tenant, catalogId, filter);
  const indexed = drivers.filter((d) => !d.scan);
  const fewest = indexed.length ? await fewestIds(db, indexed, driveLimit) : null;
  if (fewest) return fewest;
  for (const { ids, none, covers } of drivers.filter((d) => d.scan)) {
    // nothing to scan for when no product at all has it (a class code no link names)
    if (none && Number((await db.all<{ n: number }>(none))[0]?.n ?? 1) === 0)
      return { ids: sql`SELECT NULL AS mid WHERE 0`, size: 0 };
    // A scanned condition is read once: counted and, if few, its ids kept (a JSON list, bound
    // to each page statement) instead of scanning again for every segment of the order.
    const [found] = await db.all<{ n: number; ids: string | null }>(
      sql`SELECT count(*) AS n, CASE WHEN count(*) <= ${driveLimit} THEN json_group_array(mid) END AS ids
        FROM (${ids} LIMIT ${driveLimit + 1})`,
    );
    const n = Number(found?.n ?? driveLimit + 1);
    if (n <= driveLimit) return { ids: sql`SELECT value AS mid FROM json_each(${found!.ids})`, size: n, covers };
  }
  return null;
}

/** The few products a filter names: their ids, how many, and the filter field those ids are exactly (FilterDriver.covers). */
interface Driven {
  ids: SQL;
  size: number;
  covers?: FilterDriver['covers'];
}

/**
 * Of these drivers, the one naming the fewest products if that is at most `limit` (each counted
 * up to limit + 1, unless its size is known: FilterDriver.size).
 */
async function fewestIds(db: Database, drivers: FilterDriver[], limit: number): Promise<Driven | null> {
  const cap = limit + 1;
  const [counts] = await db.all<Record<string, number>>(
    sql`SELECT ${sql.join(
      drivers.map((d, i) => {
        const counted = sql`(SELECT count(*) FROM (${d.ids} LIMIT ${cap}))`;
        return sql`${d.size ? sql`coalesce(${d.size}, ${counted})` : counted} AS ${sql.raw(`c${i}`)}`;
      }),
      sql`, `,
    )}`,
  );
  const sizes = drivers.map((_, i) => Number(counts?.[`c${i}`] ?? cap));
  const fewest = sizes.indexOf(Math.min(...sizes));
  const { ids, covers } = drivers[fewest]!;
  return sizes[fewest]! <= limit ? { ids, size: sizes[fewest]!, covers } : null;
}

/**
 * Whether a search will read the filter's few products (drivenIds), known before the catalog is:
 * a broad search in any order but relevance does. Not known for a broad search continuing a
 * cursor without `sort` (the cursor names the order): that one counts once the cursor is read.
 */
function wantsDriven(plan: SearchPlan | null, sort: string | undefined, rawCursor: string | undefined) {
  return plan !== null && !plan.selective && (sort !== undefined || rawCursor === undefined);
}

/** One page of a list and the cursor of the next. */
interface ListPage {
  items: ProductRow[];
  nextCursor: string | null;
}

/**
 * A list without a search in a column's order, started before the catalog is known: null when
 * its cursor is not valid for that order (the list then refuses it after the catalog's check,
 * so an unknown catalog stays a 404 whatever the cursor).
 */
function columnPageEarly(
  rawCursor: string | undefined,
  sort: SortName,
  order: Direction,
  unsearched: (paged: (source: Source) => Promise<ListPage>) => Promise<ListPage>,
  paged: (source: Source, cursor: ValueCursor | null) => Promise<ListPage>,
): Promise<ListPage> | null {
  let cursor: ValueCursor | null;
  try {
    cursor = decodeProductCursor(rawCursor) as ValueCursor | null;
    assertCursorOrder(cursor, sort, order);
  } catch {
    return null;
  }
  return unsearched((source) => paged(source, cursor));
}

/**
 * Member scopes last found to name few products, per isolate: key → when that stops counting
 * (`largeScopeCondition`). A hint only: which plan a list tries first, never what it lists.
 */
const fewScopes = new Map<string, number>();
const FEW_SCOPE_MS = 60_000;

function rememberScopeSize(key: string, few: boolean) {
  if (!few) fewScopes.delete(key);
  else {
    if (fewScopes.size >= 1000) fewScopes.clear();
    fewScopes.set(key, Date.now() + FEW_SCOPE_MS);
  }
}

/**
 * When a member's category scope is the only thing that could drive a list (docs/teams.md
 * "Scoped lists"): `when`, a condition constant for the statement (SQLite tests it once,
 * before reading a row) that the scope's kept counters name more products than the drive limit.
 * A large scope's page is the order walked with the scope's condition per product, as when the
 * counting found it large; `first` says to read that page at once, guarded by `when`, instead of
 * counting first: one round trip fewer for a large scope. A small scope (or one whose counters
 * are being made again) makes `when` false: nothing is read, and the list counts and reads the
 * scope's products as before. An empty guarded page may also be the end of a large scope's list;
 * the count then finds it large and the walk is read again, empty. A scope the count found small
 * within the last minute skips the guarded page (`first` false) until the hint expires or a count
 * finds it large. Null for a list whose filter names anything that could drive it, or for a
 * member not limited to subtrees of this catalog.
 */
function largeScopeCondition(tenant: Caller, catalogId: string, filter: ProductFilterInput, driveLimit: number) {
  const drivers = filterDrivers(tenant, catalogId, filter);
  const scope = drivers.length === 1 && drivers[0]!.memberScope ? drivers[0]! : null;
  if (!scope?.size) return null;
  const key = `${tenant.companyId} ${catalogId} ${[...(tenant.productScope?.categoryIds ?? [])].sort().join(',')} ${driveLimit}`;
  const until = fewScopes.get(key);
  if (until !== undefined && until <= Date.now()) fewScopes.delete(key);
  return { key, first: !(until !== undefined && until > Date.now()), when: sql`${scope.size} > ${driveLimit}` };
}

/** The filter without the condition the driving ids already are (FilterDriver.covers): one EXISTS per product less. */
const uncovered = (filter: ProductFilterInput, driven: Driven): ProductFilterInput =>
  driven.covers ? { ...filter, [driven.covers]: undefined } : filter;

/**
 * Master products of a catalog matching the filter, one keyset page in the requested order.
 * `rankLimit` and `driveLimit` (tests only) move the lines between a selective and a broad
 * search, and between a filter read from its index and one checked along the sort order;
 * `headSize` (tests only) is the size of a search head built by this call (search-heads.ts);
 * `placements: false` (tests only) lists a category in SKU order as the other orders are, not
 * from its placements (placementSource).
 */
export async function listProducts(
  db: Database,
  tenant: Caller,
  input: ProductListInput,
  options: { rankLimit?: number; driveLimit?: number; headSize?: number; placements?: boolean } = {},
) {
  const rankLimit = options.rankLimit ?? RANK_LIMIT;
  const hasQ = input.q !== undefined && input.q.trim() !== '';
  // The search plan reads only the index's word counts: it goes to D1 beside the catalog's lookup, not after it.
  const planning = hasQ ? planSearch(db, input.q!, rankLimit) : Promise.resolve(null);
  planning.catch(() => undefined); // awaited below; an unknown catalog must not leave it unhandled
  const {
    catalogId,
    sort,
    order = 'asc',
    cursor: rawCursor,
    limit,
    attributes: codes,
    language,
    languages,
    completenessChannel,
    ...filter
  } = input;
  const driveLimit = options.driveLimit ?? DRIVE_LIMIT;
  const largeScope = largeScopeCondition(tenant, catalogId, filter, driveLimit);
  /** The few products the filter names (drivenIds), `empty` when it names none. */
  const countDriven = async () => {
    const found = await drivenIds(db, tenant, catalogId, filter, driveLimit);
    if (largeScope) rememberScopeSize(largeScope.key, found !== null);
    return found?.size === 0 ? ('empty' as const) : found;
  };
  const none = { items: [], nextCursor: null };
  const walked = walkedCategory(tenant, catalogId, filter);
  /**
   * A category's placements in SKU order (placementSource) when the list is in SKU order and the
   * category is what names the fewest products (or nothing names few): `also` is checked on
   * each product walked (a broad search), the rest of the filter with it.
   */
  const placementWalk = (by: string, few: Driven | null, also?: SQL) => {
    if (!walked || options.placements === false || by !== 'sku' || (few && few.covers !== 'categoryId')) return null;
    const where = productFilterWhere(tenant, catalogId, { ...filter, categoryId: undefined, q: undefined });
    return placementSource(walked, also ? sql`${where} AND ${also}` : where);
  };
  /** A list without a search in `by` order: a category walked, the filter's few products if it names few, else the whole filtered table, paged by `paged`. */
  const unsearched = async (by: string, paged: (source: Source) => Promise<ListPage>): Promise<ListPage> => {
    if (largeScope?.first) {
      const first = await paged({
        ...tableSource(productFilterWhere(tenant, catalogId, filter)),
        readIf: largeScope.when,
      });
      if (first.items.length > 0) return first;
    }
    const few = await countDriven();
    if (few === 'empty') return none;
    const source =
      placementWalk(by, few) ??
      (few
        ? joinedSource(few.ids, productFilterWhere(tenant, catalogId, uncovered(filter, few)))
        : tableSource(productFilterWhere(tenant, catalogId, filter)));
    return paged(source);
  };
  // What the list will read first goes to D1 beside the catalog's lookup: its statements name
  // the company and the catalog id, nothing read from the catalog's row. Without a search, the
  // whole page in a column's order; with a broad one, the filter's count (wantsDriven). An
  // unknown catalog or a refused input still answers 404 / 400, these left unread.
  const earlyPage =
    hasQ || sort === 'completeness'
      ? null
      : columnPageEarly(
          rawCursor,
          sort ?? 'sku',
          order,
          (paged) => unsearched(sort ?? 'sku', paged),
          (source, cursor) => listBySort(db, source, sort ?? 'sku', order, cursor, limit),
        );
  earlyPage?.catch(() => undefined);
  const earlyCount = planning.then((plan) =>
    wantsDriven(plan, sort, rawCursor) && !largeScope?.first ? countDriven().then((few) => ({ few })) : null,
  );
  earlyCount.catch(() => undefined);
  const catalog = await findCatalog(db, tenant, catalogId);
  const scope = await resolveSearchScope(db, tenant, catalog, filter.searchLanguage);
  const read = await readLanguageFor(db, tenant, catalog, { language, languages });
  if (filter.missingTranslation)
    await assertPublished(db, tenant, catalog, filter.missingTranslation, 'missingTranslation');
  const cursor = decodeProductCursor(rawCursor);
  const chosen = codes?.length ? await resolveListAttributes(db, tenant, codes) : null;
  // a search without `sort` continues in its cursor's order: a score cursor needs its channel too
  const byScore = (sort ?? (filter.q?.trim() ? cursor?.s : undefined)) === 'completeness';
  const channel = await resolveScoreChannel(db, tenant, { ...filter, completenessChannel }, byScore);
  /** A page in `by` order from `source`: by score through product-list-completeness.ts, else by column. */
  const sorted = (source: Source, by: SortName | 'completeness') =>
    by === 'completeness'
      ? listByCompleteness(db, source, channel!, order, cursor as CompletenessCursor | null, limit)
      : listBySort(db, source, by, order, cursor as ValueCursor | null, limit);
  const page = async (result: ListPage) => {
    const ids = result.items.map((r) => r.id);
    // The page's scores, its texts in the asked language (one read of its translations,
    // docs/languages.md) and its listed values: independent reads, sent to D1 together.
    const [scores, stored, values] = await Promise.all([
      channel ? scoresFor(db, channel, ids) : null,
      translationsFor(db, read, ids),
      chosen ? listedValues(db, tenant, ids, chosen) : null,
    ]);
    const withScores = <T extends { productId: string }>(items: T[]) =>
      scores ? items.map((p) => ({ ...p, completeness: scores.get(p.productId) ?? null })) : items;
    const items = result.items.map((r) =>
      localizedProduct(read, productOut(r, catalog.departmentId), stored.get(r.id)),
    );
    if (!values) return { items: withScores(items), nextCursor: result.nextCursor };
    return {
      items: withScores(items.map((p) => ({ ...p, values: values.get(p.productId) ?? [] }))),
      nextCursor: result.nextCursor,
    };
  };
  const plan = await planning;
  if (plan === null) {
    // No search, or one that cannot match (the filter turns a q without searchable characters into "no rows").
    if (hasQ) return none;
    const sortName = sort ?? 'sku';
    assertCursorOrder(cursor, sortName, order);
    return page(await (earlyPage ?? unsearched(sortName, (source) => sorted(source, sortName))));
  }
  const by = sort ?? (cursor ? cursor.s : plan.selective ? 'rank' : 'match');
  assertCursorOrder(cursor, by, order);
  const where = productFilterWhere(tenant, catalog.id, { ...filter, q: undefined });
  /** A broad search by name ascending reads its head (listBroadByName); its first reads start once (`headStart`). */
  const headed = !plan.selective && by === 'name' && order === 'asc' && plan.lazyCommon.length > 0;
  let started: Promise<NameHeadStart> | undefined;
  const headStart = () =>
    (started ??= startBroadByName(
      db,
      tenant,
      catalog.id,
      plan,
      checkedTableSource(plan, where, scope),
      cursor as ValueCursor | null,
      limit,
      options.headSize,
    ));
  /**
   * The search's page of the products matching `where`, walked in `by` order (or ranked); with
   * `readIf`, only while that holds (Source.readIf; a broad search by name, whose head is read
   * apart from the source, then reads nothing).
   */
  const searched = async (readIf?: SQL): Promise<ListPage> => {
    const guarded = (source: Source): Source => (readIf ? { ...source, readIf } : source);
    if (by === 'match')
      return listByDoc(db, guarded(docSource(plan, where, scope)), cursor as MatchCursor | null, limit);
    if (headed) {
      if (readIf) return none;
      const listed = await listBroadByName(
        db,
        catalog.id,
        plan,
        scope,
        where,
        cursor as ValueCursor | null,
        limit,
        await headStart(),
      );
      if (listed) return listed;
    }
    // A ranked cursor of a search that has since become broad ranks every match: correct, slower.
    const hits = hitsSource(plan.selective ? plan : { match: plan.all, narrowing: null }, catalog.id, where, scope);
    if (by === 'rank') return listByRank(db, guarded(hits), cursor as RankCursor | null, limit);
    return sorted(guarded(plan.selective ? hits : checkedTableSource(plan, where, scope)), by);
  };
  if (!plan.selective && by !== 'rank') {
    // A large member scope is counted below before a broad search by name reads its head: the
    // head's first reads go to D1 beside that count (dropped when the scope turns out few).
    if (headed && largeScope?.first) headStart().catch(() => undefined);
    if (largeScope?.first) {
      const first = await searched(largeScope.when);
      if (first.items.length > 0) return page(first);
    }
    // A broad search (every word common) and a filter naming few products: those, each checked
    // against the search, in the same orders (index order is the FTS docid, the product's rowid).
    const counted = await earlyCount;
    const few = counted ? counted.few : await countDriven();
    if (few === 'empty') return none;
    // a category in SKU order: its placements walked, each product checked against the search
    const walk = placementWalk(by, few || null, matchesSearch(plan, scope));
    if (walk) return page(await sorted(walk, 'sku'));
    if (few) {
      // the set sorted first, each product checked in order until the page is full (Source.late)
      const late = matchesSearch(plan, scope, lateRow.rowid, lateRow.id);
      const fewWhere = productFilterWhere(tenant, catalog.id, { ...uncovered(filter, few), q: undefined });
      const source = joinedSource(few.ids, fewWhere, sql`${products}.rowid`, late);
      if (by === 'match') return page(await listByDoc(db, source, cursor as MatchCursor | null, limit));
      return page(await sorted(source, by));
    }
  }
  return page(await searched());
}
