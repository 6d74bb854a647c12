/**
 * The web application at scale, in headless Chromium against `wrangler dev` with local D1:
 * time from navigation to the first product-grid rows visible, time to the next page while
 * scrolling the grid, the time to find one product by typing its SKU or name words into the
 * grid's search box, and the JavaScript shipped (gzip). Prints one table and the details.
 *
 *   npm run bench:web                            # a 100,000-product synthetic catalog
 *   npm run bench:web -- --sizes 100000,1000000  # also 1M (~5 min seeding, ~6 GB of state)
 *   npm run bench:web -- --samples 5
 *   npm run bench:web -- --state .bench/web      # keep the seeded state there and reuse it next time
 *   npm run bench:web -- --state /tmp/s1m --sizes 1000000 --languages deu,eng,fra   # bench:api's three-language state
 *   npm run bench:web -- --help                  # every flag with its default
 *
 * Each size gets a fresh state dir seeded by scripts/seed-synthetic.ts (deleted afterwards), or
 * with `--state DIR` one kept sub-directory per size, seeded once (for before/after comparisons
 * without seeding twice). The SPA is built first (`npm run build:web`), so the numbers are those
 * of the current code. Besides the table it prints the request waterfall of the median
 * first-rows sample: what the browser fetched, when, and for how long, from navigation start.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { run, startDevServer } from '../scripts/lib/dev-server';
import { launchChromium } from '../test/e2e/web-browser';
import { benchArgs, sizesFlag, positiveInt, positiveInts } from './lib/args';
import { releaseState, seededState } from './lib/state';
import { median } from './lib/stats';
import { summariseProfile } from './cpu-profile';

const args = benchArgs('npm run bench:web -- [flags]: the web application in headless Chromium', {
  sizes: sizesFlag('100000'),
  samples: { type: 'string', default: '5', help: 'cold-cache page loads per size' },
  state: { type: 'string', value: 'DIR', help: 'keep each seeded catalog in DIR/<masters> and reuse it next time' },
  'attribute-samples': { type: 'string', default: '3', help: 'page loads with three attribute columns' },
  'search-samples': { type: 'string', default: '5', help: 'searches by SKU and by name words' },
  profile: { type: 'boolean', help: "a CPU profile of the page's main thread over the last sample" },
  languages: {
    type: 'string',
    value: 'L,L',
    help: 'the catalog publishes these languages, the first its default (seed:synthetic --languages deu,eng,fra; with --state, the state bench:api --languages keeps)',
  },
});
const sizes = positiveInts('sizes', args.sizes);
const SAMPLES = positiveInt('samples', args.samples);
const ATTRIBUTE_SAMPLES = positiveInt('attribute-samples', args['attribute-samples']);
const SEARCH_SAMPLES = positiveInt('search-samples', args['search-samples']);
/** The grid's search box waits this long after the last keystroke (web/src/pages/products/Filters.tsx). */
const SEARCH_PAUSE_MS = 250;
/** The default columns plus the synthetic catalog's three attributes (scripts/seed-synthetic.ts). */
const ATTRIBUTE_COLUMNS = [
  ...['sku', 'name', 'status', 'gtin', 'price', 'unit', 'manufacturerName', 'updatedAt'],
  ...['attr:weight_kg', 'attr:packaging', 'attr:country_of_origin'],
];
/** `--languages`: the catalog's languages, its default first (empty: the seed's one language). */
const LANGUAGES = (args.languages ?? '').split(',').filter((l) => l !== '');
/** `--profile`: a CPU profile of the page's main thread over the last sample (first rows and next page). */
const PROFILE = args.profile;

/** The grid's row height in px (web/src/pages/products/ProductGrid.tsx). */
const ROW_HEIGHT = 40;
/** A product row's selection checkbox: the row is rendered with its data. */
const ROW_CHECKBOX = 'input[type="checkbox"][aria-label^="Select product "]';
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Every JS file of the build, gzipped as a CDN would serve it. */
function buildJsGzip(): { total: number; files: Map<string, number> } {
  const dir = join(process.cwd(), 'dist', 'web', 'assets');
  const files = new Map<string, number>();
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.js')))
    files.set(name, gzipSync(readFileSync(join(dir, name)), { level: 9 }).byteLength);
  return { total: [...files.values()].reduce((a, b) => a + b, 0), files };
}

