import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { searchWords } from './product-search';

/**
 * How the product list answers a search (docs/search.md, "Search plans"). One statement counts,
 * per word, the index entries of the whole word and of the word as a prefix, each count stopping
 * at `limit + 1` (FTS5 reads a doclist lazily, so a count of a word every product has costs
 * `limit` entries, not a million). Then each word becomes one phrase:
 *
 * - a word that matches more than `limit` entries as a whole word is matched as a whole word:
 *   as a prefix FTS5 would merge every longer word's matches first, and listing words that
 *   merely begin like the most common word of the catalog says nothing;
 * - otherwise the word is a prefix (`schutz` finds `Schutzschalter`, `GEN-0001` the SKUs
 *   beginning with it).
 *
 * A phrase with at most `limit` entries is rare; the others are common. When some phrase is
 * rare, the rare phrases drive the query (at most `limit` documents, ranked or sorted in
 * memory), narrowed by the common phrases in one lazy MATCH without a score (`narrowing`):
 * bm25 never has to visit the million documents of a common word. When every
 * phrase is common the search is broad and is listed in index order (docid) or walks the
 * requested sort order's index, checking each product.
 */
export interface SearchPlan {
  /** The MATCH expression of the phrases that drive the query (all phrases when broad). */
  match: string;
  /** The common phrases FTS5 answers lazily, which narrow the driving documents (`narrowing`). */
  checks: string[];
  /**
   * The rare phrases and the checked common ones, ANDed (null: no check). Its documents, read
   * without a score, narrow the driving documents in one pass: FTS5 intersects the doclists by
   * seeking the common phrase's lazily, about 1 µs a document, where a check statement per
   * document (`check`) costs about 65 µs at 1M (`Typ 7000`: 651 documents, 0.8 ms instead of 42).
   */
  narrowing: string | null;
  /** Every phrase, ANDed: the whole search as one MATCH expression. */
  all: string;
  /** Every phrase of `all` is answered lazily (whole words, 2- and 3-character prefixes). */
  allLazy: boolean;
  /** Some phrase has at most `limit` entries: rank or sort the matches in memory. */
  selective: boolean;
  /** The common phrases FTS5 answers lazily, each a MATCH expression of its own (search heads key on one). */
  lazyCommon: string[];
}

/** Searches matching at most this many index entries are ranked (docs/search.md). */
export const RANK_LIMIT = 5000;

const count = (match: string, cap: number) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${match} LIMIT ${cap}))`;

/**
 * A prefix that begins at most this many words of the index is matched as those words (an OR
 * of whole words, each read lazily) instead of as a prefix, which FTS5 would merge in full.
 */
export const MAX_PREFIX_WORDS = 16;

/** Above every character a token can hold: `term <= prefix + TOP` bounds the words a prefix begins. */
const TOP = '\u{10FFFF}';

/**
 * The index's words beginning with `folded` (at most MAX_PREFIX_WORDS + 1, as a JSON array),
 * found by seeking the fts5vocab table `products_fts_terms` (migration 0011) once per word
 * and reading one occurrence of it. A seek passes over the pages of the word before it in each
 * index segment (FTS5 finds a word's successor after its doclist): cheap behind a rare word, a
 * few milliseconds behind a word of every product at 1M (docs/search.md). The next word after
 * `t` is the first one `>= t || '0'`: a token's characters are letters and digits, none below '0'.
 */
const wordsBeginning = (folded: string) => sql`(WITH RECURSIVE t(term, n) AS (
    SELECT (SELECT term FROM products_fts_terms WHERE term >= ${folded} AND term <= ${folded + TOP} LIMIT 1), 1
    UNION ALL
    SELECT (SELECT term FROM products_fts_terms WHERE term >= t.term || '0' AND term <= ${folded + TOP} LIMIT 1), n + 1
    FROM t WHERE t.term IS NOT NULL AND n <= ${MAX_PREFIX_WORDS}
  ) SELECT json_group_array(term) FROM t WHERE term IS NOT NULL)`;

/** `"head+term"` for each word a prefix begins, ORed: the prefix as whole words. */
function wordsPhrase(head: string, terms: string[]): string {
  const phrases = terms.map((t) => `"${(head + t).replace(/"/g, '""')}"`);
  return phrases.length === 1 ? phrases[0]! : `(${phrases.join(' OR ')})`;
}

/**
 * The plan for `q`; `null` when nothing can match (no searchable character, or a word without
 * any entry). Counts cover every catalog and company: they only choose a plan.
 */
