import { describe, expect, it } from 'vitest';
import {
  catalogLanguages,
  contentLanguageOf,
  draftChanged,
  gapLanguages,
  languageName,
  languagesBody,
  toggleEnabled,
  translationLanguages,
  translationPatch,
} from '../src/lib/content-language';

const saved = { languages: ['deu', 'eng'], defaultLanguage: 'deu' };
const catalog = { language: 'deu', languages: ['deu', 'eng', 'fra'] };

describe("the administration's language list", () => {
  it('enables a language once and disables any but the default', () => {
    const withFra = toggleEnabled(saved, 'fra', true);
    expect(withFra.languages).toEqual(['deu', 'eng', 'fra']);
    expect(toggleEnabled(withFra, 'fra', true)).toBe(withFra);
    expect(toggleEnabled(withFra, 'eng', false).languages).toEqual(['deu', 'fra']);
    // The default stays: SetLanguages needs it among the languages.
    expect(toggleEnabled(withFra, 'deu', false)).toBe(withFra);
  });

  it('sends the default first and knows when nothing changed', () => {
    expect(languagesBody({ languages: ['eng', 'fra', 'deu'], defaultLanguage: 'fra' })).toEqual({
      defaultLanguage: 'fra',
      languages: ['fra', 'eng', 'deu'],
    });
    expect(draftChanged(saved, { languages: ['eng', 'deu'], defaultLanguage: 'deu' })).toBe(false);
    expect(draftChanged(saved, { languages: ['deu', 'eng'], defaultLanguage: 'eng' })).toBe(true);
    expect(draftChanged(saved, { languages: ['deu', 'fra'], defaultLanguage: 'deu' })).toBe(true);
    expect(draftChanged(saved, { languages: ['deu'], defaultLanguage: 'deu' })).toBe(true);
  });
});

describe("a catalog's languages", () => {
  it('puts the default first, each language once', () => {
    expect(catalogLanguages('eng', ['deu', 'eng', 'fra', 'deu'])).toEqual(['eng', 'deu', 'fra']);
    expect(catalogLanguages('deu', [])).toEqual(['deu']);
  });

  it('shows a requested language only when the catalog publishes it', () => {
    expect(contentLanguageOf('eng', catalog)).toBe('eng');
    expect(contentLanguageOf('ita', catalog)).toBe('deu');
    expect(contentLanguageOf(null, catalog)).toBe('deu');
    expect(contentLanguageOf('', catalog)).toBe('deu');
    expect(translationLanguages(catalog)).toEqual(['eng', 'fra']);
  });

  it("limits the gap languages to a member's language scope, and to none the catalog does not publish", () => {
    expect(gapLanguages(catalog, [])).toEqual(['eng', 'fra']);
    expect(gapLanguages(catalog, ['fra'])).toEqual(['fra']);
    expect(gapLanguages(catalog, ['fra', 'ita'])).toEqual(['fra']);
    expect(gapLanguages(catalog, ['ita'])).toEqual([]);
  });

  it('names a language by its own name and code, an unknown one by its code', () => {
    const known = [{ code: 'eng', nativeName: 'English' }];
    expect(languageName('eng', known)).toBe('English (eng)');
    expect(languageName('xyz', known)).toBe('xyz');
  });
});

describe('the translation patch UpdateProduct gets', () => {
  it('carries only changed fields, an emptied text as null (removes it)', () => {
    const original = { name: 'Cable', description: 'Old text', keywords: null };
    expect(translationPatch(original, { name: 'Cable', description: '  ', keywords: 'cable, copper' })).toEqual({
      description: null,
      keywords: 'cable, copper',
    });
  });

  it('sends nothing when nothing changed, an empty field that was missing included', () => {
    expect(translationPatch({ name: 'Cable', description: null }, { name: 'Cable', description: '' })).toBeNull();
    expect(translationPatch({}, { name: '' })).toBeNull();
  });
});
