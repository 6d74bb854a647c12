import { describe, expect, it } from 'vitest';
import { pricesOf } from '../../connector/src/adapters/medusa/medusa-shape';
import { shopifyPrice as shopPrice } from '../../connector/src/adapters/shopify/shopify-features';
import { channelPrice } from '../../connector/src/adapters/vendure/vendure-record';
import { defaultMapping, type TargetMapping } from '../../src/sync/protocol/target';
import { currencyPlaces, productSchema, roundDecimal, type Product } from '../../src/sync/protocol/wire';

/**
 * Amounts as the PIM keeps them (up to 20 decimals, issue 32) through the wire and each adapter's
 * rounding to its shop's places (docs/shops.md "Amounts"). Pure: no shop engine is started.
 */

const row = (type: string, amount: string | null, lowerBound: string | null = null) => ({
  type,
  amount,
  currency: 'EUR',
  tax: '0.19',
  factor: null,
  lowerBound,
  territory: [],
  validFrom: null,
  validTo: null,
  daily: false,
});

const node = (prices: ReturnType<typeof row>[]): Product =>
  productSchema.parse({
    name: 'Widerstand',
    description: null,
    gtin: null,
    manufacturerId: null,
    manufacturerPid: null,
    unitId: null,
    taxId: null,
    price: '21.15701',
    priceQuantity: null,
    keywords: null,
    deliveryTimeDays: null,
    status: 'active',
    values: {},
    classification: null,
    media: [],
    prices,
    categories: [],
    variants: [],
  });

const mapping = (over: Partial<TargetMapping> = {}): TargetMapping => ({
  ...defaultMapping('shopify'),
  priceType: 'net_list',
  currency: 'EUR',
  pricesIncludeTax: false,
  ...over,
});

describe('amounts with many decimals at the shops', () => {
  it('rounds half up as text, never through a float', () => {
    expect(roundDecimal('21.15705', 4)).toBe('21.1571');
    expect(roundDecimal('1.005', 2)).toBe('1.01');
    expect(roundDecimal('9.999', 2)).toBe('10.00');
    expect(roundDecimal('0.0049', 2)).toBe('0.00');
    expect(roundDecimal('12.5', 2)).toBe('12.5');
    expect(roundDecimal('2.5', 0)).toBe('3');
    expect(currencyPlaces('EUR')).toBe(2);
    expect(currencyPlaces('JPY')).toBe(0);
  });

  it('the wire takes 20 decimals and a price on request without amount, and refuses 21', () => {
    const ok = node([row('net_list', '0.12345678901234567890', '1'), row('on_request', null, '500')]);
    expect(ok.prices!.map((p) => p.amount)).toEqual(['0.12345678901234567890', null]);
    expect(() => node([row('net_list', '0.123456789012345678901')])).toThrow();
    expect(() => node([row('net_list', null)])).not.toThrow(); // the PIM never sends it; an adapter skips it
  });

  it('Shopify: the currency minor unit; Vendure: cents; Medusa: 6 decimals; a price on request is skipped', () => {
    const record = node([row('on_request', null), row('net_list', '21.15705', '1'), row('net_list', '1.005', '10')]);
    expect(shopPrice(record, mapping())).toBe('21.16');
    // No JPY row: the record's price, in yen's places.
    expect(shopPrice(record, mapping({ currency: 'JPY' }))).toBe('21');
    expect(channelPrice(record, mapping(), null)).toBe(2116);
    expect(channelPrice(node([row('net_list', '1.005')]), mapping(), null)).toBe(101);
    expect(pricesOf(record, record, mapping()).map((p) => p.amount)).toEqual([21.15705, 1.005]);
    expect(pricesOf(node([row('net_list', '0.1234567')]), record, mapping())[0]!.amount).toBe(0.123457);
  });
});
