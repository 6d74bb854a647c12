import { describe, expect, it } from 'vitest';
import { emptyFeatureRow, featureRows, featuresOf, keywordsOf, mediaEntry } from '../src/lib/category-data';

describe("the category editor's group data", () => {
  it('shows features as rows and writes them back with the parts the form does not show', () => {
    const stored = [
      { name: 'Material', values: ['Stahl'] },
      { name: 'Länge', values: ['180', '200'], unit: 'MMT', order: 2, descr: 'Gesamtlänge' },
    ];
    const rows = featureRows(stored);
    expect(rows.map((r) => [r.name, r.values, r.unit])).toEqual([
      ['Material', 'Stahl', ''],
      ['Länge', '180 | 200', 'MMT'],
    ]);
    expect(featuresOf(rows)).toEqual(stored);
    rows[1]!.values = '160|  | 180';
    rows[0]!.unit = ' ';
    expect(featuresOf(rows)).toEqual([
      { name: 'Material', values: ['Stahl'] },
      { name: 'Länge', values: ['160', '180'], unit: 'MMT', order: 2, descr: 'Gesamtlänge' },
    ]);
  });

  it('adds a typed row, drops a row without name, and answers null when none is left', () => {
    const rows = [...featureRows([{ name: 'Farbe', values: ['rot'] }]), emptyFeatureRow()];
    rows[1] = { ...rows[1]!, name: ' Gewicht ', values: '2', unit: 'KGM' };
    expect(featuresOf(rows)).toEqual([
      { name: 'Farbe', values: ['rot'] },
      { name: 'Gewicht', values: ['2'], unit: 'KGM' },
    ]);
    expect(featuresOf([{ ...rows[0]!, name: '  ' }])).toBeNull();
    expect(featuresOf([])).toBeNull();
  });

  it('keeps an eCl@ss Advanced template feature (ftId, no name) as it was', () => {
    const rows = featureRows([{ ftId: 'BAA001', ftName: 'Länge', values: ['5'] }]);
    expect(rows[0]!.name).toBe('BAA001');
    expect(featuresOf(rows)).toEqual([{ ftId: 'BAA001', ftName: 'Länge', values: ['5'] }]);
  });

  it('tidies keywords and tells links, uploaded files and references apart', () => {
    expect(keywordsOf(' Zange,, Werkzeug ,')).toBe('Zange, Werkzeug');
    expect(keywordsOf(' , ')).toBeNull();
    expect(mediaEntry({ kind: 'link', url: 'https://cdn.example.com/a.jpg', fileName: 'a.jpg', size: 0 })).toEqual({
      source: 'https://cdn.example.com/a.jpg',
      kind: 'link',
    });
    expect(mediaEntry({ kind: 'file', url: null, fileName: 'b.png', size: 0 })).toEqual({
      source: 'b.png',
      kind: 'reference',
    });
    expect(mediaEntry({ kind: 'file', url: null, fileName: 'c.png', size: 12 })).toEqual({
      source: 'c.png',
      kind: 'file',
    });
  });
});
