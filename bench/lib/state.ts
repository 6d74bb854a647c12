/**
 * Local state dirs (`wrangler dev --persist-to`) for the benchmarks: seeded with a synthetic
 * catalog, kept between runs when asked (seeding 1M masters takes minutes), and the D1 file in
 * them that the sqlite3 shell opens. One home for what bench:api, bench:web, bench:sync and
 * bench:history each used to do their own way.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrate, type Seeded, seedSyntheticCatalog } from '../../scripts/lib/dev-server';

export type { Seeded } from '../../scripts/lib/dev-server';

/** The directory database's file (DB, also cell-1, where seeds put their company): scripts/lib/d1-file.ts. */
import { d1File } from '../../scripts/lib/d1-file';

export { d1File };

/**
 * Migrates a fresh state directory and seeds a synthetic catalog of `masters` master products
 * into it; `languages` (seed:synthetic --languages, the first the default) makes it publish them.
 */
export async function seedSynthetic(
  dir: string,
  masters: number,
  extras = false,
  languages: string[] = [],
): Promise<Seeded> {
  await migrate(dir);
  return seedSyntheticCatalog(dir, masters, extras, languages);
}

export interface SeededState {
  dir: string;
  seeded: Seeded;
  /** A temporary dir the caller removes when done; false for a kept one. */
  temporary: boolean;
}

/** Written after a finished seed: a dir without it (an interrupted seed) is seeded again. */
const MARKER = 'seeded.json';

/**
 * A migrated state dir with a synthetic catalog of `masters`. With `keep`, the sub-directory
 * `<keep>/<masters>` (`<keep>/<masters>-deu-eng-fra` with languages) is seeded once and reused
 * by later runs (so one `--state DIR` serves several sizes); without, a fresh temporary dir
 * named after `prefix`.
 */
export async function seededState(
  masters: number,
  keep?: string,
  prefix = 'pim-bench-',
  extras = false,
  languages: string[] = [],
): Promise<SeededState> {
  if (!keep) {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    try {
      return { dir, seeded: await seedSynthetic(dir, masters, extras, languages), temporary: true };
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  const dir = resolve(keep, [String(masters), ...languages].join('-'));
  const marker = join(dir, MARKER);
  if (existsSync(marker)) {
    // a kept state gets the migrations added since it was seeded (applied ones are skipped)
    await migrate(dir);
    return { dir, seeded: JSON.parse(readFileSync(marker, 'utf8')) as Seeded, temporary: false };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const seeded = await seedSynthetic(dir, masters, extras, languages);
  writeFileSync(marker, JSON.stringify(seeded));
  return { dir, seeded, temporary: false };
}

/** Removes a state dir unless it is a kept one. */
export function releaseState(state: Pick<SeededState, 'dir' | 'temporary'>): void {
  if (state.temporary) rmSync(state.dir, { recursive: true, force: true });
}

/**
 * Merges the state's search index as the service's upkeep does (docs/search.md "Index upkeep":
 * FTS5 `merge` steps with a negative page count until one finds nothing to merge), before a
 * bench reads: in production the cron does it every minute, under `wrangler dev` only imports
 * and searches do, so a seeded or bench-written state is searched over ten and more segments
 * otherwise. Returns the segments before and after.
 */
export function tidySearchIndexOf(dir: string): { before: number; after: number; steps: number } {
  const file = d1File(dir);
  const shell = (statements: string) => execFileSync('sqlite3', [file, statements]).toString().trim();
  const segments = () => Number(shell('SELECT count(DISTINCT segid) FROM products_fts_idx'));
  const before = segments();
  let steps = 0;
  for (; steps < 10_000; steps++) {
    const changed = shell(
      "SELECT total_changes(); INSERT INTO products_fts (products_fts, rank) VALUES ('merge', -2000); SELECT total_changes();",
    )
      .split('\n')
      .map(Number);
    if (changed[1]! - changed[0]! < 2) break;
  }
  return { before, after: segments(), steps };
}
