/**
 * The bare SQL of the product list, timed with the sqlite3 shell on the same local D1 file the
 * API serves, so bench/api.ts can print API and SQL latency side by side. Each case runs the
 * statements GetProducts runs for it (the search's hit count and the page query), with the
 * values inlined; the shell's own start-up is not counted (`.timer on` times each statement).
 */
import { execFileSync } from 'node:child_process';

export interface SqlCase {
  name: string;
  statements: string[];
}

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** The statements GetProducts runs (see src/catalog/product-list.ts), for one catalog. */
export function listSql(catalogId: string, companyId: string) {
  const scope = `"products"."catalog_id" = ${lit(catalogId)} and "products"."company_id" = ${lit(companyId)} and "products"."parent_id" is null`;
  // The plan's statement (src/catalog/search-plan.ts): per word, the whole word and, when that
  // is not common, the prefix: counted when 2-3 characters (prefix index), else the words it
  // begins listed from the vocabulary and counted as an OR of whole words (up to 16 of them).
  const count = (match: string) =>
    `(SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${lit(match)} LIMIT 5001))`;
  const counts = (words: string[]) => {
    const folded = words.map((w) => {
      const last = w.match(/[\p{L}\p{N}\p{M}]+/gu)?.at(-1) ?? '';
      const n = [...last].length;
      return n === 2 || n === 3 || !/^[A-Za-z0-9]+$/.test(last)
        ? null
        : { f: last.toLowerCase(), head: w.slice(0, w.lastIndexOf(last)) };
    });
    const top = `${'\u{10FFFF}'}`;
    const listed = folded.flatMap((x, i) =>
      x === null
        ? []
        : [
            `CASE WHEN e${i} > 5000 THEN NULL ELSE (WITH RECURSIVE t(term, n) AS (SELECT (SELECT term FROM products_fts_terms WHERE term >= ${lit(x.f)} AND term <= ${lit(x.f + top)} LIMIT 1), 1 UNION ALL SELECT (SELECT term FROM products_fts_terms WHERE term >= t.term || '0' AND term <= ${lit(x.f + top)} LIMIT 1), n + 1 FROM t WHERE t.term IS NOT NULL AND n <= 16) SELECT json_group_array(term) FROM t WHERE term IS NOT NULL) END AS w${i}`,
          ],
    );
    const prefix = words.map((w, i) => {
      const x = folded[i];
      if (!x) return `CASE WHEN e${i} > 5000 THEN 0 ELSE ${count(`"${w}"*`)} END AS p${i}`;
      const alternatives = `(SELECT group_concat('"' || ${lit(x.head)} || value || '"', ' OR ') FROM json_each(w${i}))`;
      return `CASE WHEN e${i} > 5000 OR json_array_length(w${i}) = 0 THEN 0 WHEN json_array_length(w${i}) <= 16 THEN (SELECT count(*) FROM (SELECT 1 FROM products_fts WHERE products_fts MATCH ${alternatives} LIMIT 5001)) ELSE ${count(`"${w}"*`)} END AS p${i}`;
    });
    return `WITH c AS MATERIALIZED (SELECT ${words.map((w, i) => `${count(`"${w}"`)} AS e${i}`).join(', ')}), w AS MATERIALIZED (SELECT *${listed.map((l) => `, ${l}`).join('')} FROM c) SELECT *, ${prefix.join(', ')} FROM w`;
  };
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
