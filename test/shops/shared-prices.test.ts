import { describe, expect, it } from 'vitest';
import { priceCurrencies, priceTiers, shopPrice } from '../../connector/src/adapters/common/prices';
import type { TargetMapping } from '../../connector/src/adapters/target-adapter';
import { wirePrice, wireVariant } from './fixtures/wire-product';

const MAPPING = {
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
} as TargetMapping;
const GROSS = { ...MAPPING, pricesIncludeTax: true };

describe('shop prices', () => {
  const node = wireVariant('N-1', {
    price: '9.99',
    prices: [
      wirePrice('4.40', '10'),
      wirePrice('4.20', null),
      wirePrice('3.00', '1', { type: 'net_list' }),
      wirePrice('5.00', '1', { currency: 'CHF' }),
      wirePrice('4.10', '100', { currency: null }),
    ],
  });

  it('is the mapped type in the mapped currency for quantity 1, tiers above by lower bound', () => {
    expect(shopPrice(node, MAPPING)).toBe(4.2);
    expect(priceTiers(node, MAPPING)).toEqual([
      { minQuantity: 1, amount: 4.2 },
      { minQuantity: 10, amount: 4.4 },
      { minQuantity: 100, amount: 4.1 },
    ]);
  });

  it('is gross at the shop’s rate when given, else at the entry’s own tax, when the mapping includes tax', () => {
    expect(shopPrice(node, GROSS)).toBe(4.998);
    expect(shopPrice(node, GROSS, 7)).toBe(4.494);
    expect(priceTiers(node, GROSS, { net: true })[0]?.amount).toBe(4.2);
  });

  it('falls back to the record’s price, gross only at the shop’s rate', () => {
    const plain = wireVariant('N-1', { price: '10.00' });
    expect(shopPrice(plain, MAPPING)).toBe(10);
    expect(shopPrice(plain, GROSS)).toBe(10);
    expect(shopPrice(plain, GROSS, 19)).toBe(11.9);
    expect(shopPrice(wireVariant('N-1'), MAPPING)).toBeNull();
  });

  it('anchors a list that starts above quantity 1 at 1 and applies the price factor', () => {
    const node = wireVariant('N-1', { prices: [wirePrice('2.00', '5', { factor: '1.5' }), wirePrice('1.80', '50')] });
    expect(priceTiers(node, MAPPING)).toEqual([
      { minQuantity: 1, amount: 3 },
      { minQuantity: 50, amount: 1.8 },
    ]);
  });

  it('answers another currency’s tiers without the record’s price, and lists the currencies', () => {
    expect(priceTiers(node, MAPPING, { currency: 'CHF' })).toEqual([{ minQuantity: 1, amount: 5 }]);
    expect(priceTiers(wireVariant('N-1', { price: '1.00' }), MAPPING, { currency: 'CHF' })).toEqual([]);
    expect(priceCurrencies(node, MAPPING)).toEqual(['EUR', 'CHF']);
  });
});
