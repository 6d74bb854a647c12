import { describe, expect, it } from 'vitest';
import { bodyOf, boundOf, newRow, type RequirementBody, rowOf, withLanguage } from '../src/lib/channel-draft';
import { draftProblem, problemAt } from '../src/lib/channel-problems';

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
      { kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', min: 0.5, max: 12, unit: 'MMT' },
      { kind: 'quality', rule: 'range', system: 'ECLASS', feature: 'AAA001', max: -1 },
      { kind: 'quality', rule: 'releaseRanges', system: 'ETIM', release: 'ETIM-9.0' },
      { kind: 'quality', rule: 'pattern', attribute: 'colour', pattern: '[A-Z]*' },
      { kind: 'field', field: 'gtin', categoryId: '0190a000-0000-7000-8000-000000000001', languages: ['deu'] },
    ];
    expect(requirements.map((r) => bodyOf(rowOf(r)))).toEqual(requirements);
  });

  it('reads and writes the limits of every kind, and a cleared limit is gone from the body', () => {
    const category = '0190a000-0000-7000-8000-000000000002';
    const limited: RequirementBody[] = [
      { kind: 'media', purpose: 'normal', min: 2, languages: ['eng', 'deu'], categoryId: category },
      { kind: 'price', priceType: 'net_list', categoryId: category },
      { kind: 'quality', rule: 'pattern', attribute: 'colour', pattern: 'A*', languages: ['fra'] },
    ];
    const rows = limited.map(rowOf);
    expect(rows.map((r) => [r.languages, r.categoryId])).toEqual([
      [['eng', 'deu'], category],
      [undefined, category],
      [['fra'], undefined],
    ]);
    expect(rows.map(bodyOf)).toEqual(limited);
    // The category cleared ("any category"): no categoryId; the languages stay.
    expect(bodyOf({ ...rows[0]!, categoryId: undefined })).toEqual({
      kind: 'media',
      purpose: 'normal',
      min: 2,
      languages: ['eng', 'deu'],
    });
    // Unchecking one language keeps the other; unchecking the last lifts the limit.
    const english = withLanguage(rows[0]!, 'deu', false);
    expect(english.languages).toEqual(['eng']);
    const none = withLanguage(english, 'eng', false);
    expect(none.languages).toBeUndefined();
    expect(bodyOf(none)).toEqual({ kind: 'media', purpose: 'normal', min: 2, categoryId: category });
    expect(bodyOf(withLanguage(rows[2]!, 'fra', false))).toEqual({
      kind: 'quality',
      rule: 'pattern',
      attribute: 'colour',
      pattern: 'A*',
    });
    // Checking adds without repeating one already there.
    expect(withLanguage(withLanguage(newRow('field'), 'deu', true), 'deu', true).languages).toEqual(['deu']);
    expect(bodyOf(withLanguage(newRow('field'), 'eng', true))).toEqual({
      kind: 'field',
      field: 'name',
      languages: ['eng'],
    });
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

  it('writes a range rule as typed: bounds as numbers (a comma as decimal point), empty ones and the unit left out', () => {
    const row = {
      ...newRow('quality'),
      target: 'range',
      feature: ' EF000008 ',
      rangeMin: '2,5',
      rangeMax: '',
      unit: ' ',
    };
    expect(bodyOf(row)).toEqual({ kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', min: 2.5 });
    // The extras of another rule are not sent with a plain one.
    expect(bodyOf({ ...row, target: 'gtinCheckDigit' })).toEqual({ kind: 'quality', rule: 'gtinCheckDigit' });
    expect(bodyOf({ ...row, target: 'releaseRanges', release: 'ETIM-9.0' })).toEqual({
      kind: 'quality',
      rule: 'releaseRanges',
      system: 'ETIM',
      release: 'ETIM-9.0',
    });
    expect([boundOf(''), boundOf(' -3 '), boundOf('1e3'), boundOf('.5')]).toEqual([undefined, -3, 1000, 0.5]);
    expect(Number.isNaN(boundOf('12 mm'))).toBe(true);
    expect(Number.isNaN(boundOf('1.2.3'))).toBe(true);
  });

  it('catches a bound that is no number before sending, naming the row and the input', () => {
    const rows = [newRow('field'), { ...newRow('quality'), target: 'range', rangeMin: '1', rangeMax: 'ten' }];
    expect(draftProblem(rows, 'no number')).toEqual({ row: 1, input: 'rangeMax', message: 'no number' });
    expect(draftProblem([{ ...rows[1]!, rangeMax: '10' }], 'no number')).toBeNull();
    // Only a range rule's bounds are numbers; a media row's count is checked by the API.
    expect(draftProblem([{ ...newRow('media'), min: 'x' }], 'no number')).toBeNull();
  });

  it("puts the API's 400 next to the input it names", () => {
    const rows = [
      newRow('media'),
      { ...newRow('quality'), target: 'range' },
      { ...newRow('quality'), target: 'pattern' },
    ];
    const at = (message: string) => {
      const p = problemAt(rows, message);
      return p && [p.row, p.input];
    };
    expect(at('requirements[1].min: 5 is greater than max 2')).toEqual([1, 'rangeMin']);
    expect(at('requirements[1].feature: "X" is not a feature of ETIM')).toEqual([1, 'feature']);
    expect(at('requirements[1].system: "X" is not one of ETIM, ECLASS')).toEqual([1, 'system']);
    expect(at('requirements.1.max: Invalid input: expected number, received string')).toEqual([1, 'rangeMax']);
    expect(at('requirements[0].min: at least 1')).toEqual([0, 'min']);
    expect(at('requirements[0].purpose: "x" is not a media purpose')).toEqual([0, 'target']);
    expect(at('requirements[2].attribute: "x" is not an attribute of your company')).toEqual([2, 'attribute']);
    expect(at('requirements[2].pattern: unclosed [')).toEqual([2, 'pattern']);
    expect(at('requirements[2].rule: "x" is not one of ...')).toEqual([2, 'target']);
    // A limit's problem is the limit's input, whatever the kind.
    expect(at('requirements[0].languages[1]: "fra" is not a language of the channel')).toEqual([0, 'languages']);
    expect(at('requirements.2.languages.0: Too big: expected string to have <=8 characters')).toEqual([2, 'languages']);
    expect(at('requirements[1].categoryId: "x" is not a category of your company')).toEqual([1, 'categoryId']);
    // No such row, or no row named: shown under the form.
    expect(at('requirements[7].min: too big')).toBeNull();
    expect(at('name: must not be empty')).toBeNull();
  });
});
