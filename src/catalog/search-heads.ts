import { sql, type SQL } from 'drizzle-orm';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { products } from '../db/schema';
import type { ValueCursor } from './product-cursor';
import { familyCheck, type ProductRow, selectRows, type Source } from './product-list-source';
import { ANY_LANGUAGE } from './search-scope';

/**
 * Search heads (migration 0022, docs/search.md "Broad search by name"). A broad search (every
 * word in more than RANK_LIMIT products) sorted by name used to walk the name index and check
 * each product against the search: fast while the matches are dense at the start of the order,
 * but about 35 µs per product without the word, so 35,000 of them sorting first cost 1.2 s. A
 * head is the first HEAD_SIZE masters of a catalog by name whose own document matches one
 * phrase, with its bound (the last one's name and id): the first pages of such a search read the
 * head, and only a page past the bound walks the name index from there.
 *
 * The head is built by the first search that needs it (one batch: the walk, its rows, the bound,
 * so no write slips between them) and kept exact by the FTS triggers on `products`, in the same
 * transaction as every write of a master: a master enters when its (name, id) is within the bound
 * and one of its documents (its own or a translated one, migration 0024) matches the phrase, and
 * leaves when deleted or rewritten. A head serves a search in every language and in one (each
 * product it reads is checked against the search in its scope). A catalog keeps at
 * most MAX_HEADS heads, the oldest dropped first.
 */
export const HEAD_SIZE = 1000;
const MAX_HEADS = 16;
/** The bound of a head that holds every match of its phrase (fewer than HEAD_SIZE): above every name. */
const ALL = '\u{10FFFF}';

const dialect = new SQLiteAsyncDialect();

/** Raw statements as one D1 batch (one transaction): drizzle batches only its query builders. */
function batch(db: Database, statements: SQL[]) {
  const d1 = db.$client;
  return d1.batch(
    statements.map((s) => {
      const q = dialect.sqlToQuery(s);
      return d1.prepare(q.sql).bind(...q.params);
    }),
  );
}

export interface HeadBound {
  name: string;
  productId: string;
  /** The head holds every match: nothing lies beyond the bound. */
  complete: boolean;
}

/**
 * The bound of the head of `phrase` in the catalog, built first when there is none (null if it
 * was dropped again at once). Building
 * walks the name index (products_list_name_idx) checking each master against the phrase, as the
 * search did before heads: once per phrase and catalog, not per request.
 */
export async function headBound(
  db: Database,
  catalogId: string,
  companyId: string,
  phrase: string,
  size = HEAD_SIZE,
): Promise<HeadBound | null> {
  const read = () =>
    db.all<{ name: string; product_id: string }>(
      sql`SELECT name, product_id FROM search_head_bounds WHERE catalog_id = ${catalogId} AND phrase = ${phrase}`,
    );
  let [bound] = await read();
  if (!bound) {
    const own = sql`catalog_id = ${catalogId} AND phrase = ${phrase}`;
    const last = (column: string) =>
      sql`(SELECT ${sql.raw(column)} FROM search_heads WHERE ${own} ORDER BY name DESC, product_id DESC LIMIT 1)`;
    await batch(db, [
      sql`DELETE FROM search_head_bounds WHERE catalog_id = ${catalogId} AND phrase IN (
        SELECT phrase FROM search_head_bounds WHERE catalog_id = ${catalogId} ORDER BY created_at DESC, phrase LIMIT -1 OFFSET ${MAX_HEADS - 1})`,
      // the bound first (the heads reference it); its value once the rows are in
      sql`INSERT INTO search_head_bounds (catalog_id, phrase, name, product_id) VALUES (${catalogId}, ${phrase}, ${ALL}, ${ALL})
        ON CONFLICT DO NOTHING`,
      sql`INSERT OR IGNORE INTO search_heads (catalog_id, phrase, name, product_id)
        SELECT ${catalogId}, ${phrase}, name, id FROM ${products}
        WHERE catalog_id = ${catalogId} AND company_id = ${companyId} AND parent_id IS NULL AND name IS NOT NULL
          AND ${familyCheck(phrase, ANY_LANGUAGE, sql`${products}.rowid`, sql`${products.id}`)}
        ORDER BY name COLLATE NOCASE, id LIMIT ${size}`,
      sql`UPDATE search_head_bounds SET name = ${last('name')}, product_id = ${last('product_id')}
        WHERE ${own} AND name = ${ALL} AND (SELECT count(*) FROM search_heads WHERE ${own}) >= ${size}`,
    ]);
    [bound] = await read();
  }
  // null: evicted at once by a concurrent build of other heads (the caller walks the order)
  return bound ? { name: bound.name, productId: bound.product_id, complete: bound.name === ALL } : null;
}

/**
 * Masters of the head of `phrase` after `after` (name order, ascending), each passing `where`
 * (the filter and the whole search): at most `limit`. The head is read in its key order and
 * each product looked up by id.
 */
export async function headRows(
  db: Database,
  catalogId: string,
  phrase: string,
  where: SQL,
  after: ValueCursor | null,
  limit: number,
): Promise<ProductRow[]> {
  const source: Source = {
    from: sql`search_heads h CROSS JOIN ${products} ON ${products.id} = h.product_id`,
    where: sql`h.catalog_id = ${catalogId} AND h.phrase = ${phrase} AND ${where}`,
    rank: null,
    doc: null,
    joined: true,
  };
  const extra = after && after.k !== null ? [sql`(h.name, h.product_id) > (${after.k}, ${after.i})`] : [];
  return (await selectRows(db, source, extra, sql`h.name, h.product_id`, limit)).map((r) => r.row);
}

/** The later of a cursor and a bound in name order (NOCASE, as the index compares). */
export async function laterOf(db: Database, cursor: ValueCursor | null, bound: HeadBound): Promise<ValueCursor> {
  const asBound: ValueCursor = { s: 'name', o: 'asc', g: 'value', k: bound.name, i: bound.productId };
  if (!cursor || cursor.g === 'null' || cursor.k === null) return asBound;
  const [r] = await db.all<{ later: number }>(
    sql`SELECT (${cursor.k} COLLATE NOCASE, ${cursor.i}) > (${bound.name}, ${bound.productId}) AS later`,
  );
  return r?.later ? cursor : asBound;
}
