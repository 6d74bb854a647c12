/**
 * GetChanges at catalog scale (issue 34: "GetChanges at 1M products <= 30 ms p95 per page";
 * docs/changes-feed.md): pages through the feed of a company with N products, each with one
 * history entry, timing every page.
 *
 *   npm run bench:changes                                   # 100,000 masters, limits 100 and 1000
 *   npm run bench:changes -- --sizes 10000,100000 --max-pages 300
 *   npm run bench:changes -- --help                         # every flag with its default
 *
 * The synthetic catalog (seed:synthetic) writes no history, so before the server starts the
 * bench gives every product and variant one `create` version straight in the D1 file (one
 * INSERT ... SELECT; the feed's own trigger numbers them, as for any writer). Each page is one
 * `GET /api/Changes/GetChanges?since=&limit=` through `wrangler dev`, timed from request to
 * parsed body (HTTP, the Worker, local D1 and JSON), resuming from the page's cursor, from the
 * start of the feed up to `--max-pages` pages per limit. The query plan of the feed's read
 * (EXPLAIN QUERY PLAN on the same SQL) is printed beside the figures: a range of the index
 * `change_feed(company_id, seq)` from the cursor and a primary-key lookup per row, so a page's
 * cost follows its limit, not the company's size.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { startDevServer } from '../scripts/lib/dev-server';
import { benchArgs, positiveInt, positiveInts, sizesFlag } from './lib/args';
import { login } from './lib/session';
import { d1File, releaseState, seededState } from './lib/state';
import { percentile } from './lib/stats';

const args = benchArgs('npm run bench:changes -- [flags]: GetChanges page time at catalog scale', {
  sizes: sizesFlag('100000'),
  limits: { type: 'string', default: '100,1000', value: 'N,N', help: 'page sizes (GetChanges limit), comma-separated' },
  'max-pages': { type: 'string', default: '500', help: 'pages timed per limit, from the start of the feed' },
  state: { type: 'string', value: 'DIR', help: 'reuse (or seed and keep) the catalog in DIR/<size>' },
});
const sizes = positiveInts('sizes', args.sizes);
const limits = positiveInts('limits', args.limits);
const MAX_PAGES = positiveInt('max-pages', args['max-pages']);

const sql = (file: string, query: string) =>
  execFileSync('sqlite3', [file, query], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 }).trim();

/**
 * One `create` version per product of the company that has none yet: the shape the history
 * records for a created product (changes as `[path, before, after]` triples).
 */
function writeHistory(file: string, companyId: string, email: string): number {
  const userId = sql(file, `SELECT id FROM users WHERE email = '${email}'`);
  sql(
    file,
    `INSERT INTO history_versions (id, company_id, element_id, element_kind, action, user_id, surface, changes, at)
     SELECT lower(hex(randomblob(16))), p.company_id, p.id, CASE WHEN p.parent_id IS NULL THEN 'product' ELSE 'variant' END,
            'create', '${userId}', 'job',
            json_array(json_array('sku', NULL, p.sku), json_array('name@deu', NULL, p.name), json_array('price', NULL, '3.10')),
            strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM products p
     WHERE p.company_id = '${companyId}'
       AND NOT EXISTS (SELECT 1 FROM history_versions h WHERE h.company_id = p.company_id AND h.element_id = p.id)`,
  );
  return Number(sql(file, `SELECT count(*) FROM change_feed WHERE company_id = '${companyId}'`));
}

/** The plan SQLite chooses for the feed's page read (src/history/changes-feed.ts readFeed). */
function feedPlan(file: string, companyId: string): string {
  return sql(
    file,
    `EXPLAIN QUERY PLAN SELECT f.seq, h.* FROM change_feed f JOIN history_versions h ON h.id = f.version_id
     WHERE f.company_id = '${companyId}' AND f.seq > 1000 ORDER BY f.seq LIMIT 101`,
  );
}

interface Row {
  masters: number;
  entries: number;
  limit: number;
  pages: number;
  p50: number;
  p95: number;
  max: number;
  load: string;
}

const rows: Row[] = [];
const plans: string[] = [];
for (const masters of sizes) {
  process.stderr.write(`seeding ${masters} masters...\n`);
  const state = await seededState(masters, args.state, 'pim-bench-changes-');
  try {
    const file = d1File(state.dir);
    const entries = writeHistory(file, state.seeded.companyId, state.seeded.email);
    plans.push(`${masters.toLocaleString('en')} masters:\n${feedPlan(file, state.seeded.companyId)}`);
    const server = await startDevServer(state.dir);
    try {
      const cookie = await login(server.baseUrl, state.seeded);
      const page = async (limit: number, since: string) => {
        const started = performance.now();
        const res = await fetch(
          `${server.baseUrl}/api/Changes/GetChanges?limit=${limit}${since ? `&since=${since}` : ''}`,
          { headers: { Cookie: cookie } },
        );
        if (res.status !== 200) throw new Error(`GetChanges: ${res.status} ${await res.text()}`);
        const body = (await res.json()) as { items: unknown[]; cursor: string; hasMore: boolean };
        return { ms: performance.now() - started, ...body };
      };
      for (let i = 0; i < 5; i++) await page(100, ''); // warm-up
      for (const limit of limits) {
        const times: number[] = [];
        let since = '';
        const loadBefore = loadavg()[0]!;
        for (let n = 0; n < MAX_PAGES; n++) {
          const answer = await page(limit, since);
          if (answer.items.length === 0) break;
          times.push(answer.ms);
          since = answer.cursor;
          if (!answer.hasMore) break;
        }
        rows.push({
          masters,
          entries,
          limit,
          pages: times.length,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          max: Math.max(...times),
          load: `${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
        });
      }
    } finally {
      server.stop();
    }
  } finally {
    releaseState(state);
  }
}

console.log('\nGetChanges through wrangler dev (local D1), time per page from request to parsed body, ms\n');
console.log('| masters | feed entries | limit | pages timed | p50 | p95 | max | load average (1 min) |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows)
  console.log(
    `| ${r.masters.toLocaleString('en')} | ${r.entries.toLocaleString('en')} | ${r.limit} | ${r.pages} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.max.toFixed(1)} | ${r.load} |`,
  );
console.log(`\nQuery plan of the page read:\n${plans.join('\n')}`);
