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
 * memory) and every common phrase is checked per candidate document by its rowid (a seek in
 * the FTS index): bm25 never has to visit the million documents of a common word. When every
 * phrase is common the search is broad and is listed in index order (docid) or walks the
 * requested sort order's index, checking each product.
 */
export interface SearchPlan {
  /** The MATCH expression of the phrases that drive the query (all phrases when broad). */
  match: string;
  /** Common phrases checked per document with `rowid = ?` (each answered lazily by FTS5). */
  checks: string[];
  /** Every phrase, ANDed: the whole search as one MATCH expression. */
  all: string;
  /** Every phrase of `all` is answered lazily (whole words, 2- and 3-character prefixes). */
  allLazy: boolean;
  /** Some phrase has at most `limit` entries: rank or sort the matches in memory. */
  selective: boolean;
}

/** Searches matching at most this many index entries are ranked (docs/search.md). */
export const RANK_LIMIT = 5000;

const count = (match: string, cap: number) =>
  sql`(SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${match} LIMIT ${cap}))`;

/**
 * The plan for `q`; `null` when nothing can match (no searchable character, or a word without
 * any entry). Counts cover every catalog and company: they only choose a plan.
 */
export async function planSearch(db: Database, q: string, limit: number): Promise<SearchPlan | null> {
  const words = searchWords(q);
  if (words === null) return null;
  const cap = limit + 1;
  // The prefix is counted only when the whole word is not common (CASE evaluates one branch):
  // a long prefix is merged by FTS5 in full, the cost the whole-word rule avoids.
  const exact = words.map((w, i) => sql`${count(w.exact, cap)} AS ${sql.raw(`e${i}`)}`);
  const prefix = words.map(
    (w, i) =>
      sql`CASE WHEN ${sql.raw(`e${i}`)} > ${limit} THEN 0 ELSE ${count(w.prefix, cap)} END AS ${sql.raw(`p${i}`)}`,
  );
  const [counts] = await db.all<Record<string, number>>(
    sql`SELECT *, ${sql.join(prefix, sql`, `)} FROM (SELECT ${sql.join(exact, sql`, `)})`,
  );
  const phrases = words.map((w, i) => {
    const exact = Number(counts?.[`e${i}`] ?? 0);
    if (exact > limit) return { text: w.exact, hits: exact, lazy: true };
    return { text: w.prefix, hits: Number(counts?.[`p${i}`] ?? 0), lazy: w.indexedPrefix };
  });
  if (phrases.some((p) => p.hits === 0)) return null;
  const rare = phrases.filter((p) => p.hits <= limit);
  const all = phrases.map((p) => p.text).join(' ');
  const allLazy = phrases.every((p) => p.lazy);
  if (rare.length === 0) return { match: all, checks: [], all, allLazy, selective: false };
  // A common phrase FTS5 cannot answer lazily joins the driving expression (merged once per
  // statement) instead of being checked per document (merged once per check).
  const driving = phrases.filter((p) => p.hits <= limit || !p.lazy);
  const checks = phrases.filter((p) => p.hits > limit && p.lazy).map((p) => p.text);
  return { match: driving.map((p) => p.text).join(' '), checks, all, allLazy, selective: true };
}

/**
 * The whole search as one MATCH expression, as the product list matches it (null: nothing can
 * match). Mass edit selects with it, so the products it changes are the ones the grid listed.
 */
export async function searchMatch(db: Database, q: string): Promise<string | null> {
  return (await planSearch(db, q, RANK_LIMIT))?.all ?? null;
}
