import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client';
import { describeError } from '../src/api/errors';
import { de } from '../src/i18n/de';
import { en } from '../src/i18n/en';
import { detectLang, format, translator } from '../src/i18n/i18n';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  it('has every German key in English and no extra ones', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(de).sort());
  });
  it('uses the same placeholders in both languages', () => {
    for (const key of Object.keys(de) as (keyof typeof de)[]) {
      expect({ key, vars: placeholders(en[key]) }).toEqual({ key, vars: placeholders(de[key]) });
    }
  });
  it('has no empty text', () => {
    for (const dict of [de, en])
      for (const [key, text] of Object.entries(dict))
        expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
  });
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(format('{a} und {b}', { a: 1 })).toBe('1 und {b}');
  });
});

describe('language choice', () => {
  it('follows a stored choice first, then the browser, else German', () => {
    expect(detectLang('en', ['de-DE'])).toBe('en');
    expect(detectLang(null, ['fr-FR', 'en-US'])).toBe('en');
    expect(detectLang(null, ['fr-FR'])).toBe('de');
    expect(detectLang('xx', ['de-AT'])).toBe('de');
  });
});

describe('error messages', () => {
  const t = translator('de');
  it('leads with what kind of problem it is and keeps the API detail with the field label', () => {
    expect(describeError(new ApiError(400, 'gtin must have 8, 12, 13 or 14 digits'), t)).toBe(
      'Die Eingabe wurde nicht angenommen: GTIN/EAN must have 8, 12, 13 or 14 digits.',
    );
  });
  it('says plainly when the server lacks an operation', () => {
    expect(describeError(new ApiError(404, 'route not found', true), t)).toBe(de['err.unsupported']);
  });
  it('never shows internals for a 500, only the request reference', () => {
    expect(describeError(new ApiError(500, 'internal error, request id r-1'), t)).toContain(
      '(internal error, request id r-1)',
    );
  });
  it('explains a network failure', () => {
    expect(describeError(new ApiError(0, 'network'), t)).toBe(de['err.network']);
  });
});
