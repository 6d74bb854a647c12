import { describe, expect, it } from 'vitest';
import { upsertRecordSchema, upsertRequestSchema } from '../../src/sync/protocol/wire';

const product = {
  name: 'Leitungsschutzschalter B16',
  description: null,
  gtin: '4012345678901',
  manufacturerId: 'm-1',
  manufacturerPid: 'LS-B16',
  unitId: 'u-C62',
  taxId: 't-DE-19',
  price: '12.50',
  priceQuantity: 1,
  keywords: null,
  deliveryTimeDays: 2,
  status: 'active',
  values: { color: 'grey' },
  classification: { classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }], features: [] },
  categories: [{ id: 'c-1', path: ['Installation', 'Schutz'] }],
  media: [
    {
      sha256: 'a'.repeat(64),
      url: 'https://pim.example/media/signed/x?expires=1&sig=ab',
      contentType: 'image/png',
      fileName: 'x.png',
      purpose: 'normal',
      position: 0,
    },
  ],
  variants: [],
};

describe('wire schemas', () => {
  it('accepts create, update and deactivate records of the documented shape', () => {
    expect(
      upsertRecordSchema.safeParse({ op: 'create', sku: 'LS-1', fingerprint: 'f'.repeat(64), product }).success,
    ).toBe(true);
    expect(
      upsertRecordSchema.safeParse({
        op: 'update',
        sku: 'LS-1',
        fingerprint: 'f',
        product: { ...product, price: null },
      }).success,
    ).toBe(true);
    expect(upsertRecordSchema.safeParse({ op: 'deactivate', sku: 'LS-1', fingerprint: 'f' }).success).toBe(true);
  });

  it('names the field of a bad record', () => {
    const noProduct = upsertRecordSchema.safeParse({ op: 'create', sku: 'LS-1', fingerprint: 'f' });
    expect(noProduct.error?.issues[0]?.path).toEqual(['product']);
    const badPrice = upsertRecordSchema.safeParse({
      op: 'update',
      sku: 'LS-1',
      fingerprint: 'f',
      product: { ...product, price: '12,50' },
    });
    expect(badPrice.error?.issues[0]?.path).toEqual(['product', 'price']);
    const badHash = upsertRecordSchema.safeParse({
      op: 'create',
      sku: 'LS-1',
      fingerprint: 'f',
      product: { ...product, media: [{ ...product.media[0], sha256: 'XYZ' }] },
    });
    expect(badHash.error?.issues[0]?.path).toEqual(['product', 'media', 0, 'sha256']);
    expect(upsertRecordSchema.safeParse({ op: 'delete', sku: 'LS-1', fingerprint: 'f' }).success).toBe(false);
  });

  it('keeps records opaque in the envelope so they can fail one by one', () => {
    expect(upsertRequestSchema.safeParse({ batchId: 'b', records: [1, 'x'] }).success).toBe(true);
    expect(upsertRequestSchema.safeParse({ batchId: '', records: [] }).success).toBe(false);
    expect(upsertRequestSchema.safeParse({ batchId: 'b', records: {} }).success).toBe(false);
  });
});
