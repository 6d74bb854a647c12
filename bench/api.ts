/**
 * Latency of the hot REST operations at two catalog sizes, against a real `wrangler dev` with
 * local D1 (SQLite) state: GetStats, GetProducts (first page and a deep keyset page) and
 * AddProduct. Prints p50 / p95 / max in milliseconds per operation and size.
 *
 *   npm run bench:api                       # 1,000 and 100,000 master products
 *   npm run bench:api -- --sizes 1000,10000 # other sizes
 *
 * Each size gets its own fresh state dir, seeded by scripts/seed-synthetic.ts (masters plus
 * 0.6 variants per master on average, each with values, features and media).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, run, startDevServer } from '../scripts/lib/dev-server';
import { argValue } from '../scripts/lib/platform';

const sizes = (argValue('--sizes', '1000,100000') ?? '').split(',').map(Number);
const SAMPLES = Number(argValue('--samples', '30'));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await fn();
  return [performance.now() - start, result];
}

interface Seeded {
  departmentId: string;
  catalogId: string;
  email: string;
  password: string;
  masters: number;
  variants: number;
  seconds: number;
}

async function benchSize(masters: number) {
  const dir = mkdtempSync(join(tmpdir(), 'pim-bench-'));
  try {
    await migrate(dir);
    const out = await run('npm', ['run', '--silent', 'seed:synthetic', '--', '--products', String(masters), '--persist-to', dir]);
    const seeded = JSON.parse(out.trim().split('\n').filter((l) => l.startsWith('{')).at(-1)!) as Seeded;
    const server = await startDevServer(dir);
    try {
      const base = `${server.baseUrl}/api`;
      const login = await fetch(`${base}/Account/Login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: seeded.email, password: seeded.password }) });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const get = async (path: string) => {
        const res = await fetch(`${base}${path}`, { headers: { Cookie: cookie } });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<any>;
      };
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        return res.json() as Promise<any>;
      };
      // Warm up the isolate and SQLite page cache.
      for (let i = 0; i < 5; i++) await get('/Catalog/GetStats');

      // Walk keyset pages of 500 to ~90% depth, keeping the cursor for the deep-page samples.
      let cursor: string | null = null;
      const pagesToWalk = Math.max(1, Math.floor((masters * 0.9) / 500));
      for (let i = 0; i < pagesToWalk; i++) {
        const page: any = await get(`/Catalog/GetProducts?catalogId=${seeded.catalogId}&limit=500${cursor ? `&cursor=${cursor}` : ''}`);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }

      const measure = async (name: string, fn: (i: number) => Promise<unknown>) => {
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) times.push((await timed(() => fn(i)))[0]);
        return { operation: name, p50: percentile(times, 50), p95: percentile(times, 95), max: Math.max(...times) };
      };
      const rows = [
        await measure('GetStats', () => get('/Catalog/GetStats')),
        await measure('GetProducts first page (50)', () => get(`/Catalog/GetProducts?catalogId=${seeded.catalogId}`)),
        await measure('GetProducts deep page (50)', () => get(`/Catalog/GetProducts?catalogId=${seeded.catalogId}${cursor ? `&cursor=${cursor}` : ''}`)),
        await measure('GetProducts search q=GEN-00012 (SKU prefix, many hits)', () => get(`/Catalog/GetProducts?catalogId=${seeded.catalogId}&q=GEN-00012`)),
        await measure('GetProducts search q=nomatch (worst case: full scan)', () => get(`/Catalog/GetProducts?catalogId=${seeded.catalogId}&q=nomatch`)),
        await measure('AddProduct', (i) => post('/Catalog/AddProduct', { departmentId: seeded.departmentId, catalogId: seeded.catalogId, sku: `BENCH-${i}-${Date.now()}`, name: 'Bench product', price: '9.99' })),
      ];
      return { masters: seeded.masters, variants: seeded.variants, seedSeconds: seeded.seconds, rows };
    } finally {
      server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const size of sizes) {
  process.stderr.write(`seeding and measuring ${size} master products...\n`);
  results.push(await benchSize(size));
}
console.log(`\nREST latency, wrangler dev (local D1), ${SAMPLES} samples each, milliseconds\n`);
console.log('| catalog (masters + variants) | operation | p50 | p95 | max |');
console.log('|---|---|---:|---:|---:|');
for (const r of results) {
  for (const row of r.rows) {
    console.log(`| ${r.masters.toLocaleString('en')} + ${r.variants.toLocaleString('en')} | ${row.operation} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.max.toFixed(1)} |`);
  }
}
