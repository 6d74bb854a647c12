/**
 * `npm run bench:scoped-sql -- --state DIR`: the statements the product list runs for an
 * unscoped editor and for one limited to the catalog's first top-level category (as bench:api
 * `--scoped`), captured from the service's own `listProducts` over the state's local D1 (the
 * platform proxy) and timed in the sqlite3 shell on the same file, values inlined. The shell's
 * times are SQLite's own work (warm cache), little moved by the machine's load, so they say what
 * the scope costs where REST latency under load cannot (docs/benchmarks.md "Scoped editor").
 *
 *   npm run bench:api -- --state /tmp/state --sizes 1000000 --only reads --scoped   # seeds DIR/1000000
 *   npm run bench:scoped-sql -- --state /tmp/state/1000000
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { listProducts } from '../src/catalog/product-list';
import { createDb } from '../src/db/client';
import type { Caller } from '../src/kernel/caller';
import { localBindings } from '../scripts/lib/platform';
import { recordingD1 } from '../test/helpers/recording-d1';
import { type SqlCase, timeSql } from './api-sql';
import { benchArgs, positiveInt } from './lib/args';
import { d1File, tidySearchIndexOf } from './lib/state';
import { percentile } from './lib/stats';

const args = benchArgs('npm run bench:scoped-sql -- --state DIR [flags]: SQL cost of a category scope', {
  state: { type: 'string', value: 'DIR', help: 'a seeded state dir (bench:api --state X makes X/<masters>)' },
  samples: { type: 'string', default: '15', help: 'timed runs of each case' },
});
if (!args.state) {
  console.error('--state DIR is required (a state seeded by bench:api or seed:synthetic)');
  process.exit(2);
}
const dir = args.state;
const samples = positiveInt('samples', args.samples);
const seeded = JSON.parse(readFileSync(`${dir}/seeded.json`, 'utf8')) as {
  companyId: string;
  departmentId: string;
  catalogId: string;
};
const file = d1File(dir);
const tidy = tidySearchIndexOf(dir);
console.error(
  `search index: ${tidy.before} segments, ${tidy.after} after ${tidy.steps} merge steps (the upkeep's state)`,
);
const root = execFileSync('sqlite3', [
  '-readonly',
  file,
  `SELECT id FROM categories WHERE catalog_id = '${seeded.catalogId}' AND parent_id IS NULL ORDER BY name, id LIMIT 1`,
])
  .toString()
  .trim();
if (!root) throw new Error('the catalog has no top-level category');

/** A statement with its `?` values written in as SQL literals, for the shell. */
function inlined(sql: string, params: unknown[]): string {
  let i = 0;
  return sql.replace(/\?(\d+)?/g, (_, n: string | undefined) => {
    const value = params[n ? Number(n) - 1 : i++];
    if (value === null || value === undefined) return 'NULL';
    if (typeof value === 'number' || typeof value === 'bigint') return String(value);
    return `'${String(value).replace(/'/g, "''")}'`;
  });
}

const CASES: [string, Record<string, unknown>][] = [
  ['sku asc, first page', { sort: 'sku' }],
  ['sku desc, first page', { sort: 'sku', order: 'desc' }],
  ['updatedAt desc, first page', { sort: 'updatedAt', order: 'desc' }],
  ['name asc, first page', { sort: 'name' }],
  ['search broad word, index order', { q: 'Leitungsschutzschalter' }],
  ['search broad word sorted by SKU', { q: 'Leitungsschutzschalter', sort: 'sku' }],
  ['search variant-only word, index order', { q: 'Variante' }],
  ['search variant-only word sorted by SKU', { q: 'Variante', sort: 'sku' }],
  ['search variant-only word sorted by SKU desc', { q: 'Variante', sort: 'sku', order: 'desc' }],
  ['search variant-only word sorted by name', { q: 'Variante', sort: 'name' }],
  ['search name words "Typ 700000", ranked', { q: 'Typ 700000' }],
  ['search without hits', { q: 'Zzyzxquux' }],
];

const proxy = await localBindings(['--persist-to', dir]);
try {
  const { binding, statements: ran } = recordingD1(proxy.env.DB);
  const db = createDb(binding);
  const editor: Caller = {
    companyId: seeded.companyId,
    userId: 'bench-scoped-sql',
    surface: 'web',
    departmentId: seeded.departmentId,
    role: 'editor',
  };
  const scoped: Caller = { ...editor, productScope: { catalogIds: [], categoryIds: [root] } };
  const cases: SqlCase[] = [];
  for (const [name, input] of CASES) {
    for (const [who, caller] of [
      ['unscoped', editor],
      ['scoped', scoped],
    ] as const) {
      ran.length = 0;
      await listProducts(db, caller, { catalogId: seeded.catalogId, limit: 50, ...input } as never);
      cases.push({ name: `${name} | ${who}`, statements: ran.map((s) => inlined(s.sql, s.params)) });
    }
  }
  const times = timeSql(file, cases, samples);
  console.log(`\nSQL of GetProducts (sqlite3 shell, warm, ${samples} runs), ms p50 / p95; scope: category ${root}\n`);
  console.log('| case | unscoped | scoped |');
  console.log('|---|---:|---:|');
  const fmt = (t: number[] | undefined) =>
    t ? `${percentile(t, 50).toFixed(2)} / ${percentile(t, 95).toFixed(2)}` : 'n/a';
  for (const [name] of CASES)
    console.log(`| ${name} | ${fmt(times.get(`${name} | unscoped`))} | ${fmt(times.get(`${name} | scoped`))} |`);
} finally {
  await proxy.dispose();
}
