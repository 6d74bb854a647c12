import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../../src/model/product-aggregate';
import { productSchema } from '../../src/sync/protocol/wire';
import { indexMappings, wireProduct } from '../../src/sync/wire-record';
import { db, makeCatalog, makeProduct, makeSession } from '../helpers/factories';
import { wireProduct as emptyWireProduct } from '../shops/fixtures/wire-product';

/**
 * Issue 32: the order details (content unit, content per order unit, minimum, interval;
 * migration 0091) reach the shop. The wire carries the ones a node has set, as the sync record
 * its fingerprint is made of does; a product without them sends what it sent before.
 */
const ctx = {
  index: indexMappings({ manufacturers: [], units: [{ id: 'u-BX', code: 'BX' }], taxes: [] }),
  defaultTaxCode: undefined,
  categoryPath: () => undefined,
  mediaRef: () => undefined,
};

async function wireOf(companyId: string, masterId: string) {
  const [aggregate] = await loadProductAggregates(db(), companyId, [masterId]);
  return wireProduct(aggregate!, ctx);
}

describe('order details on the wire', () => {
  it('carries the set ones on the master and a variant, the connector schema keeps them, a product without has none', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant);
    const master = await makeProduct(session.tenant, catalogId, {
      sku: 'ROLL-50',
      unit: 'BX',
      contentUnit: 'MTR',
      contentPerUnit: '50.0',
      quantityMin: '2.5',
      quantityInterval: '0.5',
    });
    await makeProduct(session.tenant, catalogId, { sku: 'ROLL-50-R', parentId: master.productId, quantityMin: '4' });

    const wire = await wireOf(session.tenant.companyId, master.productId);
    const order = (n: Record<string, unknown>) => ({
      contentUnit: n.contentUnit,
      contentPerUnit: n.contentPerUnit,
      quantityMin: n.quantityMin,
      quantityInterval: n.quantityInterval,
    });
    expect(order(wire)).toEqual({
      contentUnit: 'MTR',
      contentPerUnit: '50.0',
      quantityMin: '2.5',
      quantityInterval: '0.5',
    });
    // A variant carries only its own: the shop adapters take the master's where it has none.
    expect(wire.variants.map((v) => [v.sku, order(v)])).toEqual([
      [
        'ROLL-50-R',
        { contentUnit: undefined, contentPerUnit: undefined, quantityMin: '4', quantityInterval: undefined },
      ],
    ]);
    // What the connector parses (zod drops keys its schema does not name) still has them.
    const parsed = productSchema.parse(wire);
    expect(order(parsed)).toEqual(order(wire));
    expect(parsed.variants[0]?.quantityMin).toBe('4');

    // A product without order details sends none of the keys (what it sent before them).
    const plain = await makeProduct(session.tenant, catalogId, { sku: 'PLAIN-1', unit: 'BX' });
    const plainWire = await wireOf(session.tenant.companyId, plain.productId);
    for (const key of ['contentUnit', 'contentPerUnit', 'quantityMin', 'quantityInterval'])
      expect(Object.keys(plainWire)).not.toContain(key);
  });

  it('refuses a quantity that is not a positive decimal and a content unit that is not a code', () => {
    const base = emptyWireProduct({ name: 'X' });
    expect(productSchema.safeParse({ ...base, quantityMin: '2.5', contentUnit: 'C62' }).success).toBe(true);
    for (const [field, value] of [
      ['quantityMin', '0'],
      ['quantityMin', '0.000'],
      ['quantityInterval', '-1'],
      ['contentPerUnit', '6,5'],
      ['contentPerUnit', 6],
      ['contentUnit', 'piece'],
    ] as const) {
      const result = productSchema.safeParse({ ...base, [field]: value });
      expect(result.error?.issues[0]?.path, `${field} ${value}`).toEqual([field]);
    }
  });
});
