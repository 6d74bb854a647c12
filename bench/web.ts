/**
 * The web application at scale, in headless Chromium against `wrangler dev` with local D1:
 * time from navigation to the first product-grid rows visible, time to the next page while
 * scrolling the grid, and the JavaScript shipped (gzip). Prints one table.
 *
 *   npm run bench:web                            # a 100,000-product synthetic catalog
 *   npm run bench:web -- --sizes 100000,1000000  # also 1M (~5 min seeding, ~6 GB of state)
 *   npm run bench:web -- --samples 5
 *
 * Each size gets a fresh state dir seeded by scripts/seed-synthetic.ts; the SPA is built first
 * (`npm run build:web`), so the numbers are those of the current code.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { migrate, run, startDevServer } from '../scripts/lib/dev-server';
import { argValue } from '../scripts/lib/platform';
import { launchChromium } from '../test/e2e/web-browser';
import { type Seeded, seedSynthetic } from './lib/session';

const sizes = (argValue('--sizes', '100000') ?? '').split(',').map(Number);
const SAMPLES = Number(argValue('--samples', '5'));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Every JS file of the build, gzipped as a CDN would serve it. */
function buildJsGzip(): { total: number; files: Map<string, number> } {
  const dir = join(process.cwd(), 'dist', 'web', 'assets');
  const files = new Map<string, number>();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.js')))
    files.set(name, gzipSync(readFileSync(join(dir, name)), { level: 9 }).byteLength);
  return { total: [...files.values()].reduce((a, b) => a + b, 0), files };
}

async function measureSize(browser: Browser, masters: number, gzipOf: Map<string, number>) {
  const dir = mkdtempSync(join(tmpdir(), 'pim-bench-web-'));
  try {
    const seeded = await seedSynthetic(dir, masters);
    const server = await startDevServer(dir);
    try {
      const login = await fetch(`${server.baseUrl}/api/Account/Login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: seeded.email, password: seeded.password }),
      });
      const token = login.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;
      const url = `${server.baseUrl}/products?catalog=${seeded.catalogId}`;
      // The API share of the first rows: the grid's first GetProducts page, timed from Node.
      const apiTimes: number[] = [];
      for (let i = 0; i <= SAMPLES; i++) {
        const start = performance.now();
        const res = await fetch(`${server.baseUrl}/api/Catalog/GetProducts?catalogId=${seeded.catalogId}&limit=100`, {
          headers: { Cookie: `Service.Cookie=${token}` },
        });
        if (res.status !== 200) throw new Error(`GetProducts: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        if (i > 0) apiTimes.push(performance.now() - start);
      }
      const firstRows: number[] = [];
      const nextPage: number[] = [];
      let shippedJs = 0;
      for (let i = 0; i <= SAMPLES; i++) {
        // A fresh context per sample: a cold browser cache, as on a user's first visit of the day.
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 820 } });
        await context.addCookies([{ name: 'Service.Cookie', value: token, url: server.baseUrl }]);
        const page = await context.newPage();
        const scripts = new Set<string>();
        page.on('response', (res) => {
          if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname.split('/').at(-1)!);
        });
        const start = performance.now();
        await page.goto(url);
        await page
          .getByRole('checkbox', { name: /^Select product / })
          .first()
          .waitFor({ timeout: 60_000 });
        const first = performance.now() - start;
        await page.getByText(/100 products loaded/).waitFor();
        const scrolled = performance.now();
        await page.locator('.grid-scroller').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        await page.getByText(/200 products loaded/).waitFor({ timeout: 60_000 });
        const next = performance.now() - scrolled;
        // Sample 0 warms wrangler's isolate and SQLite's page cache; it is not counted.
        if (i > 0) {
          firstRows.push(first);
          nextPage.push(next);
        }
        shippedJs = [...scripts].reduce((sum, name) => sum + (gzipOf.get(name) ?? 0), 0);
        await context.close();
      }
      return {
        masters: seeded.masters,
        variants: seeded.variants,
        firstRows: median(firstRows),
        nextPage: median(nextPage),
        firstPageApi: median(apiTimes),
        shippedJs,
      };
    } finally {
      server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await run('npm', ['run', 'build:web']);
const build = buildJsGzip();
const browser = await launchChromium();
const rows = [];
try {
  for (const size of sizes) rows.push(await measureSize(browser, size, build.files));
} finally {
  await browser.close();
}
console.log(
  `\nWeb application (median of ${SAMPLES} cold-cache samples; local wrangler dev, headless Chromium; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)\n`,
);
console.log(
  '| masters | variants | first grid rows visible | of which GetProducts (100 rows) | next page while scrolling | JS loaded for the grid (gzip) | all JS in the build (gzip) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.masters.toLocaleString('en')} | ${r.variants.toLocaleString('en')} | ${r.firstRows.toFixed(0)} ms | ${r.firstPageApi.toFixed(0)} ms | ${r.nextPage.toFixed(0)} ms | ${kb(r.shippedJs)} | ${kb(build.total)} |`,
  );
}
