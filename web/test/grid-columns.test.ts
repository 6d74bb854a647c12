import { describe, expect, it } from 'vitest';
import type { Attribute, Product } from '../src/api/models';
import { attributeCodesOf } from '../src/lib/column-choice';
import { keys } from '../src/api/keys';
import { attributeColumn, BUILT_IN_COLUMNS, withSavedValue } from '../src/pages/products/columns';

const CAT = '0190a000-0000-7000-8000-000000000099';
const voltage = { code: 'voltage', name: 'Voltage', type: 'number', unit: 'VLT' } as Attribute;
const colour = { code: 'colour', name: 'Colour', type: 'text', unit: null } as Attribute;
const product = {
  productId: 'p1',
  name: 'Old',
  values: [{ code: 'voltage', type: 'number', value: '230', unit: 'VLT' }],
} as Product;

describe('attribute columns in the grid', () => {
  it('asks GetProducts for the chosen attribute codes, sorted and once each', () => {
    expect(attributeCodesOf(['sku', 'attr:voltage', 'name', 'attr:colour', 'attr:voltage'])).toEqual([
      'colour',
      'voltage',
    ]);
    expect(attributeCodesOf(['sku', 'name'])).toEqual([]);
  });
  it('keys the list by its attribute codes, so a new column never reuses rows without its values', () => {
    expect(keys.productList({ catalogId: CAT }, ['voltage'])).not.toEqual(keys.productList({ catalogId: CAT }));
    expect(keys.productList({ catalogId: CAT }, [])).toEqual(keys.productList({ catalogId: CAT }));
  });
  it('reads an attribute value from the values that came with the row', () => {
    expect(attributeColumn(voltage).read(product)).toBe('230');
    expect(attributeColumn(colour).read(product)).toBeNull();
  });
  it('puts a saved value into the row: field replaced, attribute replaced, added or cleared', () => {
    const name = BUILT_IN_COLUMNS.find((c) => c.id === 'name')!;
    expect(withSavedValue(product, name, 'New').name).toBe('New');
    expect(withSavedValue(product, attributeColumn(voltage), '400').values).toEqual([
      { code: 'voltage', type: 'number', value: '400', unit: 'VLT' },
    ]);
    expect(withSavedValue(product, attributeColumn(colour), 'grey').values).toEqual([
      { code: 'colour', type: 'text', value: 'grey', unit: null },
      { code: 'voltage', type: 'number', value: '230', unit: 'VLT' },
    ]);
    expect(withSavedValue(product, attributeColumn(voltage), '').values).toEqual([]);
    // the original row is left as it was (the cache gets a new object)
    expect(product.values).toHaveLength(1);
  });
});
