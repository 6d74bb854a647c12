import { describe, expect, it } from 'vitest';
import { referencesOfRows } from '../src/editor/reference-rows';

describe('references form rows', () => {
  it('send a reference by manufacturer number back with its kind, one by SKU without, and leave empty targets out', () => {
    expect(
      referencesOfRows([
        { id: 1, type: 'accessories', targetSku: ' M-200 ', targetKind: 'mpn', quantity: '' },
        { id: 2, type: 'sparepart', targetSku: 'D-050', targetKind: 'sku', quantity: '2' },
        { id: 3, type: 'similar', targetSku: '  ', targetKind: 'sku', quantity: '' },
      ]),
    ).toEqual([
      { type: 'accessories', targetSku: 'M-200', targetKind: 'mpn', quantity: null },
      { type: 'sparepart', targetSku: 'D-050', quantity: 2 },
    ]);
  });
});
