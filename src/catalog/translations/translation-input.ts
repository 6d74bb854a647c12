import type { BatchStatement, Database } from '../../db/client';
import { badRequest } from '../../kernel/app-error';
import { localizedPath } from '../../kernel/languages';
import { parseValue } from '../../kernel/value-types';
import type { Snapshot } from '../../records/snapshot';
import { builtInField } from '../../model/fields';
import type { CompanyLanguages } from '../../model/company-languages';
import { assertEnabled } from '../../model/company-languages';
import {
  type ElementTranslations,
  LOCALIZABLE_FIELDS,
  writeTranslationStatements,
} from '../../model/translation-store';

/** A write's `translations`: language -> field -> text (null removes). */
export type TranslationsPatch = Record<string, Record<string, string | null>>;

/** A checked `translations`: the default language's texts (for the columns) and the other languages'. */
export interface CheckedTranslations {
  columns: Record<string, string | null>;
  others: TranslationsPatch;
}

/**
 * Checks the `translations` of AddProduct / UpdateProduct / AddCategory / UpdateCategory before
 * anything is written (docs/languages.md, "REST"): each language enabled for the company (400
 * naming `translations.<code>`), each field localizable for the element (400 naming
 * `translations.<code>.<field>`), each text within its field's rule. The catalog's default
 * language goes to the columns; an empty text is null (removes).
 */
export function checkTranslations(
  settings: CompanyLanguages,
  catalogDefault: string,
  kind: 'product' | 'variant' | 'category',
  input: TranslationsPatch | null | undefined,
): CheckedTranslations {
  const checked: CheckedTranslations = { columns: {}, others: {} };
  const localizable: readonly string[] = LOCALIZABLE_FIELDS[kind];
  for (const [language, fields] of Object.entries(input ?? {})) {
    assertEnabled(settings, language, `translations.${language}`);
    const texts: Record<string, string | null> = {};
    for (const [field, text] of Object.entries(fields)) {
      const name = `translations.${language}.${field}`;
      if (!localizable.includes(field))
        throw badRequest(`${name}: not a localizable field of a ${kind} (${localizable.join(', ')})`);
      const { rule, required } = builtInField(kind, field)!;
      texts[field] = text === null || text === '' ? null : parseValue(name, text, rule).value;
      if (texts[field] === null && required && language === catalogDefault)
        throw badRequest(`${name}: must not be empty`);
    }
    if (language === catalogDefault) Object.assign(checked.columns, texts);
    else checked.others[language] = { ...(checked.others[language] ?? {}), ...texts };
  }
  return checked;
}

/** The default-language texts of `translations` merged into a write's own fields; 400 when both name a field. */
export function withColumnTexts<T extends Record<string, unknown>>(
  input: T,
  columns: Record<string, string | null>,
  language: string,
): T {
  const out: Record<string, unknown> = { ...input };
  for (const [field, text] of Object.entries(columns)) {
    if (input[field] !== undefined && input[field] !== null && input[field] !== text)
      throw badRequest(`translations.${language}.${field}: ${field} is also given, with another text`);
    out[field] = text;
  }
  return out as T;
}

/** The statements writing every other language of a checked `translations` (nothing else is touched). */
export function translationStatements(db: Database, elementId: string, others: TranslationsPatch): BatchStatement[] {
  return Object.entries(others).flatMap(([language, fields]) =>
    writeTranslationStatements(db, elementId, language, fields),
  );
}

/** An element's translations as history paths (`name@eng`): what a snapshot holds of them. */
export function translationPaths(stored: ElementTranslations | undefined, into: Snapshot = {}): Snapshot {
  for (const [language, fields] of Object.entries(stored ?? {}))
    for (const [field, text] of Object.entries(fields)) into[localizedPath(field, language)] = text;
  return into;
}

/** A patch of translations as history paths: a null removes the path (withChanges). */
export function translationPatchPaths(others: TranslationsPatch, into: Snapshot = {}): Snapshot {
  for (const [language, fields] of Object.entries(others))
    for (const [field, text] of Object.entries(fields)) into[localizedPath(field, language)] = text;
  return into;
}

/** Applies a patch of translations to stored ones (a node's, for the fingerprint after the write). */
export function patchedTranslations(stored: ElementTranslations | undefined, others: TranslationsPatch) {
  const out: ElementTranslations = {};
  for (const [language, fields] of Object.entries(stored ?? {})) out[language] = { ...fields };
  for (const [language, fields] of Object.entries(others)) {
    const texts = (out[language] ??= {});
    for (const [field, text] of Object.entries(fields)) {
      if (text === null) delete texts[field];
      else texts[field] = text;
    }
    if (Object.keys(texts).length === 0) delete out[language];
  }
  return out;
}
