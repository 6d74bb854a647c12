import { describe, expect, it } from 'vitest';
import { changeLines, fieldText, VALUE_CHARS, valueText } from '../src/lib/review-changes';

describe('review inbox change lines', () => {
  it('reads a localized path as field and language, and a plain one as it is', () => {
    expect(fieldText('name@eng')).toBe('name (eng)');
    expect(fieldText('media.0199.description@fra')).toBe('media.0199.description (fra)');
    expect(fieldText('price')).toBe('price');
  });

  it('shows absent values as a dash, objects as JSON and cuts long texts', () => {
    expect(valueText(null)).toBe('—');
    expect(valueText('')).toBe('—');
    expect(valueText(['a', 'b'])).toBe('["a","b"]');
    const long = valueText('x'.repeat(200));
    expect(long).toHaveLength(VALUE_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });

  it('marks the changes of a variant', () => {
    const lines = changeLines('P', [
      { elementId: 'P', path: 'name@eng', before: null, after: 'Drill' },
      { elementId: 'V', path: 'gtin', before: '1', after: '2' },
    ]);
    expect(lines).toEqual([
      { field: 'name (eng)', before: '—', after: 'Drill', variant: false },
      { field: 'gtin', before: '1', after: '2', variant: true },
    ]);
  });
});
