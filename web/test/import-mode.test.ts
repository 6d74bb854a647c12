import { describe, expect, it } from 'vitest';
import { translator } from '../src/i18n/i18n';
import { ignoredParts, importChoice } from '../src/lib/import-mode';
import { reasonText } from '../src/lib/import-report';

describe('the imports a role is offered', () => {
  it('offers a product writer every mode, texts only among them, upsert first', () => {
    expect(importChoice({ productWrite: true, textWrite: true })).toEqual({
      modes: ['upsert', 'createOnly', 'texts'],
      imposed: false,
    });
  });

  it('imposes the texts-only import on a role writing texts only (a translator)', () => {
    expect(importChoice({ productWrite: false, textWrite: true })).toEqual({ modes: ['texts'], imposed: true });
  });

  it('offers nothing to a role writing neither (viewer, reviewer, publisher)', () => {
    expect(importChoice({ productWrite: false, textWrite: false })).toEqual({ modes: [], imposed: false });
  });
});

describe("a texts-only import's warnings", () => {
  // as src/imports/write/texts-only.ts ignoredField and the job's warning tally write them
  const warnings = [
    'texts-only import: price ignored (3×, e.g. T-1, T-1-V, T-404)',
    'texts-only import: texts in deu ignored (1×, e.g. T-1)',
    'texts-only import: categories ignored (2×)',
    'GTIN check digit wrong: 1 time (e.g. X-1)',
  ];

  it('are split into the parts left out, each with its count and first SKUs, and the other warnings', () => {
    expect(ignoredParts(warnings)).toEqual({
      ignored: [
        { field: 'price', language: null, count: 3, examples: ['T-1', 'T-1-V', 'T-404'] },
        { field: 'texts in deu', language: 'deu', count: 1, examples: ['T-1'] },
        { field: 'categories', language: null, count: 2, examples: [] },
      ],
      other: ['GTIN check digit wrong: 1 time (e.g. X-1)'],
    });
  });

  it('leave a job without them alone', () => {
    expect(ignoredParts([])).toEqual({ ignored: [], other: [] });
  });
});

describe('the reasons of a scoped or texts-only import in words', () => {
  it('words a row outside the scope and a delete in a texts-only import in both languages', () => {
    const en = translator('en');
    const de = translator('de');
    expect(reasonText('outside_scope', 'api label', en)).toMatch(/outside your part of the catalog/);
    expect(reasonText('outside_scope', 'api label', de)).toMatch(/außerhalb Ihres Teils/);
    expect(reasonText('texts_only', 'api label', en)).toMatch(/texts-only import/);
    expect(reasonText('texts_only', 'api label', de)).toMatch(/nur der Texte/);
  });
});
