import { describe, expect, it } from 'vitest';
import { baseCell, baseOfCell } from '../src/editor/price-base-cell';

describe("the prices table's per cell", () => {
  it('shows a base as value and unit, a unit alone, or nothing', () => {
    expect(baseCell({ value: '100', unit: 'MTR', factor: '0.5' })).toBe('100 MTR');
    expect(baseCell({ value: null, unit: 'KGM', factor: null })).toBe('KGM');
    expect(baseCell(null)).toBe('');
  });

  it('reads value and unit, a unit alone, empty as no base, and keeps the factor it was given', () => {
    expect(baseOfCell(' 100  mtr ', '0.5')).toEqual({ value: '100', unit: 'MTR', factor: '0.5' });
    expect(baseOfCell('KGM', null)).toEqual({ value: null, unit: 'KGM', factor: null });
    expect(baseOfCell('   ', '2')).toBeNull();
  });

  it('sends a cell of another shape as its unit, for the server to name what is wrong', () => {
    expect(baseOfCell('100 laufende Meter', null)).toEqual({ value: null, unit: '100 LAUFENDE METER', factor: null });
  });
});
