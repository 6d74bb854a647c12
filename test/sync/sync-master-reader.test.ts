import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { MasterReader } from '../../src/sync/master-reader';
import { db } from '../helpers/factories';
import { product, syncSetup } from '../helpers/sync-fixtures';

async function readAll(reader: MasterReader): Promise<string[]> {
  const skus: string[] = [];
  for (let master = await reader.peek(); master; master = await reader.peek()) {
    skus.push(master.sku);
    reader.advance();
  }
  return skus;
}

describe('sync run: the PIM side of the merge-join', () => {
  for (const count of [7, 6, 2]) {
    it(`reads all ${count} masters in SKU byte order across prefetched pages of 3`, async () => {
      const setup = await syncSetup();
      const skus = Array.from({ length: count }, (_, i) => `M-${String(i).padStart(2, '0')}`);
      // Inserted out of order; a variant is never listed.
      for (const sku of [...skus].reverse()) await product(setup, sku, {}, sku === 'M-01');
      const reader = new MasterReader(db(), setup.company.companyId, setup.catalogId, null, true, 3);

      expect(await readAll(reader)).toEqual(skus);
      expect(await reader.peek()).toBeNull();
    });
  }

  it('starts after the resume SKU and repairs a stale fingerprint before handing it out', async () => {
    const setup = await syncSetup();
    const masters = [];
    for (const sku of ['A-1', 'B-2', 'C-3', 'D-4', 'E-5']) masters.push(await product(setup, sku));
    const stale = masters[3]!;
    const before = (await db().query.products.findFirst({ where: eq(products.id, stale.productId) }))!;
    await db()
      .update(products)
      .set({ revision: before.revision + 1, fingerprint: 'stale' })
      .where(eq(products.id, stale.productId));
    const reader = new MasterReader(db(), setup.company.companyId, setup.catalogId, 'B-2', true, 2);

    const seen = [];
    for (let master = await reader.peek(); master; master = await reader.peek()) {
      seen.push(master);
      reader.advance();
    }
    expect(seen.map((m) => m.sku)).toEqual(['C-3', 'D-4', 'E-5']);
    const repaired = (await db().query.products.findFirst({ where: eq(products.id, stale.productId) }))!;
    expect(repaired.fingerprintRevision).toBe(before.revision + 1);
    expect(repaired.fingerprint).not.toBe('stale');
    expect(seen[1]!.fingerprint).toBe(repaired.fingerprint);
  });
});
