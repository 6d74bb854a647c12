import { and, eq, isNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { loadProductAggregates } from '../../src/model/product-aggregate';
import { products } from '../../src/db/schema';
import { fingerprintsOf } from '../../src/records/sync-record';
import { db } from './factories';

/**
 * Every master of the catalog carries the fingerprint the normal code computes from the
 * stored rows (refreshFingerprints' loader), valid for its current revision.
 */
export async function expectFingerprintsCurrent(companyId: string, catalogId: string) {
  const masters = await db()
    .select()
    .from(products)
    .where(and(eq(products.catalogId, catalogId), isNull(products.parentId)));
  expect(masters.length).toBeGreaterThan(0);
  const aggregates = await loadProductAggregates(
    db(),
    companyId,
    masters.map((m) => m.id),
  );
  const computed = await fingerprintsOf(db(), companyId, aggregates);
  for (const aggregate of aggregates) {
    const stored = masters.find((m) => m.id === aggregate.product.id)!;
    expect({ sku: stored.sku, fingerprint: stored.fingerprint, valid: stored.fingerprintRevision }).toEqual({
      sku: stored.sku,
      fingerprint: computed.get(aggregate.product.id),
      valid: stored.revision,
    });
  }
}
