import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { ProductAggregate, ProductNode } from '../model/product-aggregate';
import { dbNow } from '../kernel/clock';
import type { BatchStatement, Database } from '../db/client';
import { products } from '../db/schema';
import type { CategoryPaths } from './category-paths';
import { fingerprintOf, syncRecord } from './sync-record';
import { compareBinary } from '../kernel/compare-binary';

/** Puts a node's lists in the order loadProductAggregates reads them (SQLite's BINARY order). */
function sortNode(node: ProductNode): void {
  node.values.sort((a, b) => compareBinary(a.code, b.code));
  if (node.classification) {
    node.classification.classes.sort((a, b) => compareBinary(a.group, b.group));
    node.classification.features.sort((a, b) => compareBinary(a.group, b.group) || compareBinary(a.code, b.code));
  }
}

/**
 * The master's aggregate as it will be after a write that changes the node `nodeId` (the master
 * or one of its variants) with `change` and, when given, places the master in `categoryIds`:
 * what loadProductAggregates would read after the batch, so its fingerprint can be stored in
 * the same batch (test/history-concurrency.test.ts compares it with a fresh computation).
 */
export function aggregateAfter(
  aggregate: ProductAggregate,
  nodeId: string,
  change: (node: ProductNode) => void,
  categoryIds?: string[],
): ProductAggregate {
  const next = structuredClone(aggregate);
  const node = next.product.id === nodeId ? next : next.variants.find((v) => v.product.id === nodeId);
  if (!node) throw new Error(`aggregateAfter: ${nodeId} is not part of master ${aggregate.product.id}`);
  change(node);
  sortNode(node);
  if (categoryIds) next.categoryIds = [...new Set(categoryIds)].sort(compareBinary);
  next.variants.sort(
    (a, b) => compareBinary(a.product.sku, b.product.sku) || compareBinary(a.product.id, b.product.id),
  );
  return next;
}

/** The fingerprint of an aggregate whose category paths `paths` holds (read in the same round trip). */
export function fingerprintWith(aggregate: ProductAggregate, paths: CategoryPaths): Promise<string> {
  return fingerprintOf(syncRecord(aggregate, paths));
}

/** The guard condition of a write planned from a master at `revision` (write-guard.ts). */
export function revisionIs(companyId: string, masterId: string, revision: number): SQL {
  return sql`EXISTS (SELECT 1 FROM ${products} WHERE ${and(
    eq(products.id, masterId),
    eq(products.companyId, companyId),
    eq(products.revision, revision),
  )})`;
}

/**
 * Moves the master from `revision` to the next one and stores the fingerprint of its record
 * after the write, in the write's own batch. Only correct behind `revisionIs(..., revision)`:
 * the guard is what makes the fingerprint the record's.
 */
export function bumpWithFingerprint(
  db: Database,
  masterId: string,
  revision: number,
  fingerprint: string,
): BatchStatement {
  return db
    .update(products)
    .set({ revision: revision + 1, fingerprint, fingerprintRevision: revision + 1, updatedAt: dbNow })
    .where(eq(products.id, masterId));
}

/**
 * The bump of a write that is not guarded on `revision` (SetValue's contended path): the
 * revision always moves; the fingerprint is stored only when the revision is still the one it
 * was computed from (SET sees the old row), else the master is left stale
 * (`fingerprintRevision < revision`) and the caller refreshes it after the batch. Returns both.
 */
export function bumpWithFingerprintIf(db: Database, masterId: string, revision: number, fingerprint: string) {
  const matches = sql`${products.revision} = ${revision}`;
  return db
    .update(products)
    .set({
      fingerprint: sql`CASE WHEN ${matches} THEN ${fingerprint} ELSE ${products.fingerprint} END`,
      fingerprintRevision: sql`CASE WHEN ${matches} THEN ${revision + 1} ELSE ${products.fingerprintRevision} END`,
      revision: sql`${products.revision} + 1`,
      updatedAt: dbNow,
    })
    .where(eq(products.id, masterId))
    .returning({ revision: products.revision, fingerprintRevision: products.fingerprintRevision });
}
