import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { attributes } from '../../db/schema';
import { localizeTexts, type ReadLanguage } from './read-language';
import { attributeField, type ElementTranslations, readTranslations } from '../../model/translation-store';

/**
 * The product, variant, value and media outputs in a read's language (docs/languages.md,
 * "REST"): the texts a DTO carries replaced by that language's, missing ones null and named.
 */

interface ProductTexts {
  name: string | null;
  description: string | null;
  keywords: string | null;
}

/** A product DTO in the read's language, with `language`, `missingTranslations` (and `translations`). */
export function localizedProduct<T extends ProductTexts>(read: ReadLanguage, out: T, stored?: ElementTranslations) {
  const { texts, ...rest } = localizeTexts(
    read,
    { name: out.name, description: out.description, keywords: out.keywords },
    stored,
  );
  return { ...out, ...texts, ...rest };
}

/** The codes of the company's localizable (text) attributes: few, read once per request. */
export async function localizableCodes(db: Database, companyId: string): Promise<Set<string>> {
  const rows = await db
    .select({ code: attributes.code })
    .from(attributes)
    .where(and(eq(attributes.companyId, companyId), eq(attributes.localizable, true)));
  return new Set(rows.map((r) => r.code));
}

interface ValueOut {
  code: string;
  type: string;
  value: string | null;
  unit: string | null;
}

/**
 * Attribute values in the read's language: a localizable attribute's value is its translation
 * (null when missing, and `values.<code>` joins the element's `missingTranslations`); every other
 * value is language-neutral and shown as stored.
 */
export function localizedValues(
  read: ReadLanguage,
  values: ValueOut[],
  stored: ElementTranslations | undefined,
  localizable: Set<string>,
): { values: ValueOut[]; missing: string[] } {
  if (read.language === read.catalogDefault) return { values, missing: [] };
  const own = stored?.[read.language] ?? {};
  const missing: string[] = [];
  const out = values.map((v) => {
    if (!localizable.has(v.code)) return v;
    const field = attributeField(v.code);
    const text = own[field] ?? null;
    if (text === null && v.value) missing.push(field);
    return { ...v, value: text };
  });
  return { values: out, missing };
}

/** A media entry's description in the read's language (`descriptions`: language -> text, other languages). */
export function localizedMedia<T extends { description: string | null }>(
  read: ReadLanguage,
  item: T,
  descriptions: Record<string, string> | undefined,
) {
  const stored: ElementTranslations = {};
  for (const [lang, text] of Object.entries(descriptions ?? {})) stored[lang] = { description: text };
  const { texts, ...rest } = localizeTexts(read, { description: item.description }, stored);
  return { ...item, ...texts, ...rest };
}

/** The translations a read of these elements shows, in one statement: none for a default-language read without `languages=all`. */
export function translationsFor(db: Database, read: ReadLanguage, ids: string[]) {
  const languages = [...new Set([read.language, ...read.others])].filter((l) => l !== read.catalogDefault);
  return readTranslations(db, ids, languages);
}

/**
 * For elements read in a list (categories): their translations read once, then a function that
 * gives one element's texts in the read's language with `language` and `missingTranslations`.
 */
export async function textLocalizer(db: Database, read: ReadLanguage, ids: string[]) {
  const stored = await translationsFor(db, read, ids);
  return <F extends string>(id: string, texts: Record<F, string | null>) => {
    const { texts: localized, ...rest } = localizeTexts(read, texts, stored.get(id));
    return { ...localized, ...rest };
  };
}
