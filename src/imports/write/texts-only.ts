import type { UpsertRecord } from '../../catalog/upsert/upsert-types';

/**
 * A texts-only import (`mode: "texts"`, docs/teams.md "Language scope"): the file's products
 * are read as ever, and of each record only its texts in the writer's languages are kept: the
 * name, description and keywords in the catalog's default language (the columns) when that
 * language is the writer's, and every translation (`name`, `description`, `keywords`,
 * `values.<localizable attribute>`, `details.*`) of the writer's other languages: what
 * `UpdateProduct`'s `translations` lets a translator write. Everything else is left out and
 * named once per field in the job's warnings (`ignoredField`), never per row.
 */
export interface TextsOnly {
  /** The languages the writer may write; null: every language. */
  languages: readonly string[] | null;
}

/** The record's columns that hold a text in the catalog's default language. */
const TEXT_COLUMNS = ['name', 'description', 'keywords'] as const;

/** The warning a texts-only import gives once per field of the file it leaves out. */
export const ignoredField = (field: string) => `texts-only import: ${field} ignored`;

/**
 * The record with its texts in the writer's languages alone, and the names of what it leaves
 * out (fields, `categories`, `values`, ..., and `texts in <language>` for a language not the writer's).
 */
export function textsOfRecord(
  record: UpsertRecord,
  catalogLanguage: string,
  texts: TextsOnly,
  placed: boolean,
): { record: UpsertRecord; ignored: string[] } {
  const may = (language: string) => texts.languages === null || texts.languages.includes(language);
  const ignored = new Set<string>();
  const fields: UpsertRecord['fields'] = {};
  for (const [field, value] of Object.entries(record.fields)) {
    if (value === undefined) continue;
    const text = (TEXT_COLUMNS as readonly string[]).includes(field);
    if (text && may(catalogLanguage)) fields[field as (typeof TEXT_COLUMNS)[number]] = value;
    else ignored.add(text ? `texts in ${catalogLanguage}` : field);
  }
  const translations: NonNullable<UpsertRecord['translations']> = {};
  for (const [language, byField] of Object.entries(record.translations ?? {})) {
    if (!may(language)) {
      ignored.add(`texts in ${language}`);
      continue;
    }
    // the default language's attribute texts live in `values`, which replace an element's values whole: left out
    const kept = Object.entries(byField).filter(
      ([field]) =>
        language !== catalogLanguage ||
        (TEXT_COLUMNS as readonly string[]).includes(field) ||
        field.startsWith('details.'),
    );
    if (kept.length < Object.keys(byField).length) ignored.add('values');
    if (kept.length > 0) translations[language] = Object.fromEntries(kept);
  }
  if (placed || record.categoryIds !== undefined) ignored.add('categories');
  for (const part of ['values', 'classification', 'media', 'prices', 'references', 'udx', 'featureBlocks'] as const)
    if (record[part] !== undefined && record[part] !== null) ignored.add(part);
  return {
    record: {
      sku: record.sku,
      parentSku: record.parentSku ?? null,
      fields,
      ...(Object.keys(translations).length > 0 ? { translations } : {}),
    },
    ignored: [...ignored],
  };
}
