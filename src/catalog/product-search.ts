/**
 * Turning a user's search text into FTS5 MATCH phrases for `products_fts` (see
 * docs/search.md). User text never reaches FTS5 as syntax: every word becomes one quoted
 * string, so quotes, `*`, `^`, `:`, parentheses, NEAR, AND/OR/NOT and NUL are plain text.
 */

/** Words beyond this are ignored: a search box never needs more, and each word costs a lookup. */
const MAX_WORDS = 12;

/** True when the word contains something the tokenizer indexes (letters or digits of any script). */
const SEARCHABLE = /[\p{L}\p{N}]/u;

/** One word of `q` as FTS5 phrases: the whole word and the word as a prefix. */
interface SearchWord {
  /** `"word"`: the word's tokens as a phrase (an identifier like `GEN-00012` is `gen 00012`). */
  exact: string;
  /** `"word"*`: the same phrase whose last token may be the beginning of a longer one. */
  prefix: string;
  /**
   * The last token has 2 or 3 characters: the table's prefix indexes (`prefix='2 3'`) answer it
   * lazily, row by row. Longer and 1-character prefixes make FTS5 merge the doclists of every
   * matching term before the first row, a cost proportional to their matches.
   */
  indexedPrefix: boolean;
  /**
   * The last token as the index stores it (lower case, accents removed), when the prefix is not
   * answered by a prefix index and the token's folding is certain (ASCII letters and digits,
   * Latin letters with accents, ß): the plan then looks up the index's words that begin with
   * it (search-plan.ts). Null otherwise.
   */
  folded: string | null;
  /** The word's text before its last token (`GEN-` of `GEN-00012`): a longer word it begins is `head + term`. */
  head: string;
}

/**
 * unicode61 with remove_diacritics 2 folds a token to lower case without accents. Only tokens
 * whose folding here is certain to be the tokenizer's are folded: ASCII letters and digits, ß,
 * and Latin-1 letters that decompose to an ASCII letter plus accents (ä, é, ñ, ...).
 */
function foldToken(token: string): string | null {
  if (!/^[A-Za-z0-9\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u00FF]+$/u.test(token)) return null;
  const folded = token.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return /^[a-z0-9ß]+$/u.test(folded) ? folded : null;
}

/** The words of `q` (at most 12), or null when `q` holds nothing searchable. */
export function searchWords(q: string): SearchWord[] | null {
  const words = q
    .normalize('NFKC')
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/u)
    .filter((w) => SEARCHABLE.test(w))
    .slice(0, MAX_WORDS);
  if (words.length === 0) return null;
  return words.map((w) => {
    const quoted = `"${w.replace(/"/g, '""')}"`;
    const tokens = [...w.matchAll(/[\p{L}\p{N}\p{M}]+/gu)];
    const last = tokens.at(-1);
    const lastToken = last?.[0] ?? '';
    const length = [...lastToken].length;
    const indexedPrefix = length === 2 || length === 3;
    const start = last?.index ?? 0;
    // The characters around the token must be separators for the tokenizer too (ASCII ones are).
    const bounded =
      /^[\x00-\x7f]?$/.test(w.charAt(start - 1)) && /^[\x00-\x7f]?$/.test(w.charAt(start + lastToken.length));
    return {
      exact: quoted,
      prefix: `${quoted}*`,
      indexedPrefix,
      folded: indexedPrefix || !bounded ? null : foldToken(lastToken),
      head: w.slice(0, start),
    };
  });
}

/**
 * The MATCH expression for `q` with every word a prefix (words ANDed), or null when `q` holds
 * nothing searchable. FTS5 splits each phrase with the table's tokenizer, so `schütz` finds
 * `Schutz` and `SCHÜTZ` alike. The product list refines this per word (search-plan.ts).
 */
export function ftsMatchExpression(q: string): string | null {
  const words = searchWords(q);
  return words === null ? null : words.map((w) => w.prefix).join(' ');
}
