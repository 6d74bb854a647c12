import { sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { BatchStatement, Database } from '../../../db/client';
import { searchHeads, searchIndexDefer } from '../../../db/schema';

/**
 * The FTS5 table (migration 0004, external content) as drizzle sees it for an INSERT ... SELECT
 * in a batch; not in schema.ts, whose tables drizzle-kit would create.
 */
const productsFts = sqliteTable('products_fts', {
  rowid: integer('rowid'),
  sku: text('sku'),
  name: text('name'),
  manufacturerPid: text('manufacturer_pid'),
  gtin: text('gtin'),
  keywords: text('keywords'),
});

/**
 * Whether one document of master `p`'s family (its own, its variants', in any language) matches
 * head `b`'s phrase: the family check of `products_fts_insert` (migrations 0057, 0093), unchanged.
 */
const familyMatches = sql.raw(`EXISTS (SELECT 1 FROM products v WHERE (v.rowid = p.rowid OR v.parent_id = p.id)
  AND (EXISTS (SELECT 1 FROM products_fts c WHERE c.products_fts MATCH b.phrase AND c.rowid = v.rowid)
    OR EXISTS (SELECT 1 FROM translations t CROSS JOIN products_fts c WHERE t.element_id = v.id
      AND t.field IN ('name', 'keywords') AND t.lang GLOB '[a-z][a-z][a-z]'
      AND c.products_fts MATCH b.phrase AND c.rowid = (((unicode(substr(t.lang, 1, 1)) - 96) * 1024 + (unicode(substr(t.lang, 2, 1)) - 96) * 32 + (unicode(substr(t.lang, 3, 1)) - 96)) * 68719476736 + v.rowid))))`);

/**
 * Multi-row INSERTs of products (`inserts`, the rows `ids`) with the search index kept
 * set-based instead of by `products_fts_insert` per row (migration 0093, docs/search.md "Bulk
 * inserts"). The statements go in the caller's D1 batch (one transaction) in this order:
 *
 * 1. a row in `search_index_defer`, so the trigger does not fire for `inserts`;
 * 2. `inserts`, then the row removed again (later statements of the batch index as before);
 * 3. the rows' documents into `products_fts`, in one statement: what the trigger inserts per row;
 * 4. the search heads of their masters (the new masters and the existing masters of new
 *    variants) recomputed: their entries removed and inserted for every phrase of their
 *    catalog's heads whose bound they are within and one document of their family matches. Per
 *    master that is what the trigger's last firing for it leaves (each firing of a variant
 *    recomputes its master the same way, and a new master has no entries before), so the heads
 *    equal the trigger path's; a catalog without heads costs an empty index probe per master.
 *
 * Nothing between 2 and 4 reads the index, and everything after reads it complete.
 */
export function insertsIndexedOnce(db: Database, inserts: BatchStatement[], ids: readonly string[]): BatchStatement[] {
  if (inserts.length === 0) return [];
  const list = JSON.stringify(ids);
  const masters = sql`SELECT coalesce(parent_id, id) FROM products WHERE id IN (SELECT value FROM json_each(${list}))`;
  return [
    db.insert(searchIndexDefer).values({ id: 1 }),
    ...inserts,
    db.delete(searchIndexDefer),
    db.insert(productsFts).select(
      sql`SELECT rowid, sku, name, manufacturer_pid, gtin, keywords FROM products
        WHERE id IN (SELECT value FROM json_each(${list}))`,
    ),
    db.delete(searchHeads).where(
      sql`(catalog_id, name, product_id) IN (SELECT catalog_id, name, id FROM products WHERE id IN (${masters}) AND parent_id IS NULL)
          AND phrase IN (SELECT b.phrase FROM search_head_bounds b WHERE b.catalog_id = search_heads.catalog_id)`,
    ),
    db.insert(searchHeads).select(
      sql`SELECT b.catalog_id, b.phrase, p.name, p.id FROM products p CROSS JOIN search_head_bounds b
        WHERE p.id IN (${masters}) AND p.parent_id IS NULL AND p.name IS NOT NULL AND b.catalog_id = p.catalog_id
          AND (p.name COLLATE NOCASE, p.id) <= (b.name, b.product_id) AND ${familyMatches}`,
    ),
  ];
}
