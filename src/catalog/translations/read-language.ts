import { z } from 'zod';
import type { Database } from '../../db/client';
import { badRequest } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { assertEnabled, readCompanyLanguages } from '../../model/company-languages';
import type { ElementTranslations, FieldTexts } from '../../model/translation-store';

/**
 * The language of a read (docs/languages.md, "REST"): `language=` names one enabled language
 * (default: the catalog's default), `languages=all` adds every other language of the catalog as
 * `translations`. Shared by the product, variant, category and media reads, REST and agents.
 */
export const LanguageQuery = {
  language: z
    .string()
    .max(8)
    .optional()
    .describe("The language of the texts (ISO 639-2 code such as eng); default: the catalog's default language"),
  languages: z
    .literal('all', { error: 'languages must be all' })
    .optional()
    .describe('all: also every other language of the catalog, as `translations`'),
};
export interface LanguageQueryInput {
  language?: string;
  languages?: 'all';
}

/** What every localized output carries (optional: writes answer without them). */
export const LocalizedOut = {
  /** The language the texts are in. */
  language: z.string().optional(),
  /** Fields with a default-language text but none in `language` (the field is then null). */
  missingTranslations: z.array(z.string()).optional(),
  /** With `languages=all`: the catalog's other languages, language -> field -> text. */
  translations: z.record(z.string(), z.record(z.string(), z.string())).optional(),
};

/** A read's language, resolved against the company and the catalog. */
export interface ReadLanguage {
  language: string;
  catalogDefault: string;
  /** The catalog's languages other than its default when `languages=all`, else none. */
  others: string[];
}

/** Resolves `language=` / `languages=all` for a read of one catalog: 400 naming `language` unless enabled. */
export async function readLanguageFor(
  db: Database,
  caller: Pick<Caller, 'companyId'>,
  catalog: { language: string; languages: string[] },
  query: LanguageQueryInput,
): Promise<ReadLanguage> {
  const language = query.language ?? catalog.language;
  if (query.language !== undefined) {
    if (query.language.trim() === '') throw badRequest('language must not be empty');
    assertEnabled(await readCompanyLanguages(db, caller), language, 'language');
  }
  return {
    language,
    catalogDefault: catalog.language,
    others: query.languages === 'all' ? catalog.languages.filter((l) => l !== catalog.language) : [],
  };
}

/**
 * One element's texts in the read's language. `texts` are its default-language texts (its
 * columns); a field of another language is its translation or null, never the default's text,
 * and is listed in `missingTranslations` when the default has a text. `translations` appears
 * only with `languages=all`.
 */
export function localizeTexts<F extends string>(
  read: ReadLanguage,
  texts: Record<F, string | null>,
  stored: ElementTranslations | undefined,
): {
  texts: Record<F, string | null>;
  language: string;
  missingTranslations: string[];
  translations?: Record<string, FieldTexts>;
} {
  const fields = Object.keys(texts) as F[];
  const missingTranslations: string[] = [];
  let out = texts;
  if (read.language !== read.catalogDefault) {
    const own = stored?.[read.language] ?? {};
    out = {} as Record<F, string | null>;
    for (const field of fields) {
      out[field] = own[field] ?? null;
      if (out[field] === null && texts[field]) missingTranslations.push(field);
    }
  }
  const result = { texts: out, language: read.language, missingTranslations };
  if (read.others.length === 0) return result;
  const translations: Record<string, FieldTexts> = {};
  for (const lang of read.others) translations[lang] = { ...(stored?.[lang] ?? {}) };
  return { ...result, translations };
}

/**
 * 400 naming `field` unless `language` is enabled for the company and other than the catalog's
 * default among the languages it publishes (a filter on a language the catalog does not
 * publish would answer "nothing missing", which is not true).
 */
export async function assertPublished(
  db: Database,
  caller: Pick<Caller, 'companyId'>,
  catalog: { language: string; languages: string[] },
  language: string,
  field: string,
): Promise<void> {
  assertEnabled(await readCompanyLanguages(db, caller), language, field);
  if (language === catalog.language)
    throw badRequest(`${field}: ${language} is the catalog's default language, whose texts are never missing`);
  if (!catalog.languages.includes(language))
    throw badRequest(`${field}: the catalog does not publish ${language}; add it to the catalog's languages`);
}
