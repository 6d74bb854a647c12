import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/** Pages of index one merge step writes at most: a short statement (about 2 MB of segments). */
const STEP_PAGES = 500;
/** How long one tidy may run (a cron tick per cell, the end of an import). */
const BUDGET_MS = 3000;
/** A search tidies at most this often per isolate, for at most `SEARCH_BUDGET_MS` (`tidyIsDue`). */
export const SEARCH_TIDY_EVERY_MS = 60_000;
export const SEARCH_BUDGET_MS = 1000;
let lastSearchTidy = Number.NEGATIVE_INFINITY;

/**
 * Whether a search should tidy the index after its answer: at most once a minute per isolate.
 * The cron does the same every minute in production, where this finds nothing to merge (one
 * step that writes nothing); under `wrangler dev`, where Cron Triggers never fire, it is what
 * keeps the index merged after writes that are not imports (edits, upserts, the web's work), so
 * a search there is as fast as the service keeps it. `now` for tests.
 */
export function tidyIsDue(now = Date.now()): boolean {
  if (now - lastSearchTidy < SEARCH_TIDY_EVERY_MS) return false;
  lastSearchTidy = now;
  return true;
}

/** Forgets this isolate's last search tidy, so the next search tidies (tests). */
export function resetSearchTidy(): void {
  lastSearchTidy = Number.NEGATIVE_INFINITY;
}

/**
 * Keeps the product search index in few segments (docs/search.md, "Index upkeep"). FTS5 writes
 * one segment per transaction and merges only when four of a level exist (automerge), so a
 * catalog written in many transactions (imports, upserts, single edits) is searched over ten and
 * more segments, and every check of a product against a word reads each segment's doclist: at 1M
 * products 170 µs per check over 11 segments against 33-40 µs over one (a broad word sorted by
 * SKU: 11.1 ms of SQL before an `optimize`, 1.9 ms after). `optimize` itself rewrites the whole
 * index in one statement (35 s at 1M); FTS5's incremental `merge` with a negative page count
 * does the same work in steps of `pages`, each a short statement, and a step that finds the
 * index in one segment changes nothing but its own row (changes < 2: done).
 *
 * Returns the steps that merged something. Safe at any time and with concurrent writes (each
 * step is its own transaction); the index answers the same before, during and after. Never
 * throws: it is upkeep, and a failed step must not stop the cron's other sweeps or fail the
 * import that called it (the next run starts again).
 */
export async function tidySearchIndex(
  db: Database,
  options: { budgetMs?: number; pages?: number } = {},
): Promise<number> {
  const started = Date.now();
  const pages = options.pages ?? STEP_PAGES;
  let merged = 0;
  try {
    for (;;) {
      const result = await db.run(sql`INSERT INTO products_fts (products_fts, rank) VALUES ('merge', ${-pages})`);
      if ((result.meta?.changes ?? 0) < 2) return merged;
      merged++;
      if (Date.now() - started >= (options.budgetMs ?? BUDGET_MS)) return merged;
    }
  } catch (error) {
    console.warn('search index tidy stopped after', merged, 'steps:', error);
    return merged;
  }
}
