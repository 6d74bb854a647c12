import type { ElementTranslations } from '../../model/translation-store';
import type { ExportWarnings } from '../export-warnings';
import { planLanguages } from '../bmecat/localized-out';
import type { XChangePlan } from './xchange-plan';

/**
 * Languages in xChange exports (docs/languages.md "Exports"): the catalogue's `Language` lists
 * every language of the file as BCP 47, the default first, and every multilingual array
 * (ProductDescriptions, ItemDescriptions, AttachmentDescription, EtimValueDetails) holds one
 * entry per language that has a text. A missing translation is left out of that language and
 * reported, as the BMEcat export does; it is never filled from another language.
 */

/** The ISO 639-2 code of each language of the file, in the order of `plan.languageTags`. */
export const xchangeLanguages = (plan: XChangePlan): string[] => planLanguages(plan).slice(0, plan.languageTags.length);

/**
 * One entry per language of the file (`texts[i]` is in the file's i-th language): languages
 * without a text are left out, and reported when the default language has one.
 */
export function perLanguage<T>(
  plan: XChangePlan,
  texts: (string | null | undefined)[],
  element: string,
  subject: string,
  w: ExportWarnings,
  entry: (text: string, tag: string, index: number) => T,
): T[] {
  const codes = xchangeLanguages(plan);
  const out: T[] = [];
  plan.languageTags.forEach((tag, i) => {
    const text = texts[i];
    if (text) out.push(entry(text, tag, i));
    else if (i > 0 && texts[0]) w.add(`${element} has no ${codes[i]} translation: left out in ${codes[i]}`, subject);
  });
  return out;
}

/**
 * The text of a translation field in each language of the file, looked up in `sources` in
 * order (a variant's own translations, then its master's for what it inherits).
 */
export function fieldTexts(
  plan: XChangePlan,
  sources: (ElementTranslations | undefined)[],
  field: string,
): (string | null)[] {
  return xchangeLanguages(plan).map((code) => {
    for (const s of sources) {
      const text = s?.[code]?.[field];
      if (text) return text;
    }
    return null;
  });
}