export async function planSearch(db: Database, q: string, limit: number): Promise<SearchPlan | null> {
  const words = searchWords(q);
  if (words === null) return null;
  const cap = limit + 1;
  // The prefix is looked at only when the whole word is not common (CASE evaluates one branch).
  // A prefix the prefix indexes answer (2-3 characters) is counted. For any other, the words it
  // begins are listed from the vocabulary first (materialised once): up to MAX_PREFIX_WORDS of
  // them are counted as an OR of whole words, read lazily; only a prefix of more words is
  // counted as a prefix. Counting a long prefix through MATCH would merge the documents of every
  // word it begins first (`Leitungss`: every product of the catalog).
  const e = (i: number) => sql.raw(`e${i}`);
  const wl = (i: number) => sql.raw(`w${i}`);
  const exact = words.map((w, i) => sql`${count(w.exact, cap)} AS ${e(i)}`);
  const listed = words.flatMap((w, i) =>
    w.folded === null
      ? []
      : [sql`CASE WHEN ${e(i)} > ${limit} THEN NULL ELSE ${wordsBeginning(w.folded)} END AS ${wl(i)}`],
  );
  const prefix = words.map((w, i) => {
    const as = sql.raw(`p${i}`);
    if (w.folded === null) return sql`CASE WHEN ${e(i)} > ${limit} THEN 0 ELSE ${count(w.prefix, cap)} END AS ${as}`;
    const n = sql`json_array_length(${wl(i)})`;
    const alternatives = sql`(SELECT group_concat('"' || ${w.head.replace(/"/g, '""')} || value || '"', ' OR ') FROM json_each(${wl(i)}))`;
    return sql`CASE WHEN ${e(i)} > ${limit} OR ${n} = 0 THEN 0
      WHEN ${n} <= ${MAX_PREFIX_WORDS} THEN (SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${alternatives} LIMIT ${cap}))
      ELSE ${count(w.prefix, cap)} END AS ${as}`;
  });
  const [counts] = await db.all<Record<string, number | string | null>>(
    sql`WITH c AS MATERIALIZED (SELECT ${sql.join(exact, sql`, `)}),
      w AS MATERIALIZED (SELECT *${sql.join(
        listed.map((l) => sql`, ${l}`),
        sql``,
      )} FROM c)
      SELECT *, ${sql.join(prefix, sql`, `)} FROM w`,
  );
  const phrases = words.map((w, i) => {
    const exact = Number(counts?.[`e${i}`] ?? 0);
    if (exact > limit) return { text: w.exact, hits: exact, lazy: true };
    const hits = Number(counts?.[`p${i}`] ?? 0);
    if (w.folded === null) return { text: w.prefix, hits, lazy: w.indexedPrefix };
    const terms = JSON.parse(String(counts?.[`w${i}`] ?? '[]')) as string[];
    // Few words: those words, each whole (lazy). Many: the prefix, merged by FTS5 (a cost
    // proportional to its matches; docs/search.md).
    if (terms.length <= MAX_PREFIX_WORDS) return { text: wordsPhrase(w.head, terms), hits, lazy: true };
    return { text: w.prefix, hits, lazy: false };
  });
  if (phrases.some((p) => p.hits === 0)) return null;
  const rare = phrases.filter((p) => p.hits <= limit);
  // Explicit AND: FTS5 joins a phrase and a parenthesised OR only with an operator.
  const all = phrases.map((p) => p.text).join(' AND ');
  const allLazy = phrases.every((p) => p.lazy);
  const lazyCommon = phrases.filter((p) => p.hits > limit && p.lazy).map((p) => p.text);
  if (rare.length === 0) return { match: all, checks: [], narrowing: null, all, allLazy, selective: false, lazyCommon };
  // A common phrase FTS5 cannot answer lazily joins the driving expression (merged once per
  // statement) instead of being checked per document (merged once per check).
  const driving = phrases.filter((p) => p.hits <= limit || !p.lazy);
  const checks = phrases.filter((p) => p.hits > limit && p.lazy).map((p) => p.text);
  // The narrowing leaves out the common phrases that are merged (in `match` already): merged once.
  const narrowing = checks.length ? [...rare.map((p) => p.text), ...checks].join(' AND ') : null;
  return {
    match: driving.map((p) => p.text).join(' AND '),
    checks,
    narrowing,
    all,
    allLazy,
    selective: true,
    lazyCommon,
  };
}

/**
 * The whole search as one MATCH expression, as the product list matches it (null: nothing can
 * match). Mass edit selects with it, so the products it changes are the ones the grid listed.
 */
export async function searchMatch(db: Database, q: string): Promise<string | null> {
  return (await planSearch(db, q, RANK_LIMIT))?.all ?? null;
}
