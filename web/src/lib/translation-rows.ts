/**
 * The rows of the editor's side-by-side translation (docs/languages.md): each localizable text of
 * a product with its default-language text on the left, its text in the chosen language on the
 * right, and whether that translation is missing (the API's `missingTranslations`).
 */

/** The product's localizable built-in fields, by their API names. */
export const TEXT_FIELDS = ['name', 'keywords', 'description'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

const VALUES = 'values.';

interface Value {
  code: string;
  value: string | null;
}
/** What a product read carries that the rows need (default-language read and translated read). */
interface Read {
  name: string | null;
  description: string | null;
  keywords: string | null;
  values: readonly Value[];
  missingTranslations?: readonly string[];
  translations?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface TranslationRow {
  /** `name`, `description`, `keywords` or `values.<attribute code>`. */
  field: string;
  /** The attribute code of a `values.` row (written through SetValue with `language`). */
  code?: string;
  source: string;
  target: string;
  missing: boolean;
}

/**
 * The localizable attributes the form shows: the company's (GetAttributes `localizable`) and any
 * the translated answer names, missing or translated in some language (so a translation stored
 * before an attribute stopped being localizable is still seen).
 */
export function localizableCodes(translated: Read, declared: readonly string[] = []): string[] {
  const codes = new Set<string>(declared);
  for (const field of translated.missingTranslations ?? [])
    if (field.startsWith(VALUES)) codes.add(field.slice(VALUES.length));
  for (const texts of Object.values(translated.translations ?? {}))
    for (const field of Object.keys(texts)) if (field.startsWith(VALUES)) codes.add(field.slice(VALUES.length));
  return [...codes].sort();
}

export function translationRows(source: Read, translated: Read, declared: readonly string[] = []): TranslationRow[] {
  const missing = new Set(translated.missingTranslations ?? []);
  const rows: TranslationRow[] = TEXT_FIELDS.map((field) => ({
    field,
    source: source[field] ?? '',
    target: translated[field] ?? '',
    missing: missing.has(field),
  }));
  for (const code of localizableCodes(translated, declared)) {
    const field = `${VALUES}${code}`;
    rows.push({
      field,
      code,
      source: source.values.find((v) => v.code === code)?.value ?? '',
      target: translated.values.find((v) => v.code === code)?.value ?? '',
      missing: missing.has(field),
    });
  }
  return rows;
}

/** How many translations the rows still miss (the summary above the form). */
export const missingCount = (rows: readonly TranslationRow[]) => rows.filter((r) => r.missing).length;
