import { type SQLWrapper, sql } from 'drizzle-orm';
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
 *
 * A reference with `target_kind` 'mpn' (an ETIM xChange ProductRelation, migration 0070) names
 * its target by manufacturer product number instead: it resolves to the one product of its
 * catalog whose manufacturer_pid that is (`mpnTarget`); writes that create products or change a
 * manufacturer number pass the numbers as `mpns`.
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
  mpns: readonly (string | null | undefined)[] = [],
): BatchStatement[] {
  const named = distinct(skus);
  const out: BatchStatement[] = [];
  const bySku = skuTarget(productReferences.catalogId, productReferences.targetSku);
  // The target of either kind: a pending reference by number whose number is a new SKU (the
  // fallback of mpnTarget) is re-resolved here too, on the same index as before.
  const either = sql`CASE WHEN ${productReferences.targetKind} = 'mpn' THEN ${mpnTarget(productReferences.catalogId, productReferences.targetSku)} ELSE ${bySku} END`;
  for (const part of chunks(named))
    out.push(
      db
        .update(productReferences)
        .set({ targetProductId: either })
        .where(
          sql`${productReferences.catalogId} = ${catalogId} AND ${productReferences.targetProductId} IS NULL AND ${productReferences.targetSku} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
        ),
    );
  for (const part of chunks([...new Set(formerTargetIds)]))
    out.push(
      db
        .update(productReferences)
        .set({ targetProductId: either })
        .where(sql`${productReferences.targetProductId} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`),
    );
  // Pending and resolved alike (product_references_mpn_idx): a second product with the number
  // makes a resolved reference ambiguous, so it waits again.
  for (const part of chunks(distinct(mpns)))
    out.push(
      db
        .update(productReferences)
        .set({ targetProductId: mpnTarget(productReferences.catalogId, productReferences.targetSku) })
        .where(
          sql`${productReferences.catalogId} = ${catalogId} AND ${productReferences.targetKind} = 'mpn' AND ${productReferences.targetSku} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`,
        ),
    );
  return out;
}

const distinct = (values: readonly (string | null | undefined)[]) => [
  ...new Set(values.filter((s): s is string => typeof s === 'string' && s !== '')),
];

const skuTarget = (catalogId: SQLWrapper | string, sku: SQLWrapper) =>
  sql`(SELECT p.id FROM products p WHERE p.catalog_id = ${catalogId} AND p.sku = ${sku})`;

/**
 * The product a manufacturer number names in a catalog: the one master with it; else, when no
 * master has it, the one variant with it; else, when no product has it at all, the product whose
 * SKU it is (an xChange export writes the item number as the required manufacturer number of a
 * product without one, and the import keeps no manufacturer number equal to the SKU); else none:
 * several masters (or several variants) share it, and the reference stays pending as ambiguous.
 * One scan of products_catalog_mpn_idx (and one lookup of products_catalog_sku_uq).
 */
const mpnTarget = (catalogId: SQLWrapper | string, mpn: SQLWrapper) =>
  sql`(SELECT CASE WHEN count(*) = 0 THEN ${skuTarget(catalogId, mpn)} WHEN sum(p.parent_id IS NULL) = 1 THEN max(CASE WHEN p.parent_id IS NULL THEN p.id END) WHEN sum(p.parent_id IS NULL) = 0 AND count(*) = 1 THEN max(p.id) END FROM products p WHERE p.catalog_id = ${catalogId} AND p.manufacturer_pid = ${mpn})`;

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
      targetKind: r.targetKind === 'mpn' ? ('mpn' as const) : ('sku' as const),
      // Carries the SKU into the statement, where `columnSql` turns it into the product it names.
      targetProductId: r.targetSku,
      quantity: r.quantity,
      descr: r.descr ?? null,
      targetCatalog: r.targetCatalog ?? null,
      targetCatalogVersion: r.targetCatalogVersion ?? null,
    })),
  );
  const bySku = rows.filter((r) => r.targetKind === 'sku');
  const byMpn = rows.filter((r) => r.targetKind === 'mpn');
  return [
    ...jsonInsert(db, productReferences, bySku, {
      columnSql: { targetProductId: (sku) => skuTarget(catalogId, sku) },
    }),
    ...jsonInsert(db, productReferences, byMpn, {
      columnSql: { targetProductId: (mpn) => mpnTarget(catalogId, mpn) },
    }),
  ];
}

/** Deletes the outgoing lists of `productIds` (before `insertStatements` replaces them). */
export function deleteStatements(db: Database, productIds: readonly string[]): BatchStatement[] {
  return chunks([...new Set(productIds)]).map((part) =>
    db
      .delete(productReferences)
      .where(sql`${productReferences.productId} IN (SELECT value FROM json_each(${JSON.stringify(part)}))`),
  );
}
