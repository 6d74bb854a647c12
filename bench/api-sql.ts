/**
 * The bare SQL of the product list, timed with the sqlite3 shell on the same local D1 file the
 * API serves, so bench/api.ts can print API and SQL latency side by side. Each case runs the
 * statements GetProducts runs for it (the search's hit count and the page query), with the
 * values inlined; the shell's own start-up is not counted (`.timer on` times each statement).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface SqlCase {
  name: string;
  statements: string[];
}

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** The D1 database file of a `--persist-to` state dir. */
export function d1File(stateDir: string): string {
  const dir = join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 file in ${dir}`);
  return join(dir, file);
}

/** The statements GetProducts runs (see src/catalog/product-list.ts), for one catalog. */
export function listSql(catalogId: string, companyId: string) {
  const scope = `"products"."catalog_id" = ${lit(catalogId)} and "products"."company_id" = ${lit(companyId)} and "products"."parent_id" is null`;
  // The plan's counts (src/catalog/search-plan.ts): per word, the whole word and the prefix, each stopping at 5001.
  const counts = (words: string[]) =>
    `SELECT *, ${words
      .map(
        (w, i) =>
          `CASE WHEN e${i} > 5000 THEN 0 ELSE (SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${lit(`"${w}"*`)} LIMIT 5001)) END AS p${i}`,
      )
      .join(', ')} FROM (SELECT ${words
      .map(
        (w, i) =>
          `(SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${lit(`"${w}"`)} LIMIT 5001)) AS e${i}`,
      )
      .join(', ')})`;
  const check = (phrase: string) =>
    ` AND EXISTS (SELECT 1 FROM products_fts c WHERE c.products_fts MATCH ${lit(phrase)} AND c.rowid = f.rowid)`;
  return {
    /** A selective search: the driving phrases' documents (variants count for their master), common phrases checked per document, ranked. */
    ranked: (words: string[], match: string, checks: string[] = []): string[] => [
      counts(words),
      `SELECT "products".*, h.r AS search_rank FROM (SELECT coalesce(d.parent_id, d.id) AS mid, min(f.rank) AS r FROM products_fts f CROSS JOIN "products" d ON d.rowid = f.rowid WHERE f.products_fts MATCH ${lit(match)} AND d.catalog_id = ${lit(catalogId)}${checks.map(check).join('')} GROUP BY mid) h CROSS JOIN "products" ON "products"."id" = h.mid WHERE ${scope} ORDER BY h.r, "products"."id" LIMIT 51`,
    ],
    /** A broad search in FTS index order. */
    broad: (words: string[], match: string): string[] => [
      counts(words),
      `SELECT "products".*, f.rowid AS search_doc FROM products_fts f CROSS JOIN "products" ON "products".rowid = f.rowid WHERE f.products_fts MATCH ${lit(match)} AND ${scope} ORDER BY f.rowid LIMIT 51`,
    ],
    noHit: (words: string[]): string[] => [counts(words)],
    bySku: (after: string | null, order: 'asc' | 'desc'): string[] => [
      // An ascending first page reads the (empty) segment of products without a SKU first.
      ...(after === null && order === 'asc'
        ? [
            `SELECT "products".* FROM "products" WHERE ${scope} AND "products"."sku" IS NULL ORDER BY "products"."id" asc LIMIT 51`,
          ]
        : []),
      `SELECT "products".* FROM "products" WHERE ${scope} AND "products"."sku" IS NOT NULL${after ? ` AND "products"."sku" ${order === 'asc' ? '>' : '<'} ${lit(after)}` : ''} ORDER BY "products"."sku" ${order} LIMIT 51`,
    ],
    byKey: (column: 'name' | 'updated_at', after: { k: string; i: string } | null, order: 'asc' | 'desc'): string[] => {
      const expr = column === 'name' ? `"products"."name" COLLATE NOCASE` : `"products"."updated_at"`;
      const cmp = order === 'asc' ? '>' : '<';
      const collate = column === 'name' ? ' COLLATE NOCASE' : '';
      const keyset = after
        ? ` AND ("products"."${column}", "products"."id") ${cmp} (${lit(after.k)}${collate}, ${lit(after.i)})`
        : '';
      const notNull = column === 'name' ? ` AND ${expr} IS NOT NULL` : '';
      const nullSegment =
        column === 'name' && after === null && order === 'asc'
          ? [
              `SELECT "products".* FROM "products" WHERE ${scope} AND ${expr} IS NULL ORDER BY "products"."id" asc LIMIT 51`,
            ]
          : [];
      return [
        ...nullSegment,
        `SELECT "products".* FROM "products" WHERE ${scope}${notNull}${keyset} ORDER BY ${expr} ${order}, "products"."id" ${order} LIMIT 51`,
      ];
    },
  };
}

/** Runs each case `samples` times (after 2 warm-ups) in one sqlite3 process; per-case times in ms. */
export function timeSql(file: string, cases: SqlCase[], samples: number): Map<string, number[]> {
  const script = ['.timer on'];
  for (const [n, c] of cases.entries()) {
    for (let i = 0; i < samples + 2; i++) {
      // Rows go to /dev/null; the marker and the timer lines to stdout.
      script.push('.output', `.print @@${n}@@${i}`, '.output /dev/null');
      script.push(...c.statements.map((s) => `${s};`));
    }
  }
  const out = execFileSync('sqlite3', ['-readonly', file], {
    input: script.join('\n'),
    maxBuffer: 256 * 1024 * 1024,
  }).toString();
  const times = new Map<string, number[]>();
  let current: string | null = null;
  let sample = -1;
  for (const line of out.split('\n')) {
    const mark = /^@@(.+)@@(\d+)$/.exec(line);
    if (mark) {
      current = cases[Number(mark[1])]!.name;
      sample = Number(mark[2]);
      if (sample >= 2) times.set(current, [...(times.get(current) ?? []), 0]);
      continue;
    }
    const t = /^Run Time: real ([\d.]+)/.exec(line);
    if (t && current && sample >= 2) {
      const list = times.get(current)!;
      list[list.length - 1]! += Number(t[1]) * 1000;
    }
  }
  return times;
}
