import { and, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { BatchStatement } from '../../db/client';
import { jsonInsert, jsonList } from '../../db/json-rows';
import { importSkus, products } from '../../db/schema';
import { productDeleteStatements } from '../../catalog/products';
import type { BatchScope, PendingProduct } from '../records/batch-types';
import type { Rejection } from '../report/import-report';
import { DRY_RUN_PREFIX, productsBySku } from './import-staging';
import { productsInScope } from '../../db/product-scope';
import { OUTSIDE_SCOPE } from '../../catalog/upsert/upsert-products';

/**
 * Products of a batch whose SKU an earlier product of the file already had (in this batch or
 * in an earlier one: import_skus), rejected; and the statements that remember the others'
 * SKUs, committed with the batch (a retried batch remembers nothing twice).
 */
export async function duplicateSkus(
  scope: BatchScope,
  batch: PendingProduct[],
): Promise<{ rejections: Map<PendingProduct, Rejection>; remember: BatchStatement[] }> {
  const { db } = scope;
  const skus = [...new Set(batch.map((p) => p.sku))];
  const seen = new Map<string, string>();
  if (skus.length > 0)
    for (const row of await db
      .select({ sku: importSkus.sku, location: importSkus.location })
      .from(importSkus)
      .where(and(eq(importSkus.jobId, scope.jobId), sql`${importSkus.sku} IN ${jsonList(skus)}`)))
      seen.set(row.sku, row.location);
  const rejections = new Map<PendingProduct, Rejection>();
  const fresh: (typeof importSkus.$inferInsert)[] = [];
  for (const p of batch) {
    const first = seen.get(p.sku);
    if (first !== undefined) {
      rejections.set(p, {
        seq: p.seq,
        sku: p.sku,
        location: p.location,
        code: 'sku_duplicate',
        reason: `SKU ${p.sku} is in the file twice (first at ${first}); this product is not read`,
      });
      continue;
    }
    seen.set(p.sku, p.location);
    fresh.push({ jobId: scope.jobId, sku: p.sku, seq: p.seq, location: p.location });
  }
  return { rejections, remember: jsonInsert(db, importSkus, fresh, { orIgnore: true }) };
}

const notInCatalog = (p: PendingProduct, what: string): Rejection => ({
  seq: p.seq,
  sku: p.sku,
  location: p.location,
  code: 'not_in_catalog',
  reason: `no product with SKU ${p.sku} in the catalog to ${what}`,
});

/**
 * A row of a member limited to category subtrees that names a product outside them, or one that
 * does not exist: one answer for both, so the report never tells whether a SKU outside exists.
 */
export const outsideScope = (p: PendingProduct): Rejection => ({
  seq: p.seq,
  sku: p.sku,
  location: p.location,
  code: 'outside_scope',
  reason: OUTSIDE_SCOPE,
});

/**
 * T_UPDATE_PRICES products (and every product of a texts-only import, `what` it does): only those in the catalog (or counted as created earlier by this
 * dry run) are updated; a variant's record names its master, as the upsert expects.
 */
export async function priceUpdates(
  scope: BatchScope,
  batch: PendingProduct[],
  what = 'update its price (T_UPDATE_PRICES updates, never creates)',
): Promise<{ ready: PendingProduct[]; rejections: Rejection[] }> {
  const found = await productsBySku(scope.db, scope, [...new Set(batch.map((p) => p.sku))]);
  const child = alias(products, 'child');
  const variantIds = [...found.values()].filter((f) => f.isVariant && !f.id.startsWith('dry-run:')).map((f) => f.id);
  const masterSku = new Map<string, string | null>();
  if (variantIds.length > 0)
    for (const row of await scope.db
      .select({ sku: child.sku, masterSku: products.sku })
      .from(child)
      .innerJoin(products, eq(products.id, child.parentId))
      .where(inArray(child.id, variantIds)))
      masterSku.set(row.sku!, row.masterSku);
  const ready: PendingProduct[] = [];
  const rejections: Rejection[] = [];
  for (const p of batch) {
    const row = found.get(p.sku);
    // a scoped member's product outside is then judged by the upsert, with the same answer
    if (!row) rejections.push(scope.scopeCategoryIds ? outsideScope(p) : notInCatalog(p, what));
    else ready.push({ ...p, record: { ...p.record, parentSku: masterSku.get(p.sku) ?? null } });
  }
  return { ready, rejections };
}

/**
 * T_UPDATE_PRODUCTS mode="delete": each product in the catalog is deleted with its variants,
 * as DeleteProduct does (history entries included); the statements join the batch's
 * transaction, the media keys are deleted after it commits. A dry run only counts them.
 */
export async function deletions(
  scope: BatchScope,
  batch: PendingProduct[],
): Promise<{
  statements: BatchStatement[];
  fileKeys: string[];
  mastersTouched: string[];
  deleted: number;
  rejections: Rejection[];
}> {
  const found = await productsBySku(scope.db, scope, [...new Set(batch.map((p) => p.sku))]);
  const out = {
    statements: [] as BatchStatement[],
    fileKeys: [] as string[],
    mastersTouched: [] as string[],
    deleted: 0,
    rejections: [] as Rejection[],
  };
  // a member limited to subtrees deletes only products in them (as stored; one created earlier by this dry run is)
  const ids = [...found.values()].flatMap((f) => (f.id.startsWith(DRY_RUN_PREFIX) ? [] : [f.id]));
  const inScope = scope.scopeCategoryIds
    ? await productsInScope(scope.db, { catalogIds: [], categoryIds: scope.scopeCategoryIds }, scope.companyId, ids)
    : null;
  const done = new Set<string>();
  for (const p of batch) {
    const row = found.get(p.sku);
    if (inScope && !(row && (row.id.startsWith(DRY_RUN_PREFIX) || inScope.has(row.id)))) {
      out.rejections.push(outsideScope(p));
      continue;
    }
    if (!row) {
      out.rejections.push(notInCatalog(p, 'delete'));
      continue;
    }
    if (done.has(row.id)) continue;
    done.add(row.id);
    out.deleted++;
    if (scope.dryRun) continue;
    const product = await scope.db.query.products.findFirst({ where: eq(products.id, row.id) });
    if (!product) continue;
    const d = await productDeleteStatements(scope.db, scope.actor, product);
    out.statements.push(...d.statements);
    out.fileKeys.push(...d.fileKeys);
    if (product.parentId) out.mastersTouched.push(product.parentId);
  }
  return out;
}
