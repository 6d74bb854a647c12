/**
 * Turning a user's search text into an FTS5 MATCH expression for `products_fts` (see
 * docs/search.md). User text never reaches FTS5 as syntax: every word becomes one quoted
 * string, so quotes, `*`, `^`, `:`, parentheses, NEAR, AND/OR/NOT and NUL are plain text.
 */

/** Words beyond this are ignored: a search box never needs more, and each word costs a lookup. */
const MAX_WORDS = 12;

/** True when the word contains something the tokenizer indexes (letters or digits of any script). */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/**
 * The MATCH expression for `q`, or null when `q` holds nothing searchable.
 *
 * Each whitespace-separated word becomes a quoted phrase with a prefix star: FTS5 splits the
 * phrase with the table's tokenizer, so `GEN-00012` becomes the phrase `gen 00012*` (the SKU
 * prefix, adjacent tokens) and `schütz` finds `Schutz` and `SCHÜTZ` alike. Words are ANDed.
 */
export function ftsMatchExpression(q: string): string | null {
  const words = q
    .normalize('NFKC')
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/u)
    .filter((w) => SEARCHABLE.test(w))
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return words.map((w) => `"${w.replace(/"/g, '""')}"*`).join(' ');
}
