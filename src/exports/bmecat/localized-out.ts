import type { ElementTranslations } from '../../model/translation-store';
import type { ExportWarnings } from '../export-warnings';
import type { BmecatPlan } from './plan';
import { textEl } from './xml-text';

/**
 * Languages in BMEcat exports (docs/languages.md "Exports"): the HEADER lists the file's
 * languages, the default first with `default="true"`, and every localizable element is written
 * once per language with `lang` (dtMLSTRING in the 2005 and ETIM schemas). A file of one
 * language writes its elements without `lang`, as before languages existed.
 */

/** The file's languages, its default first (plans of older jobs carry only `language`). */
export const planLanguages = (plan: BmecatPlan): string[] => plan.languages ?? [plan.language];

/** The language the elements' own columns hold. */
export const columnLanguage = (plan: BmecatPlan): string => plan.catalogLanguage ?? plan.language;

/** One LANGUAGE element per language of the file, `default="true"` on the first. */
export function languageElements(plan: BmecatPlan): string[] {
  return planLanguages(plan).map((l, i) => textEl('LANGUAGE', l, i === 0 ? { default: 'true' } : undefined));
}

/**
 * A field of an element in one language: the column for the catalog's default language, the
 * translation for any other (null when missing: never another language's text).
 */
export function textIn(
  plan: BmecatPlan,
  language: string,
  own: string | null | undefined,
  translations: ElementTranslations | undefined,
  field: string,
): string | null {
  if (language === columnLanguage(plan)) return own ?? null;
  return translations?.[language]?.[field] ?? null;
}

/**
 * One element per language with its `lang` (without it in a one-language file). A language
 * whose text is missing is left out and reported, except where the element is required:
 * `fallback` then fills the file's default language.
 */
export function localizedElements(
  plan: BmecatPlan,
  element: string,
  texts: { language: string; text: string | null }[],
  subject: string,
  w: ExportWarnings,
): string {
  const several = planLanguages(plan).length > 1;
  return texts
    .map(({ language, text }, i) => {
      if (!text) {
        if (i > 0 && texts[0]!.text)
          w.add(`${element} has no ${language} translation: left out in ${language}`, subject);
        return '';
      }
      return textEl(element, text, several ? { lang: language } : undefined);
    })
    .join('');
}
