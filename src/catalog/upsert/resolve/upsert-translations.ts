import { localizedPath } from '../../../kernel/languages';
import type { Snapshot } from '../../../records/snapshot';
import { builtInField } from '../../../model/fields';
import type { ProductNode } from '../../../model/product-aggregate';
import type { ElementTranslations } from '../../../model/translation-store';
import type { ReferenceCache } from './reference-cache';
import { parse, type WarnFn } from './resolve-classification';
import { ItemError, type RecordTranslations, type ResolvedNode, type UpsertRecord } from '../upsert-types';

/**
 * The translations of an upsert (docs/languages.md): `language -> field -> text | null` per
 * product and variant, beside the fields that hold the catalog's default language. A field a
 * language leaves out is left alone; null (or '') removes that translation. These helpers are
 * the one place the upsert handles them: folding, checking, comparing and recording.
 */

/** Product and variant fields with a column that a translation may name (besides `values.<code>`, `details.*`). */
const TEXT_FIELDS = ['name', 'description', 'keywords'] as const;
const isTextField = (field: string): field is (typeof TEXT_FIELDS)[number] =>
  (TEXT_FIELDS as readonly string[]).includes(field);

/**
 * Moves what `translations` says for the catalog's default language into the record's own
 * fields and values (that language lives in the columns): the rule "writing the default
 * language through translations writes the column". A default-language `values.<code>` needs
 * the record's `values` (which replace the element's values as a whole) to land in.
 */
export function foldDefaultLanguage(record: UpsertRecord, defaultLanguage: string): UpsertRecord {
  const own = record.translations?.[defaultLanguage];
  if (!own) return record;
  const { [defaultLanguage]: _, ...others } = record.translations!;
  const fields = { ...record.fields };
  const values = record.values ? { ...record.values } : undefined;
  // A feature value's free text has no column: every language, the default too, stays a translation.
  const details: Record<string, string | null> = {};
  for (const [field, text] of Object.entries(own)) {
    if (field.startsWith('details.')) details[field] = text;
    else if (isTextField(field)) fields[field] = text;
    else if (field.startsWith('values.') && values) {
      const code = field.slice('values.'.length);
      if (text === null || text === '') delete values[code];
      else values[code] = text;
    } else
      throw new ItemError(
        `translations.${defaultLanguage}.${field}`,
        field.startsWith('values.')
          ? `${defaultLanguage} is the catalog's default language: give this value in values`
          : 'only name, description, keywords and values.<attribute> are localizable',
      );
  }
  const translations = Object.keys(details).length > 0 ? { ...others, [defaultLanguage]: details } : others;
  return { ...record, fields, values, translations };
}

/**
 * Checks a record's translations with the rules of the fields they translate: a text field's
 * length, a `values.<code>` of a localizable attribute of the company. Throws ItemError naming
 * `translations.<language>.<field>`; tolerant (`warn`), a bad translation is left out.
 */
export function resolveTranslations(
  cache: ReferenceCache,
  translations: RecordTranslations,
  warn?: WarnFn,
): NonNullable<ResolvedNode['translations']> {
  const out: NonNullable<ResolvedNode['translations']> = {};
  for (const [language, fields] of Object.entries(translations)) {
    const resolved: Record<string, string | null> = {};
    for (const [field, raw] of Object.entries(fields)) {
      const path = `translations.${language}.${field}`;
      const text = raw === null || raw.trim() === '' ? null : raw;
      try {
        if (isTextField(field)) {
          resolved[field] = text === null ? null : parse(path, text, builtInField('product', field)!.rule).value;
        } else if (field.startsWith('values.')) {
          const attribute = cache.attribute(field.slice('values.'.length));
          if (!attribute?.localizable)
            throw new ItemError(path, attribute ? 'the attribute is not localizable' : 'no attribute of your company');
          resolved[field] = text;
        } else if (field.startsWith('details.')) {
          resolved[field] = text;
        } else throw new ItemError(path, 'only name, description, keywords and values.<attribute> are localizable');
      } catch (err) {
        if (!warn || !(err instanceof ItemError)) throw err;
        warn(path, 'translation_invalid', `${err.message}: left out`);
      }
    }
    out[language] = resolved;
  }
  return out;
}

/** Whether writing `next` changes any stored translation of `existing` (same texts are unchanged). */
export function translationsChanged(next: ResolvedNode, existing: ProductNode | null): boolean {
  const stored = existing?.translations ?? {};
  return Object.entries(next.translations ?? {}).some(([language, fields]) =>
    Object.entries(fields).some(([field, text]) => (stored[language]?.[field] ?? null) !== text),
  );
}

/** The element's translations after the write: `existing`'s with `next`'s applied. */
export function translationsAfter(next: ResolvedNode, existing: ProductNode | null): ElementTranslations {
  const out: ElementTranslations = structuredClone(existing?.translations ?? {});
  for (const [language, fields] of Object.entries(next.translations ?? {}))
    for (const [field, text] of Object.entries(fields)) {
      if (text === null) delete out[language]?.[field];
      else (out[language] ??= {})[field] = text;
    }
  for (const [language, fields] of Object.entries(out)) if (Object.keys(fields).length === 0) delete out[language];
  return out;
}

/** Adds an element's translations to its history snapshot as `name@eng`, `values.colour@fra`. */
export function translationPaths(snapshot: Snapshot, translations: ElementTranslations | undefined): Snapshot {
  for (const [language, fields] of Object.entries(translations ?? {}))
    for (const [field, text] of Object.entries(fields)) snapshot[localizedPath(field, language)] = text;
  return snapshot;
}

/** The languages of `translations` whose texts differ from `existing`'s: what the write sends, per language. */
export function changedLanguages(
  next: ResolvedNode,
  existing: ProductNode | null,
): [string, Record<string, string | null>][] {
  const stored = existing?.translations ?? {};
  return Object.entries(next.translations ?? {}).flatMap(([language, fields]) => {
    const changed = Object.entries(fields).filter(([field, text]) => (stored[language]?.[field] ?? null) !== text);
    return changed.length > 0
      ? [[language, Object.fromEntries(changed)] as [string, Record<string, string | null>]]
      : [];
  });
}