// The in-page scripts are strings: functions passed to Playwright would be serialised with the
// helpers tsx adds to them (`__name`), which do not exist in the page.

/**
 * Sets `window.__firstRows` to performance.now() (from navigation start) the moment the DOM
 * first has a product row: a MutationObserver, not polling from Node, which adds its own delays.
 */
function firstRowsObserver(): string {
  return `(() => {
    const observer = new MutationObserver(() => {
      if (window.__firstRows === undefined && document.querySelector(${JSON.stringify(ROW_CHECKBOX)})) {
        window.__firstRows = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  })()`;
}

/** Scrolls the grid to `top` px (or its end) and resolves with the ms until `selector` is in the DOM. */
function scrollAndTime(top: 'end' | number, selector: string): string {
  return `new Promise((resolve, reject) => {
    const el = document.querySelector('.grid-scroller');
    const t0 = performance.now();
    const timer = setTimeout(() => reject(new Error('not shown: ' + ${JSON.stringify(selector)})), 60000);
    const check = () => {
      if (!el.querySelector(${JSON.stringify(selector)})) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(performance.now() - t0);
    };
    const observer = new MutationObserver(check);
    observer.observe(el, { childList: true, subtree: true, attributes: true });
    el.scrollTo({ top: ${top === 'end' ? 'el.scrollHeight' : `${top} - el.clientHeight`} });
    check();
  })`;
}

/**
 * Puts `term` into the grid's search box at once (as a paste would) and resolves with the ms
 * until the row of `sku` is in the DOM: the search box's pause, the request and the render.
 */
