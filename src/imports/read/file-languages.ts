import { languageOf, parseLanguage } from '../../kernel/languages';
import type { CompanyLanguages } from '../../model/company-languages';
import { ImportFileError } from './text-chunks';
import type { XmlNode } from './xml-node';

/**
 * The languages of a BMEcat file (docs/import.md "Languages"): a localizable element names its
 * language with `lang` (BMEcat 2005), or takes the HEADER's default LANGUAGE (`default="true"`,
 * or the only one: BMEcat 1.2). Every code form is read with parseLanguage (`deu`, `ger`, `de`,
 * `de-DE`). The catalog's default language goes to the columns, every other to translations;
 * a language the company has not enabled fails the import or is skipped (`languagesNotEnabled`).
 */

/** Elements whose text is in one language; their `lang` (or its absence) is tallied by the validation pass. */
export const LOCALIZED_ELEMENTS: ReadonlySet<string> = new Set([
  'DESCRIPTION_SHORT',
  'DESCRIPTION_LONG',
  'KEYWORD',
  'MIME_DESCR',
  'FVALUE_DETAILS',
  'GROUP_NAME',
  'GROUP_DESCRIPTION',
]);

/** What to do with texts in a language the company has not enabled. */
export const LANGUAGES_NOT_ENABLED = ['fail', 'skip'] as const;
export type LanguagesNotEnabled = (typeof LANGUAGES_NOT_ENABLED)[number];

/** How an import reads the file's languages, kept in its checkpoint. */
export interface FileLanguages {
  /** The language of unlabelled elements: the HEADER's default LANGUAGE as written, else the catalog's. */
  fileDefault: string;
  /** The catalog's default language: its texts go to the columns. */
  catalogLanguage: string;
  /** Languages (codes, or the form written when it names none) whose texts are left out. */
  skip: string[];
}

/**
 * The HEADER's default LANGUAGE as written (`default="true"`, else the first), from the file's
 * head; null when the header names none. The head holds the header in every dialect.
 */
export function headerLanguage(head: string): string | null {
  const header = head.slice(0, head.search(/<\/(?:[\w.-]+:)?HEADER\s*>/) >>> 0);
  const found = [...header.matchAll(/<(?:[\w.-]+:)?LANGUAGE\b([^>]*)>\s*([^<\s]{1,16})\s*</g)];
  const chosen = found.find((m) => /\bdefault\s*=\s*["']true["']/.test(m[1]!)) ?? found[0];
  return chosen ? chosen[2]! : null;
}

/** The stored code of a language as a file writes it, or the form written (lowercase) when it names no language. */
export const languageOfWritten = (written: string): string => parseLanguage(written) ?? written.trim().toLowerCase();

/** The stored code of an element's language, or the form written (lowercase) when it names no language. */
export function languageOfElement(node: XmlNode, fileDefault: string): string {
  return languageOfWritten(node.attrs.lang?.trim() || fileDefault);
}

/** Languages of the localizable elements below a fully read node (`''`: unlabelled), for the tally. */
export function languagesBelow(node: XmlNode, out = new Set<string>()): Set<string> {
  for (const c of node.children) {
    if (LOCALIZED_ELEMENTS.has(c.name)) out.add(c.attrs.lang?.trim() ?? '');
    languagesBelow(c, out);
  }
  return out;
}

/** A record's languages as the tally counts them: each once, by code (`de` and `deu` are one), `''` for unlabelled. */
export function languagesOfRecord(written: readonly string[]): Set<string> {
  return new Set(written.map((w) => (w ? languageOfWritten(w) : '')));
}

const describe = (code: string) => {
  const language = languageOf(code);
  return language ? `${language.name} (${code})` : `"${code}" (no ISO 639 language)`;
};

/**
 * Decides the file's languages after the validation pass counted them (`seen`: the language
 * as written, `''` for unlabelled, to the number of records using it). Fails the import with
 * one grouped reason for every language not enabled, unless `mode` is skip: then those
 * languages are skipped and each gets a warning with its count.
 */
export function decideLanguages(
  settings: CompanyLanguages,
  seen: Record<string, { count: number; example: string }>,
  plan: Omit<FileLanguages, 'skip'>,
  mode: LanguagesNotEnabled,
): { languages: FileLanguages; warnings: { message: string; count: number; example: string }[] } {
  // Unlabelled texts are in the file's default language (a record with both counts twice there: rare, and only a count).
  const byCode = new Map<string, { count: number; example: string }>();
  for (const [written, { count, example }] of Object.entries(seen)) {
    const code = written || (parseLanguage(plan.fileDefault) ?? plan.fileDefault.toLowerCase());
    byCode.set(code, { count: (byCode.get(code)?.count ?? 0) + count, example: byCode.get(code)?.example ?? example });
  }
  const refused = [...byCode].filter(([code]) => !settings.languages.includes(code));
  if (refused.length > 0 && mode === 'fail')
    throw new ImportFileError(
      `the file has texts in languages not enabled for your company: ${refused
        .map(([code, { count, example }]) => `${describe(code)} in ${count} record(s), first at ${example}`)
        .join(
          ', ',
        )}. An admin enables them under Languages, or start the import with languagesNotEnabled: skip to leave those texts out`,
    );
  return {
    languages: { ...plan, skip: refused.map(([code]) => code) },
    warnings: refused.map(([code, { count, example }]) => ({
      message: `texts in ${describe(code)} left out: the language is not enabled for your company`,
      count,
      example,
    })),
  };
}

/**
 * The texts of `elements` by language, skipped languages left out: language -> texts in file
 * order. Empty texts are dropped.
 */
export function textsByLanguage(elements: XmlNode[], languages: FileLanguages): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of elements) {
    const text = e.text.trim();
    if (!text) continue;
    const code = languageOfElement(e, languages.fileDefault);
    if (languages.skip.includes(code)) continue;
    const texts = out.get(code);
    if (texts) texts.push(text);
    else out.set(code, [text]);
  }
  return out;
}
