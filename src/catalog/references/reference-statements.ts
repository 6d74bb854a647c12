import { sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jsonInsert } from '../../db/json-rows';
import { productReferences } from '../../db/schema';
import type { StoredReference } from './reference-rules';

/**
 * The one home of reference resolution (docs/data-model.md "Product references"): a reference
 * names a target SKU of its own catalog; `target_product_id` is the product with that SKU, or
 * NULL (pending). Every write that can change which product a SKU names puts `resolveStatement`
 * into its own batch: creating products (AddProduct, upserts, imports) and changing a SKU. A
 * deleted target is handled by the foreign key (ON DELETE SET NULL): the reference waits again.
 */

/** At most this many SKUs or rows travel in one JSON parameter (bounded statement size). */
const PER_STATEMENT = 500;

const chunks = <T>(list: readonly T[]) =>
  Array.from({ length: Math.ceil(list.length / PER_STATEMENT) }, (_, i) =>
    list.slice(i * PER_STATEMENT, (i + 1) * PER_STATEMENT),
  );

/**
 * Re-resolves, in `catalogId`, the pending references to any of `skus` and the resolved ones
 * pointing at any of `formerTargetIds` (products whose SKU changed): each gets the product that
 * has its target SKU now, or NULL. Both halves use an index (pending by catalog and SKU,
 * resolved by target id), so it costs the references it touches, not the catalog.
 */
export function resolveStatements(
  db: Database,
  catalogId: string,
  skus: readonly (string | null | undefined)[],
  formerTargetIds: readonly string[] = [],
): BatchStatement[] {
  const named = [...new Set(skus.filter((s): s is string => typeof s === 'string' && s !== ''))];
  const out: BatchStatement[] = [];
  const target = sql`(SELECT p.id FROM products p WHERE p.catalog_id = ${productReferences.catalogId} AND p.sku = ${productReferences.targetSku})`;
  for (const part of chunks(named))
    out.push(
      db
        .update(productReferences)
        .set({ targetProductId: target })
        .where(
          sql`${productReferences.catalogId} = ${catalogId} AND ${productReferences.targetProductId} IS NULL AND ${productReferences.targetSku} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
        ),
    );
  for (const part of chunks([...new Set(formerTargetIds)]))
    out.push(
      db
        .update(productReferences)
        .set({ targetProductId: target })
        .where(sql`${productReferences.targetProductId} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`),
    );
  return out;
}

/** Rows of `insertStatements`: the source product and its list, in order. */
export interface ReferenceRows {
  productId: string;
  references: readonly StoredReference[];
}

/**
 * Inserts the lists of products of one catalog (their old rows deleted first by the caller, or
 * new products), each target resolved in the same statement. Put it after the products' own
 * inserts so that a reference to a product created in the same batch resolves.
 */
export function insertStatements(db: Database, catalogId: string, lists: readonly ReferenceRows[]): BatchStatement[] {
  const rows = lists.flatMap((l) =>
    l.references.map((r, position) => ({
      productId: l.productId,
      position,
      catalogId,
      type: r.type,
      targetSku: r.targetSku,
      // Carries the SKU into the statement, where `columnSql` turns it into the product it names.
      targetProductId: r.targetSku,
      quantity: r.quantity,
      descr: r.descr ?? null,
      targetCatalog: r.targetCatalog ?? null,
      targetCatalogVersion: r.targetCatalogVersion ?? null,
    })),
  );
  return jsonInsert(db, productReferences, rows, {
    columnSql: {
      targetProductId: (sku) => sql`(SELECT p.id FROM products p WHERE p.catalog_id = ${catalogId} AND p.sku = ${sku})`,
    },
  });
}

/** Deletes the outgoing lists of `productIds` (before `insertStatements` replaces them). */
export function deleteStatements(db: Database, productIds: readonly string[]): BatchStatement[] {
  return chunks([...new Set(productIds)]).map((part) =>
    db
      .delete(productReferences)
      .where(sql`${productReferences.productId} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`),
  );
}
