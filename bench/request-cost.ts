/**
 * What one REST request costs in local `wrangler dev` before and around its own SQL: wall time
 * and the CPU time of the workerd processes serving it (the Worker, local D1 and wrangler's
 * proxy Worker, read from /proc), per request, for requests that differ by one step each:
 *
 *   refused     GetStats without a session: routing, middleware, the 401 (no D1 call)
 *   GetStats    the session check on the primary, the caller's cell, two small reads
 *   list        GetProducts, first page of 50 by SKU (catalog lookup, one page statement)
 *   category    GetProducts in a leaf category (catalog lookup, the category's count and page)
 *
 *   npm run bench:request-cost -- --state DIR --sizes 1000000   # a state seeded by bench:api
 *   npm run bench:request-cost -- --samples 500                 # a fresh 10,000-master state
 *
 * The difference between two rows is what that step adds. docs/search.md "Local request cost".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startDevServer } from '../scripts/lib/dev-server';
import { benchArgs, positiveInt } from './lib/args';
import { apiSession } from './lib/session';
import { d1File, releaseState, seededState } from './lib/state';
import { percentile } from './lib/stats';
import { execFileSync } from 'node:child_process';

const args = benchArgs('npm run bench:request-cost -- [flags]: where a local request spends its time', {
  sizes: { type: 'string', default: '10000', value: 'N', help: 'masters of the seeded catalog (one size)' },
  samples: { type: 'string', default: '300', help: 'timed requests per kind (after 20 unmeasured)' },
  state: { type: 'string', value: 'DIR', help: 'reuse the state dir DIR/<masters> (as bench:api --state)' },
  languages: {
    type: 'string',
    value: 'L,L',
    help: 'the state was seeded with these languages (bench:api --languages)',
  },
});
const SAMPLES = positiveInt('samples', args.samples);
const MASTERS = positiveInt('sizes', args.sizes);

/** CPU milliseconds (user + system) of every workerd process below `root` (wrangler's process group leader). */
function workerdCpuMs(root: number): number {
  const procs = new Map<number, { ppid: number; name: string; ticks: number }>();
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(pid), {
        ppid: Number(fields[1]),
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended between listing and reading.
    }
  }
  let ticks = 0;
  for (const proc of procs.values()) {
    if (proc.name !== 'workerd') continue;
    for (let p = proc.ppid; p > 1; p = procs.get(p)?.ppid ?? 0)
      if (p === root) {
        ticks += proc.ticks;
        break;
      }
  }
  return ticks * 10; // USER_HZ is 100 on Linux
}

async function main() {
  const languages = (args.languages ?? '').split(',').filter((l) => l !== '');
  const state = await seededState(MASTERS, args.state, undefined, false, languages);
  const { dir, seeded } = state;
  const server = await startDevServer(dir);
  try {
    const { call } = await apiSession(server.baseUrl, seeded);
    const leaf = execFileSync('sqlite3', [
      d1File(dir),
      `SELECT category_id FROM product_categories pc JOIN categories c ON c.id = pc.category_id
       WHERE c.catalog_id = '${seeded.catalogId}' GROUP BY category_id ORDER BY count(*) LIMIT 1`,
    ])
      .toString()
      .trim();
    const list = `/Catalog/GetProducts?catalogId=${seeded.catalogId}&limit=50`;
    const kinds: [string, () => Promise<unknown>][] = [
      ['refused (401, no session)', () => fetch(`${server.baseUrl}/api/Catalog/GetStats`).then((r) => r.text())],
      ['GetStats', () => call('/Catalog/GetStats')],
      ['GetProducts, first page by SKU', () => call(list)],
      ['GetProducts, leaf category', () => call(`${list}&categoryId=${leaf}`)],
    ];
    console.log(
      `\nlocal request cost, ${MASTERS.toLocaleString('en')} masters, ${SAMPLES} requests each, one at a time\n`,
    );
    console.log('| request | p50 ms | p95 ms | workerd CPU ms per request |\n|---|---:|---:|---:|');
    for (const [name, send] of kinds) {
      for (let i = 0; i < 20; i++) await send();
      const times: number[] = [];
      const cpu = workerdCpuMs(server.child.pid!);
      for (let i = 0; i < SAMPLES; i++) {
        const start = performance.now();
        await send();
        times.push(performance.now() - start);
      }
      const perRequest = (workerdCpuMs(server.child.pid!) - cpu) / SAMPLES;
      console.log(
        `| ${name} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ${perRequest.toFixed(2)} |`,
      );
    }
  } finally {
    server.stop();
    releaseState(state);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
