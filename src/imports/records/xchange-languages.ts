import { parseLanguage } from '../../kernel/languages';
import type { FileLanguages } from '../read/file-languages';

type Json = Record<string, any>;

/**
 * The languages of an ETIM xChange file (docs/languages.md "Imports"). Every multilingual array
 * entry names its language as BCP 47 (`DescriptionLanguage` or `Language`: `de-DE`), read with
 * parseLanguage as the BMEcat import reads `lang`; an entry without one is in the catalog's
 * default language. The validation pass tallies them per product, so a language the company has
 * not enabled fails the import or is skipped (`languagesNotEnabled`) as in BMEcat
 * (file-languages.ts `decideLanguages`).
 */

/** How a record reads languages; `legacy`: a job started before xChange kept languages (the catalog's only). */
export type XChangeLanguages = FileLanguages & { legacy?: boolean };

/** The stored code of an entry's language (the form written, lowercase, when it names no language). */
function codeOf(entry: Json, key: string, languages: XChangeLanguages): string {
  const written = typeof entry[key] === 'string' ? entry[key].trim() : '';
  if (!written) return languages.fileDefault;
  return parseLanguage(written) ?? written.toLowerCase();
}

/**
 * The entries of a multilingual array by language: the catalog's default language's (`own`)
 * and every other kept language's, the first entry of each language, skipped languages left out.
 */
export function xchangeTexts(
  entries: Json[],
  key: string,
  languages: XChangeLanguages,
): { own: Json | undefined; others: [string, Json][] } {
  const byCode = new Map<string, Json>();
  for (const entry of entries) {
    const code = codeOf(entry, key, languages);
    if (!byCode.has(code)) byCode.set(code, entry);
  }
  const own = byCode.get(languages.catalogLanguage);
  byCode.delete(languages.catalogLanguage);
  const others = languages.legacy ? [] : [...byCode].filter(([code]) => !languages.skip.includes(code));
  return { own, others };
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

/** Every language a Product's multilingual arrays name, as written (`''`: none), for the validation pass's tally. */
export function xchangeLanguagesOf(product: Json): string[] {
  const out = new Set<string>();
  const add = (entries: Json[], key: string) => {
    for (const e of entries) out.add(typeof e[key] === 'string' ? e[key].trim() : '');
  };
  const attachments = (value: unknown) => {
    for (const a of list(value))
      for (const d of list(a.AttachmentDetails)) add(list(d.AttachmentDescription), 'Language');
  };
  add(list(product.ProductDetails?.ProductDescriptions), 'DescriptionLanguage');
  attachments(product.ProductAttachments);
  for (const c of list(product.EtimClassification))
    for (const f of list(c.EtimFeatures)) add(list(f.EtimValueDetails), 'Language');
  for (const item of list(product.TradeItem)) {
    add(list(item.ItemDetails?.ItemDescriptions), 'DescriptionLanguage');
    attachments(item.ItemAttachments);
  }
  return [...out];
}
