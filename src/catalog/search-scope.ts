import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { Caller } from '../kernel/caller';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';

/**
 * Which documents of the search index a search reads (migration 0024, docs/search.md
 * "Languages"): a product's own document (its catalog's default language, plus its identifiers
 * and its variants' documents) has docid = the product's rowid; its translated name and keywords
 * in another language are one document with docid = language number * 2^36 + rowid, so each
 * language's documents are one docid range and docid % 2^36 is the product's rowid.
 *
 * - `any`: every document (a search without `language`); `translated`, when known, lists the
 *   catalog's languages besides its default, so a check can skip those of them whose documents
 *   hold no match at all (`absentLanguages`, product-list-source.ts);
 * - `own`: the products' own documents (`language` = the catalog's default);
 * - `lang`: one other language's documents (`language` = that one).
 */
export type SearchScope =
  | { kind: 'any'; translated?: readonly string[] }
  | { kind: 'own' }
  | { kind: 'lang'; base: number };

/** Docids of the products' own documents are below this; a translated document's product is docid % DOC_SPAN. */
export const DOC_SPAN = 2 ** 36;
/**
 * An integer in SQL, written into the statement: D1 binds a JavaScript number as a REAL, and
 * `docid / ?` would then divide as a real number.
 */
export const int = (n: number): SQL => {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return sql.raw(String(n));
};
/** DOC_SPAN in SQL. */
export const SPAN = int(DOC_SPAN);

export const ANY_LANGUAGE: SearchScope = { kind: 'any' };

/** A language's number: its three letters a-z as base-32 digits (as migration 0024's triggers compute it). */
export function languageNumber(code: string): number {
  if (!/^[a-z]{3}$/.test(code)) throw new Error(`not a three-letter language code: ${code}`);
  return [...code].reduce((n, c) => n * 32 + (c.charCodeAt(0) - 96), 0);
}

/**
 * The scope of a search in `language` (undefined: every language) of a catalog whose default is
 * `catalogLanguage` and which publishes `catalogLanguages`.
 */
export function searchScope(
  language: string | undefined,
  catalogLanguage: string,
  catalogLanguages: readonly string[] = [],
): SearchScope {
  if (language === undefined) {
    const translated = catalogLanguages.filter((l) => l !== catalogLanguage && /^[a-z]{3}$/.test(l));
    return translated.length > 0 ? { kind: 'any', translated } : ANY_LANGUAGE;
  }
  if (language === catalogLanguage) return { kind: 'own' };
  return { kind: 'lang', base: languageNumber(language) * DOC_SPAN };
}

/** The docid range condition of a scope on the FTS alias `f` (a rowid range FTS5 answers while matching). */
export function scopeRange(scope: SearchScope, docid: SQL): SQL {
  if (scope.kind === 'own') return sql`${docid} < ${SPAN}`;
  if (scope.kind === 'lang') return sql`${docid} >= ${int(scope.base)} AND ${docid} < ${int(scope.base + DOC_SPAN)}`;
  return sql`1`;
}

/** The SQL of a language's number from a column of language codes (as migration 0024 computes it). */
export const languageNumberSql = (lang: SQL) =>
  sql`((unicode(substr(${lang}, 1, 1)) - 96) * 1024 + (unicode(substr(${lang}, 2, 1)) - 96) * 32 + (unicode(substr(${lang}, 3, 1)) - 96))`;

/**
 * The scope of a search with `language` in a catalog: 400 naming the field for a code that is no
 * language, or one neither the catalog publishes nor the company has enabled.
 */
export async function resolveSearchScope(
  db: Database,
  tenant: Caller,
  catalog: { language: string; languages: string[] },
  language: string | undefined,
): Promise<SearchScope> {
  if (language !== undefined && !catalog.languages.includes(language))
    assertEnabled(await readCompanyLanguages(db, tenant), language, 'searchLanguage');
  return searchScope(language, catalog.language, catalog.languages);
}