function searchAndTime(term: string, sku: string): string {
  return `new Promise((resolve, reject) => {
    const input = document.querySelector('input[type="search"]');
    const selector = ${JSON.stringify(`input[aria-label="Select product `)} + ${JSON.stringify(sku)} + '"]';
    const timer = setTimeout(() => reject(new Error('not found: ' + ${JSON.stringify(sku)})), 60000);
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(performance.now() - t0);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    const t0 = performance.now();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(term)});
    input.dispatchEvent(new Event('input', { bubbles: true }));
  })`;
}

/** The synthetic catalog's master `i` (scripts/seed-synthetic.ts): SKU GEN-0000042, name "… Typ 42". */
const skuOf = (i: number) => `GEN-${String(i).padStart(7, '0')}`;

/** One request of the page as the browser saw it, in ms from navigation start. */
interface Fetched {
  what: string;
  start: number;
  end: number;
}

async function measureSize(browser: Browser, masters: number, gzipOf: Map<string, number>) {
  const state = await seededState(masters, args.state, 'pim-bench-web-', false, LANGUAGES);
  const { dir, seeded } = state;
  try {
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
      const reachEnd: number[] = [];
      const waterfalls: { first: number; requests: Fetched[] }[] = [];
      let profile = '';
      /** Browser-side duration of every GetProducts request for a page after the first. */
      const pageRequests: number[] = [];
      let shippedJs = 0;
      for (let i = 0; i <= SAMPLES; i++) {
        // A fresh context per sample: a cold browser cache, as on a user's first visit of the day.
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 820 } });
        await context.addCookies([{ name: 'Service.Cookie', value: token, url: server.baseUrl }]);
        const page = await context.newPage();
        const scripts = new Set<string>();
        const requests: Fetched[] = [];
        page.on('response', (res) => {
          if (res.request().resourceType() === 'script') scripts.add(new URL(res.url()).pathname.split('/').at(-1)!);
        });
        let inFlight = 0;
        page.on('request', () => inFlight++);
        page.on('requestfailed', () => inFlight--);
        /** Until no request has been in flight for 300 ms (the reader's pause; not timed). */
        const quiet = async () => {
          for (let still = 0; still < 300; still = inFlight === 0 ? still + 50 : 0)
            await new Promise((r) => setTimeout(r, 50));
        };
        page.on('requestfinished', (req) => {
          inFlight--;
          if (i > 0 && /GetProducts\?.*cursor=/.test(req.url())) pageRequests.push(req.timing().responseEnd);
          const url = new URL(req.url());
          const what = `${req.method()} ${url.pathname.replace(/-[\w-]{8}\.(js|css)$/, '.$1')}${url.search.length > 1 ? ' ?…' : ''}`;
          requests.push({
            what,
            start: req.timing().startTime,
            end: req.timing().startTime + req.timing().responseEnd,
          });
        });
        const cdp = PROFILE && i === SAMPLES ? await page.context().newCDPSession(page) : null;
        if (cdp) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
          await cdp.send('Profiler.start');
        }
        // Times are taken in the page (performance.now(), from navigation start) the moment the DOM
        // has the rows, by a MutationObserver: not by polling from here, which adds its own delays.
        await page.addInitScript({ content: firstRowsObserver() });
        await page.goto(url);
        const first = await page.waitForFunction('window.__firstRows', null, {
          timeout: 60_000,
          polling: 100,
        });
        const firstMs = Number(await first.jsonValue());
        /** Scrolls the grid to `top` (a function of the scroller) and times until product row `n` is in the DOM. */
        const scrollUntilRow = (top: 'end' | number, n: number): Promise<number> =>
          page.evaluate(scrollAndTime(top, `[role="row"][aria-rowindex="${n + 1}"] ${ROW_CHECKBOX}`));
        // The reader, after a pause with nothing in flight, scrolls down to the end of the first page:
        // how long until row 101 shows (the next page, fetched then or earlier).
        await quiet();
        const pageEnd = await scrollUntilRow(101 * ROW_HEIGHT, 101);
        // A fling to the very end of everything loaded: how long until the rows after it show
        // (nothing prefetched can help: this is the next page's request and render).
        await quiet();
        const status = (await page.locator('.selection-bar').textContent()) ?? '';
        const loaded = Number(/([\d,]+) products/.exec(status)?.[1]?.replace(/,/g, '') ?? 0);
        const next = await scrollUntilRow('end', loaded + 1);
        if (cdp) profile = summariseProfile((await cdp.send('Profiler.stop')).profile as never, 30);
        // Sample 0 warms wrangler's isolate and SQLite's page cache; it is not counted.
        if (i > 0) {
          firstRows.push(firstMs);
          nextPage.push(next);
          reachEnd.push(pageEnd);
          waterfalls.push({ first: firstMs, requests: [...requests] });
        }
        shippedJs = [...scripts].reduce((sum, name) => sum + (gzipOf.get(name) ?? 0), 0);
        await context.close();
      }
      // The grid with three attribute columns chosen (the synthetic catalog's attributes): how many
      // API requests the first screen makes and when the last one has answered (every value shown).
      const withAttributes: { first: number; lastAnswer: number; apiRequests: number }[] = [];
      for (let i = 0; i <= ATTRIBUTE_SAMPLES; i++) {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 820 } });
        await context.addCookies([{ name: 'Service.Cookie', value: token, url: server.baseUrl }]);
        const page = await context.newPage();
        const api: Fetched[] = [];
        let navigation = Number.POSITIVE_INFINITY;
        let inFlight = 0;
        page.on('request', () => inFlight++);
        page.on('requestfailed', () => inFlight--);
        page.on('requestfinished', (req) => {
          inFlight--;
          navigation = Math.min(navigation, req.timing().startTime);
          if (new URL(req.url()).pathname.startsWith('/api/'))
            api.push({
              what: req.url(),
              start: req.timing().startTime,
              end: req.timing().startTime + req.timing().responseEnd,
            });
        });
        await page.addInitScript({
          content: `localStorage.setItem('pim.gridColumns', ${JSON.stringify(JSON.stringify(ATTRIBUTE_COLUMNS))});\n${firstRowsObserver()}`,
        });
        await page.goto(url);
        const first = await page.waitForFunction('window.__firstRows', null, {
          timeout: 60_000,
          polling: 100,
        });
        for (let still = 0; still < 500; still = inFlight === 0 ? still + 50 : 0)
          await new Promise((r) => setTimeout(r, 50));
        if (i > 0)
          withAttributes.push({
            first: Number(await first.jsonValue()),
            lastAnswer: Math.max(...api.map((r) => r.end)) - navigation,
            apiRequests: api.length,
          });
        await context.close();
      }
      // Finding one product among all: its SKU, then words of its name, typed into the search box.
      const bySku: number[] = [];
      const byName: number[] = [];
      for (let i = 0; i <= SEARCH_SAMPLES; i++) {
        const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 820 } });
        await context.addCookies([{ name: 'Service.Cookie', value: token, url: server.baseUrl }]);
        const page = await context.newPage();
        await page.addInitScript({ content: firstRowsObserver() });
        await page.goto(url);
        await page.waitForFunction('window.__firstRows', null, { timeout: 60_000, polling: 100 });
        // a different product per sample, none of them on the first page
        const target = Math.floor(seeded.masters * (0.5 + i / 40));
        const sku = Number(await page.evaluate(searchAndTime(skuOf(target), skuOf(target))));
        const name = Number(await page.evaluate(searchAndTime(`Typ ${target + 1}`, skuOf(target + 1))));
        if (i > 0) {
          bySku.push(sku);
          byName.push(name);
        }
        await context.close();
      }
      return {
        search: { bySku: median(bySku), byName: median(byName) },
        attributeColumns: {
          first: median(withAttributes.map((a) => a.first)),
          lastAnswer: median(withAttributes.map((a) => a.lastAnswer)),
          apiRequests: median(withAttributes.map((a) => a.apiRequests)),
        },
        masters: seeded.masters,
        variants: seeded.variants,
        firstRows: median(firstRows),
        nextPage: median(nextPage),
        reachEnd: median(reachEnd),
        pageRequest: median(pageRequests),
        firstPageApi: median(apiTimes),
        shippedJs,
        profile,
        waterfall: waterfalls.sort((a, b) => a.first - b.first)[Math.floor(waterfalls.length / 2)]!,
      };
    } finally {
      server.stop();
    }
  } finally {
    releaseState(state);
  }
}

/** The requests of one page load until its first rows, in order of start, relative to the first one. */
function printWaterfall(masters: number, { first, requests }: { first: number; requests: Fetched[] }) {
  const t0 = Math.min(...requests.map((r) => r.start));
  console.log(
    `\nRequests of the median sample at ${masters.toLocaleString('en')} masters (first rows at ${first.toFixed(0)} ms):`,
  );
  for (const r of [...requests].sort((a, b) => a.start - b.start)) {
    if (r.start - t0 > first) continue;
    console.log(`  ${(r.start - t0).toFixed(0).padStart(6)} → ${(r.end - t0).toFixed(0).padStart(6)} ms  ${r.what}`);
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
  '| masters | variants | first grid rows visible | of which GetProducts (100 rows) | row 101 after scrolling to the end of page 1 | next page after a fling to the end of all loaded rows | JS loaded for the grid (gzip) | all JS in the build (gzip) |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.masters.toLocaleString('en')} | ${r.variants.toLocaleString('en')} | ${r.firstRows.toFixed(0)} ms | ${r.firstPageApi.toFixed(0)} ms | ${r.reachEnd.toFixed(0)} ms | ${r.nextPage.toFixed(0)} ms | ${kb(r.shippedJs)} | ${kb(build.total)} |`,
  );
}
console.log(
  `\nWith three attribute columns chosen (median of ${ATTRIBUTE_SAMPLES} cold-cache samples): first rows, the last API answer of the first screen (all values shown), API requests made`,
);
for (const r of rows)
  console.log(
    `  ${r.masters.toLocaleString('en')} masters: first rows ${r.attributeColumns.first.toFixed(0)} ms, last answer ${r.attributeColumns.lastAnswer.toFixed(0)} ms, ${r.attributeColumns.apiRequests} API requests`,
  );
console.log(
  `\nFinding one product by typing into the grid's search box (median of ${SEARCH_SAMPLES} samples; from the text being in the box to its row shown, ${SEARCH_PAUSE_MS} ms of it the box's pause after typing)`,
);
for (const r of rows)
  console.log(
    `  ${r.masters.toLocaleString('en')} masters: by SKU ${r.search.bySku.toFixed(0)} ms, by name words ("Typ N") ${r.search.byName.toFixed(0)} ms`,
  );
for (const r of rows) {
  console.log(`\nGetProducts for a next page (cursor), as the browser saw it: median ${r.pageRequest.toFixed(0)} ms`);
  printWaterfall(r.masters, r.waterfall);
}
for (const r of rows)
  if (r.profile) console.log(`\nPage main thread, last sample at ${r.masters} masters: ${r.profile}`);
