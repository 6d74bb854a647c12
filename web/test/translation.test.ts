import { describe, expect, it } from 'vitest';
import { keys } from '../src/api/keys';
import type { Product } from '../src/api/models';
import { canonical, queryFromSearch } from '../src/lib/cursor';
import { localizableCodes, missingCount, translationRows } from '../src/lib/translation-rows';
import { attributeColumn, BUILT_IN_COLUMNS, translationField, withSavedValue } from '../src/pages/products/columns';
import type { Attribute } from '../src/api/models';

const CAT = '0190a000-0000-7000-8000-000000000099';
const source = {
  name: 'Kabel NYM-J',
  description: 'Mantelleitung',
  keywords: null,
  values: [
    { code: 'colour', value: 'grau' },
    { code: 'voltage', value: '230' },
  ],
};
// GetProduct?language=eng&languages=all: texts null where missing, named in missingTranslations.
const english = {
  name: null,
  description: 'Sheathed cable',
  keywords: null,
  values: [
    { code: 'colour', value: null },
    { code: 'voltage', value: '230' },
  ],
  missingTranslations: ['name', 'values.colour'],
  translations: { eng: { description: 'Sheathed cable' }, fra: { 'values.finish': 'mat' } },
};

describe('the side-by-side translation rows', () => {
  it('pairs each localizable text with its translation and marks the missing ones', () => {
    const rows = translationRows(source, english);
    expect(rows.map((r) => [r.field, r.source, r.target, r.missing])).toEqual([
      ['name', 'Kabel NYM-J', '', true],
      ['keywords', '', '', false],
      ['description', 'Mantelleitung', 'Sheathed cable', false],
      ['values.colour', 'grau', '', true],
      ['values.finish', '', '', false],
    ]);
    expect(rows.find((r) => r.field === 'values.colour')?.code).toBe('colour');
    expect(missingCount(rows)).toBe(2);
  });

  it('takes localizable attributes from what is missing and what is translated, never the neutral ones', () => {
    expect(localizableCodes(english)).toEqual(['colour', 'finish']);
    expect(localizableCodes({ ...english, missingTranslations: [], translations: undefined })).toEqual([]);
  });

  it('has nothing missing once every text is there', () => {
    const done = translationRows(source, { ...english, name: 'NYM-J cable', missingTranslations: [] });
    expect(missingCount(done)).toBe(0);
    expect(done[0]).toMatchObject({ field: 'name', target: 'NYM-J cable', missing: false });
  });
});

describe('the grid in a content language', () => {
  it('keeps language and "translation missing in" in the address and the list key', () => {
    const query = queryFromSearch(new URLSearchParams('language=eng&missingTranslation=eng&sort=name'), CAT);
    expect(canonical(query)).toEqual({ sort: 'name', language: 'eng', missingTranslation: 'eng' });
    expect(keys.productList(query)).not.toEqual(keys.productList({ ...query, language: undefined }));
    expect(keys.productList(query)).not.toEqual(keys.productList({ ...query, missingTranslation: undefined }));
  });

  it('a translated name saved in a cell is no longer missing; an emptied one stays as the API said', () => {
    const name = BUILT_IN_COLUMNS.find((c) => c.id === 'name')!;
    const row = { productId: 'p1', name: null, missingTranslations: ['name', 'description'] } as unknown as Product;
    const saved = withSavedValue(row, name, 'NYM-J cable');
    expect(saved.name).toBe('NYM-J cable');
    expect(saved.missingTranslations).toEqual(['description']);
    expect(withSavedValue(row, name, '').missingTranslations).toEqual(['name', 'description']);
  });

  it('lists the missing texts in their column', () => {
    const column = BUILT_IN_COLUMNS.find((c) => c.id === 'missingTranslations')!;
    expect(column.read({ missingTranslations: ['name', 'keywords'] } as unknown as Product)).toBe('name,keywords');
    expect(column.read({ missingTranslations: [] } as unknown as Product)).toBeNull();
  });
});

describe('localizable attributes the company declares', () => {
  it('get a row even before the product has a value or translation of them', () => {
    const rows = translationRows(source, { ...english, missingTranslations: [], translations: {} }, ['material']);
    expect(rows.map((r) => r.field)).toEqual(['name', 'keywords', 'description', 'values.material']);
    expect(rows[3]).toMatchObject({ code: 'material', source: '', target: '', missing: false });
  });
});

describe('which grid columns are kept per language', () => {
  const colour = attributeColumn({
    code: 'colour',
    name: 'Colour',
    type: 'text',
    unit: null,
    localizable: true,
  } as Attribute);
  const voltage = attributeColumn({
    code: 'voltage',
    name: 'Voltage',
    type: 'number',
    unit: 'VLT',
    localizable: false,
  } as Attribute);

  it('names the translated field of name and localizable attributes, none for neutral columns', () => {
    expect(translationField(BUILT_IN_COLUMNS.find((c) => c.id === 'name')!)).toBe('name');
    expect(translationField(BUILT_IN_COLUMNS.find((c) => c.id === 'gtin')!)).toBeNull();
    expect(translationField(colour)).toBe('values.colour');
    expect(translationField(voltage)).toBeNull();
  });

  it('a localizable attribute saved in a cell is no longer missing', () => {
    const row = { productId: 'p1', values: [], missingTranslations: ['values.colour'] } as unknown as Product;
    expect(withSavedValue(row, colour, 'grey').missingTranslations).toEqual([]);
    expect(withSavedValue(row, voltage, '230').missingTranslations).toEqual(['values.colour']);
  });
});
