import { describe, expect, it } from 'vitest';
import {
  checkGtin,
  productPayload,
  validateCatalog,
  validatePasswordChange,
  validateProduct,
} from '../src/lib/validate';

describe('product form', () => {
  it('checks the GTIN check digit like the API', () => {
    expect(checkGtin('4006381333931')).toBeNull();
    expect(checkGtin('4006381333932')).toBe('gtinCheck');
    expect(checkGtin('12345')).toBe('gtinDigits');
  });
  it('names every field that breaks a rule', () => {
    expect(
      validateProduct(
        {
          sku: '',
          gtin: '123',
          price: '12,5555555555555555555555',
          unit: 'stk',
          priceQuantity: '0',
          deliveryTimeDays: '2.5',
        },
        { requireSku: true },
      ),
    ).toEqual({
      sku: 'required',
      gtin: 'gtinDigits',
      price: 'price',
      unit: 'unit',
      priceQuantity: 'wholeNumber',
      deliveryTimeDays: 'wholeNumber',
    });
  });
  it('accepts a correct product with a German price', () => {
    expect(
      validateProduct({ sku: 'NYM-3x1.5', gtin: '4006381333931', price: '12,50', unit: 'MTR' }, { requireSku: true }),
    ).toEqual({});
  });
  it('checks the order details like the API: a unit code, amounts above 0', () => {
    expect(
      validateProduct(
        { sku: 'BOX', contentUnit: 'Stk', contentPerUnit: '0', quantityMin: '-2', quantityInterval: 'fünf' },
        { requireSku: true },
      ),
    ).toEqual({
      contentUnit: 'unit',
      contentPerUnit: 'positiveAmount',
      quantityMin: 'positiveAmount',
      quantityInterval: 'positiveAmount',
    });
    expect(
      validateProduct(
        { sku: 'BOX', contentUnit: 'C62', contentPerUnit: '6', quantityMin: '2,5', quantityInterval: '0.5' },
        { requireSku: true },
      ),
    ).toEqual({});
    expect(
      productPayload({ contentUnit: ' C62 ', contentPerUnit: '6', quantityMin: '2,5', quantityInterval: '' }),
    ).toEqual({ contentUnit: 'C62', contentPerUnit: '6', quantityMin: '2.5', quantityInterval: null });
  });
  it('sends cleared inputs as null and numbers as numbers', () => {
    expect(
      productPayload({ name: '', price: '12,50', priceQuantity: '10', deliveryTimeDays: '', sku: ' A-1 ' }),
    ).toEqual({
      name: null,
      price: '12.50',
      priceQuantity: 10,
      deliveryTimeDays: null,
      sku: 'A-1',
    });
  });
});

describe('catalog and password forms', () => {
  it('refuses an empty name and codes in the wrong shape', () => {
    expect(
      validateCatalog({ name: ' ', catalogType: '', catalogVersion: '', language: 'de', currency: 'eur' }),
    ).toEqual({ name: 'required', language: 'language', currency: 'currency' });
  });
  it('wants 12 characters and the same password twice', () => {
    expect(validatePasswordChange('', 'short', 'other')).toEqual({
      current: 'required',
      next: 'passwordShort',
      repeat: 'passwordMismatch',
    });
    expect(validatePasswordChange('old-password', 'a-long-new-password', 'a-long-new-password')).toEqual({});
  });
});
