import { describe, expect, it } from 'vitest';
import { bodyOf, newRow, type RequirementBody, rowOf } from '../src/lib/channel-draft';

describe('channel requirements in the form', () => {
  it('reads every kind as a row and writes it back as it was', () => {
    const requirements: RequirementBody[] = [
      { kind: 'field', field: 'name', languages: ['eng'] },
      { kind: 'attribute', attribute: 'colour' },
      { kind: 'media', purpose: 'normal', min: 2 },
      { kind: 'price', priceType: 'net_list' },
      { kind: 'classification', system: 'ETIM', release: 'ETIM-9.0' },
      { kind: 'features', system: 'ETIM', release: 'ETIM-9.0', share: 'mandatory' },
      { kind: 'quality', rule: 'gtinUnique' },
    ];
    expect(requirements.map((r) => bodyOf(rowOf(r)))).toEqual(requirements);
  });

  it('leaves empty extras out and trims names', () => {
    expect(bodyOf({ ...newRow('media'), target: ' data_sheet ', min: '1' })).toEqual({
      kind: 'media',
      purpose: 'data_sheet',
    });
    expect(bodyOf({ ...newRow('media'), min: 'x' })).toEqual({ kind: 'media', purpose: 'normal' });
    expect(bodyOf({ ...newRow('features'), release: '  ' })).toEqual({ kind: 'features', system: 'ETIM' });
    expect(bodyOf({ ...newRow('field'), languages: [] })).toEqual({ kind: 'field', field: 'name' });
    expect(newRow('price')).toMatchObject({ kind: 'price', target: 'net_list' });
  });
});
