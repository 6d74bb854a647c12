import { describe, expect, it } from 'vitest';
import { desiredProduct } from '../../connector/src/adapters/medusa/medusa-shape';
import type { TargetMapping } from '../../connector/src/adapters/target-adapter';
import { wireProduct, wireVariant } from './fixtures/wire-product';

/**
 * Issue 32: Medusa v2 has no minimum order quantity, step or content unit of its own; the
 * adapter writes the order details as `pim_*` metadata beside the other PIM facts
 * (`pim_price_quantity`), on the product (the master's) and on each variant (its own, else its
 * master's). The writer removes a key the record no longer carries (test/shops/medusa.test.ts
 * runs the write against a real Medusa). Pure: no shop needed.
 */
const mapping: TargetMapping = {
  languages: { deu: 'de-DE' },
  defaultLanguage: 'deu',
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
  features: { classification: true, values: true, featureBlocks: [] },
  onDeactivate: 'delete',
  imagePurposes: [],
  references: false,
};

const ORDER_KEYS = ['pim_content_unit', 'pim_content_per_unit', 'pim_quantity_min', 'pim_quantity_interval'];
const orderOf = (metadata: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(metadata).filter(([key]) => ORDER_KEYS.includes(key)));

describe('Medusa: order details', () => {
  it('writes them as metadata on the product and every variant, a variant by its master, as written', () => {
    const product = wireProduct({
      name: 'Kabel',
      contentUnit: 'MTR',
      contentPerUnit: '50.0',
      quantityMin: '2.5',
      variants: [wireVariant('ROLL-R', { quantityMin: '4' }), wireVariant('ROLL-G')],
    });
    const desired = desiredProduct('ROLL', product, mapping);
    const master = { pim_content_unit: 'MTR', pim_content_per_unit: '50.0', pim_quantity_min: '2.5' };
    expect(orderOf(desired.metadata)).toEqual(master);
    expect(desired.variants.map((v) => [v.sku, orderOf(v.metadata)])).toEqual([
      ['ROLL-R', { ...master, pim_quantity_min: '4' }],
      ['ROLL-G', master],
    ]);

    // A master without variants is Medusa's one variant: it carries them too.
    const single = desiredProduct('ONE', wireProduct({ quantityInterval: '5' }), mapping);
    expect(orderOf(single.metadata)).toEqual({ pim_quantity_interval: '5' });
    expect(single.variants.map((v) => orderOf(v.metadata))).toEqual([{ pim_quantity_interval: '5' }]);

    // Without order details none of the keys is there (the product's metadata is what it was).
    const plain = desiredProduct('PLAIN', wireProduct({ variants: [wireVariant('PLAIN-R')] }), mapping);
    expect(orderOf(plain.metadata)).toEqual({});
    expect(plain.variants.map((v) => v.metadata)).toEqual([{}]);
  });
});
