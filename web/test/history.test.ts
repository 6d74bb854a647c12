import { describe, expect, it } from 'vitest';
import { translator } from '../src/i18n/i18n';
import { displayValue, pathLabel, surfaceKey } from '../src/lib/history';

const en = translator('en');
const de = translator('de');
const label = (path: string, t = en) => {
  const l = pathLabel(path);
  return t(l.key, l.vars);
};

describe('pathLabel', () => {
  it('names the language of a translation (docs/languages.md: name@eng)', () => {
    expect(pathLabel('name@eng')).toEqual({ key: 'field.name', language: 'eng' });
    expect(label('values.colour@fra')).toBe('Attribute colour');
    expect(pathLabel('values.colour@fra').language).toBe('fra');
    expect(pathLabel('name').language).toBeUndefined();
  });
  it('names built-in fields by their form label', () => {
    expect(label('price')).toBe('Price');
    expect(label('manufacturerPid')).toBe('Manufacturer part number');
    expect(label('name', de)).toBe('Bezeichnung');
  });
  it('names attribute values, classification features and classes, placements, variants and media', () => {
    expect(label('values.colour')).toBe('Attribute colour');
    expect(label('classification.feature.ETIM.EF000008')).toBe('Feature ETIM EF000008');
    expect(label('classification.feature.ETIM.EF000008', de)).toBe('Merkmal ETIM EF000008');
    expect(label('classification.class.ECLASS')).toBe('Class (ECLASS)');
    expect(label('categories')).toBe('Categories');
    expect(label('variants', de)).toBe('Varianten');
    expect(label('media.0199aabb-0000-7000-8000-00000000abcdef')).toBe('Media file …abcdef');
  });
  it('shows any other path as it is', () => {
    expect(label('classification.name')).toBe('classification.name');
  });
});

describe('displayValue', () => {
  it('shows an absent value as an em dash', () => {
    expect(displayValue(null)).toBe('—');
    expect(displayValue(undefined)).toBe('—');
    expect(displayValue('')).toBe('—');
    expect(displayValue([])).toBe('—');
  });
  it('shows scalars, lists and objects on one line', () => {
    expect(displayValue('0.89')).toBe('0.89');
    expect(displayValue(12)).toBe('12');
    expect(displayValue(['a', 'b'])).toBe('a, b');
    expect(displayValue({ fileName: 'x.png', sortOrder: 0, alt: null })).toBe('fileName: x.png; sortOrder: 0');
  });
});

describe('surfaceKey', () => {
  it('translates every surface in both languages', () => {
    for (const surface of ['web', 'agent', 'mcp', 'job'] as const) {
      expect(en(surfaceKey({ surface }))).not.toMatch(/^history\./);
      expect(de(surfaceKey({ surface }))).not.toMatch(/^history\./);
    }
    expect(de(surfaceKey({ surface: 'job' }))).toBe('Hintergrundjob');
  });
});
