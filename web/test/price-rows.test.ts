import { describe, expect, it } from 'vitest';
import type { ProductDetail } from '../src/api/models';
import { priceOf, rowOf } from '../src/editor/price-rows';

type Price = ProductDetail['prices'][number];

const price = (over: Partial<Price>): Price =>
  ({
    type: 'net_list',
    amount: '10.00',
    currency: 'EUR',
    tax: null,
    factor: null,
    lowerBound: null,
    territory: [],
    validFrom: null,
    validTo: null,
    daily: false,
    base: null,
    ...over,
  }) as Price;

describe('the prices table rows', () => {
  it('keep the values the table does not edit with their own row, also after a row above is removed', () => {
    const first = price({
      amount: '1.00',
      factor: '0.8',
      daily: true,
      base: { value: '100', unit: 'MTR', factor: '2' },
    });
    const second = price({ amount: '2.00', lowerBound: '10' });
    const rows = [first, second].map(rowOf);
    // the table removes the first row: the second keeps its own (no) factor, daily and base
    const remaining = rows.filter((_, i) => i !== 0);
    expect(priceOf(remaining[0]!)).toMatchObject({
      amount: '2.00',
      factor: null,
      daily: false,
      base: null,
      lowerBound: '10',
    });
    expect(priceOf(rows[0]!)).toMatchObject({
      amount: '1.00',
      factor: '0.8',
      daily: true,
      base: { value: '100', unit: 'MTR', factor: '2' },
    });
  });

  it('send back the PRICE_FLAGs and the PRICE_FORMULA the table does not show; a typed amount replaces the formula', () => {
    const flags = { incl_freight: true };
    const formula = { id: 'F-Kupfer', parameters: [{ symbol: 'cu', value: '8,75' }] };
    const row = rowOf(price({ amount: null, flags, formula }));
    expect(priceOf(row)).toMatchObject({ amount: null, flags, formula });
    expect(priceOf({ ...row, amount: '12.00' })).not.toHaveProperty('formula');
    expect(priceOf(rowOf(price({})))).not.toHaveProperty('flags');
  });

  it('send the cells as typed: empty ones as null, territories upper case', () => {
    const row = { ...rowOf(price({})), tax: ' ', territory: 'de, at', currency: 'eur' };
    expect(priceOf(row)).toMatchObject({ tax: null, territory: ['DE', 'AT'], currency: 'EUR' });
  });
});
