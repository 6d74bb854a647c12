/**
 * Shop connector throughput at catalog scale, against a real `wrangler dev` of connector/ with
 * local D1, R2 and Queues and a fresh state dir per size. For each size: the initial load
 * (sequential POST /upsert batches of 1000 creates, each master with 3 variants, 12 values,
 * ETIM features and two categories), a full GET /inventory read (every line parsed and its
 * order checked with compareSkus), a read resumed from the middle with ?after, and a 1 %
 * update round. Images are left out (their fetches would measure the image host, not the store).
 *
 * With `--target vendure|medusa|shopify|shopware` the connector writes into that shop through
 * its adapter instead (bench/lib/shop-bench.ts): initial sync, no-op round, unchanged resend
 * and a 1 % round, with the requests the shop received per master and, for the contract
 * servers, the share of the time the simulated rate limit accounts for (docs/benchmarks.md,
 * "Real shops").
 *
 *   npm run bench:connector                       # 10,000 and 100,000 masters
 *   npm run bench:connector -- --sizes 1000
 *   npm run bench:connector -- --target shopify   # 10,000 masters into the Shopify contract server
 *   npm run bench:connector -- --target vendure --sizes 1000
 *   npm run bench:connector -- --target vendure --db postgres --sizes 10000
 *   npm run bench:connector -- --help             # every flag with its default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareSkus } from '../src/sync/protocol/sku-order';
import { signRequest } from '../src/sync/protocol/signing';
import type { Product, UpsertRecord } from '../src/sync/protocol/wire';
import { migrate, run, startDevServer } from '../scripts/lib/dev-server';
import { benchArgs, nonNegativeInt, positiveInt, positiveInts } from './lib/args';
import { runShopBench } from './lib/shop-bench';
import { SHOP_KINDS, type ShopKind } from './lib/shop-targets';
import { type VendureDb, vendureDbFromEnv } from '../shops/vendure/start';

const DEFAULT_SIZES: Record<ShopKind | 'reference', string> = {
  reference: '10000,100000',
  shopify: '10000',
  shopware: '10000',
  vendure: '1000',
  medusa: '1000',
};

const args = benchArgs('npm run bench:connector -- [flags]: shop connector throughput (upsert, inventory)', {
  target: {
    type: 'string',
    default: 'reference',
    value: 'KIND',
    help: "reference (the connector's own store), vendure, medusa (real engines), shopify or shopware (contract servers)",
  },
  sizes: {
    type: 'string',
    value: 'N,N',
    help: 'catalog sizes in master products, comma-separated (default 10000,100000 for reference, 10000 for shopify and shopware, 1000 for vendure and medusa)',
  },
  'shopify-restore': {
    type: 'string',
    default: '100',
    help: "Shopify's restore rate in points/s, bucket 1000 (shopify.dev: Standard 100, Advanced 200, Plus 1000; older tables 50)",
  },
  'shopify-initial-restore': {
    type: 'string',
    help: "Shopify's restore rate during the initial sync only (default --shopify-restore): fill the shop on Plus's 1000, measure the rounds after it on Standard's 100",
  },
  'shopify-bulk-start-ms': {
    type: 'string',
    default: '2000',
    help: "the contract server's modelled wait before a bulk operation's first line runs (Shopify publishes no figure)",
  },
  'shopify-bulk-line-ms': {
    type: 'string',
    default: '50',
    help: "the contract server's modelled time per line of a bulk operation",
  },
  'shopware-rate': {
    type: 'string',
    default: '10',
    help: 'simulated Shopware Admin API limit: token bucket refill in requests/s',
  },
  'shopware-burst': { type: 'string', default: '20', help: 'simulated Shopware Admin API limit: bucket size' },
  db: {
    type: 'string',
    value: 'DB',
    help: "Vendure's database: sqljs (in memory, slows past a few thousand masters) or postgres (Debian's PostgreSQL 15; VENDURE_PG_PORT picks its port); default VENDURE_DB, else sqljs",
  },
});
const target = args.target as ShopKind | 'reference';
if (target !== 'reference' && !SHOP_KINDS.includes(target)) {
  console.error(`--target must be reference, ${SHOP_KINDS.join(', ')}; not "${args.target}"`);
  process.exit(2);
}
const sizes = positiveInts('sizes', args.sizes ?? DEFAULT_SIZES[target]);
let vendureDb: VendureDb;
try {
  vendureDb = vendureDbFromEnv(args.db ?? process.env.VENDURE_DB);
} catch (err) {
  console.error(`--db: ${(err as Error).message}`);
  process.exit(2);
}
const KEY = { keyId: 'bench', secret: 'bench-connector-secret-1' };

function product(i: number, revision: number): Product {
  const node = {
    name: `Leitungsschutzschalter B${i % 64} rev ${revision}`,
    description: `Einpoliger Leitungsschutzschalter, Bemessungsstrom ${i % 64} A. `.repeat(4),
    gtin: null,
    manufacturerId: 'mfr-voltana-schaltgeraete',
    manufacturerPid: `LS-${i}`,
    unitId: 'unit-c62',
    taxId: 'tax-de-19',
    price: `${(i % 900) + 10}.50`,
    priceQuantity: 1,
    keywords: 'LS-Schalter Sicherungsautomat',
    deliveryTimeDays: 2,
    status: 'active' as const,
    values: Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`attr_${k}`, `value ${k} of ${i}`])),
    classification: {
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }],
      features: Array.from({ length: 8 }, (_, k) => ({
        group: 'ETIM',
        code: `EF00000${k}`,
        value: String(k * i),
        unit: k % 2 ? 'AMP' : null,
      })),
    },
    media: [],
  };
  return {
    ...node,
    categories: [
      { id: 'c-1', path: ['Installation', 'Schutzgeräte', 'LS-Schalter'] },
      { id: 'c-2', path: ['Angebote'] },
    ],
    variants: ['1P', '2P', '3P'].map((suffix) => ({ ...node, sku: `BENCH-${String(i).padStart(7, '0')}-${suffix}` })),
  };
}

const skuOf = (i: number) => `BENCH-${String(i).padStart(7, '0')}`;

async function call(baseUrl: string, method: string, path: string, body?: string): Promise<Response> {
  const headers = await signRequest({ ...KEY, method, pathWithQuery: path, body });
  const response = await fetch(baseUrl + path, {
    method,
    body,
    headers: { ...headers, 'Content-Type': 'application/json' },
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

async function upsertAll(baseUrl: string, records: UpsertRecord[], prefix: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < records.length; i += 1000) {
    const body = JSON.stringify({ batchId: `${prefix}-${i / 1000}`, records: records.slice(i, i + 1000) });
    await call(baseUrl, 'POST', '/upsert', body);
  }
  return (performance.now() - started) / 1000;
}

async function readInventory(baseUrl: string, path: string): Promise<{ seconds: number; lines: number }> {
  const started = performance.now();
  const response = await call(baseUrl, 'GET', path);
  const expected = Number(response.headers.get('X-Inventory-Count'));
  const decoder = new TextDecoder();
  let buffered = '';
  let lines = 0;
  let previous: string | null = null;
  for await (const chunk of response.body!) {
    buffered += decoder.decode(chunk, { stream: true });
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      const { sku } = JSON.parse(line) as { sku: string };
      if (previous !== null && compareSkus(previous, sku) >= 0) throw new Error(`inventory out of order at ${sku}`);
      previous = sku;
      lines++;
    }
  }
  if (lines !== expected) throw new Error(`inventory has ${lines} lines, X-Inventory-Count says ${expected}`);
  return { seconds: (performance.now() - started) / 1000, lines };
}

if (target !== 'reference') {
  await runShopBench({
    kind: target,
    sizes,
    shopifyRestore: positiveInt('shopify-restore', args['shopify-restore']),
    shopifyInitialRestore: args['shopify-initial-restore']
      ? positiveInt('shopify-initial-restore', args['shopify-initial-restore'])
      : undefined,
    shopifyBulk: {
      startMs: nonNegativeInt('shopify-bulk-start-ms', args['shopify-bulk-start-ms']),
      lineMs: nonNegativeInt('shopify-bulk-line-ms', args['shopify-bulk-line-ms']),
    },
    shopwareBucket: {
      ratePerSecond: positiveInt('shopware-rate', args['shopware-rate']),
      burst: positiveInt('shopware-burst', args['shopware-burst']),
    },
    vendureDb,
  });
  process.exit(0);
}

const rows: string[] = [];
for (const size of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'connector-bench-'));
  await migrate(dir, 'connector/wrangler.toml');
  await run('npm', ['exec', '--', 'tsx', 'connector/scripts/seed.ts', '--persist-to', dir]);
  const server = await startDevServer(dir, {
    args: [
      '--config',
      'connector/wrangler.toml',
      '--var',
      `CONNECTOR_KEYS:${JSON.stringify({ [KEY.keyId]: KEY.secret })}`,
    ],
  });
  try {
    const creates = Array.from(
      { length: size },
      (_, i): UpsertRecord => ({ op: 'create', sku: skuOf(i), fingerprint: `fp-${i}-0`, product: product(i, 0) }),
    );
    const load = await upsertAll(server.baseUrl, creates, 'load');
    const full = await readInventory(server.baseUrl, '/inventory');
    const half = await readInventory(server.baseUrl, `/inventory?after=${skuOf(Math.floor(size / 2))}`);
    const changed = Array.from({ length: Math.ceil(size / 100) }, (_, k): UpsertRecord => {
      const i = k * 100;
      return { op: 'update', sku: skuOf(i), fingerprint: `fp-${i}-1`, product: product(i, 1) };
    });
    const update = await upsertAll(server.baseUrl, changed, 'update');
    rows.push(
      `| ${size.toLocaleString('en')} | ${load.toFixed(1)} s (${Math.round(size / load)}/s) | ${full.seconds.toFixed(2)} s | ${half.seconds.toFixed(2)} s (${half.lines} lines) | ${update.toFixed(2)} s (${changed.length}) |`,
    );
    console.log(rows.at(-1));
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log('\n| masters | initial upsert | full inventory read | ?after= middle | 1 % updated |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
