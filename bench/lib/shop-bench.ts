/**
 * `npm run bench:connector -- --target <kind>`: the connector (a real `wrangler dev`) writing
 * into a shop through its adapter (docs/shops.md), per catalog size:
 *
 * 1. initial sync: PUT /target, then the PIM's round (GET /inventory, every master a create,
 *    in batches of the connector's X-Max-Batch-Records);
 * 2. no-op round: GET /inventory, the diff finds nothing to send;
 * 3. the same records resent (new batchIds): the connector finds them unchanged in its mirror;
 * 4. a 1 % round: GET /inventory, every 100th master changed and sent as an update.
 *
 * The shop sits behind a counting proxy (requests per product), with the target's rate limit
 * simulated for the contract servers (bench/lib/shop-targets.ts). Each master has 3 variants
 * told apart by a feature, German texts with English and French translations, a tier price
 * list, ETIM features, attribute values, 2 categories and 2 images out of 4 distinct PNGs
 * served from 127.0.0.1 (reused, so deduplication by sha256 shows).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { signRequest } from '../../src/sync/protocol/signing';
import {
  MAX_BATCH_RECORDS,
  MAX_BATCH_RECORDS_HEADER,
  type Mappings,
  type Product,
  type UpsertRecord,
  type Variant,
} from '../../src/sync/protocol/wire';
import { migrate, startDevServer } from '../../scripts/lib/dev-server';
import { type BenchImage, startImageServer } from './image-server';
import { type BenchShop, type ShopKind, type ShopOptions, startShop } from './shop-targets';
import { describeOperations, type ProxyCounters } from './target-proxy';

const KEY = { keyId: 'bench', secret: 'bench-connector-secret-1' };
const AMPS = ['6', '10', '16', '20', '25', '32'];
const CATEGORIES = Array.from({ length: 20 }, (_, k) => ({
  id: `cat-${k}`,
  path: ['Installation', `Gruppe ${k % 5}`, `Reihe ${k}`],
}));

interface Ids {
  manufacturerId: string | null;
  unitId: string | null;
  taxId: string | null;
}

const skuOf = (i: number) => `SHOP-${String(i).padStart(7, '0')}`;

const tierPrices = (amount: number) =>
  [
    [amount, '1'],
    [amount * 0.95, '10'],
  ].map(([value, lowerBound]) => ({
    type: 'net_customer',
    amount: Number(value).toFixed(2),
    currency: 'EUR',
    tax: '0.19',
    factor: null,
    lowerBound: String(lowerBound),
    territory: [],
    validFrom: null,
    validTo: null,
    daily: false,
  }));

/** Master `i` at `revision`: a change of revision changes names and prices (the 1 % round). */
export function shopProduct(i: number, revision: number, ids: Ids, images: BenchImage[]): Product {
  const base = (i % 900) + 10 + revision;
  const node = {
    name: `Leitungsschutzschalter B${i} Rev. ${revision}`,
    description: `Einpoliger Leitungsschutzschalter ${i}, Charakteristik B.`,
    gtin: null,
    ...ids,
    manufacturerPid: `LS-${i}`,
    price: `${base}.50`,
    priceQuantity: 1,
    keywords: 'LS-Schalter Sicherungsautomat',
    deliveryTimeDays: 2,
    status: 'active' as const,
    values: { material: i % 2 ? 'Kunststoff' : 'Metall', serie: `S${i % 7}` },
    translations: {
      eng: { name: `Circuit breaker B${i} rev. ${revision}`, description: `Single-pole circuit breaker ${i}.` },
      fra: { name: `Disjoncteur B${i} rév. ${revision}`, description: `Disjoncteur unipolaire ${i}.` },
    },
    prices: tierPrices(base + 0.5),
  };
  const classes = [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Leitungsschutzschalter' }];
  const variants: Variant[] = [0, 1, 2].map((v) => {
    const amps = AMPS[(i + v) % AMPS.length]!;
    return {
      ...node,
      sku: `${skuOf(i)}-${amps}A`,
      name: `${node.name} ${amps} A`,
      price: `${base + v}.50`,
      prices: tierPrices(base + v + 0.5),
      classification: {
        classes,
        features: [
          { group: 'ETIM', code: 'EF000010', name: 'Bemessungsstrom', value: amps, unit: 'AMP' },
          { group: 'ETIM', code: 'EF000020', name: 'Polzahl', value: '1', unit: null },
        ],
      },
      media: [],
    };
  });
  return {
    ...node,
    classification: {
      classes,
      features: [
        { group: 'ETIM', code: 'EF000030', name: 'Breite in TE', value: String((i % 3) + 1), unit: null },
        { group: 'ETIM', code: 'EF000040', name: 'Schaltvermögen', value: i % 2 ? '6000' : '10000', unit: null },
      ],
    },
    media: [0, 1].map((position) => {
      const image = images[(i + position) % images.length]!;
      return {
        sha256: image.sha256,
        url: image.url,
        contentType: 'image/png',
        fileName: image.fileName,
        purpose: 'normal',
        position,
      };
    }),
    categories: [CATEGORIES[i % CATEGORIES.length]!, CATEGORIES[(i * 7 + 3) % CATEGORIES.length]!],
    variants,
  };
}

/**
 * A signed call through node:http: a POST /upsert against a slow engine may take longer than
 * fetch's 300 s headers timeout (undici's), and this one waits for as long as it takes.
 */
async function call(baseUrl: string, method: string, path: string, body?: string): Promise<Response> {
  const headers = await signRequest({ ...KEY, method, pathWithQuery: path, body });
  const response = await new Promise<Response>((resolve, reject) => {
    const req = httpRequest(
      baseUrl + path,
      { method, headers: { ...headers, 'Content-Type': 'application/json' }, timeout: 0 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') responseHeaders.set(name, value);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: responseHeaders }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
  return response;
}

async function inventory(baseUrl: string): Promise<Map<string, string>> {
  const text = await (await call(baseUrl, 'GET', '/inventory')).text();
  const lines = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const { sku, fingerprint } = JSON.parse(line) as { sku: string; fingerprint: string };
    lines.set(sku, fingerprint);
  }
  return lines;
}

interface Answer {
  created: number;
  updated: number;
  unchanged: number;
  failed: { sku: string | null; field: string; error: string }[];
}

interface Round {
  seconds: number;
  sent: number;
  answer: Answer;
  target: ProxyCounters;
  load: number;
  /** The shop's simulated limit during the round (Shopify's budget may change after the initial sync). */
  rate: { points?: number; requests?: number; burst: number } | null;
}

async function send(baseUrl: string, records: UpsertRecord[], batch: number, prefix: string): Promise<Answer> {
  const total: Answer = { created: 0, updated: 0, unchanged: 0, failed: [] };
  const started = performance.now();
  let reported = started;
  for (let i = 0; i < records.length; i += batch) {
    if (performance.now() - reported > 30_000) {
      reported = performance.now();
      const seconds = (reported - started) / 1000;
      console.log(
        `  ${prefix}: ${i} of ${records.length} records in ${seconds.toFixed(0)} s (${(i / seconds).toFixed(1)}/s)`,
      );
    }
    const body = JSON.stringify({ batchId: `${prefix}-${i / batch}`, records: records.slice(i, i + batch) });
    const answer = (await (await call(baseUrl, 'POST', '/upsert', body)).json()) as Answer;
    total.created += answer.created;
    total.updated += answer.updated;
    total.unchanged += answer.unchanged;
    total.failed.push(...answer.failed);
  }
  return total;
}

export interface ShopBenchOptions extends ShopOptions {
  kind: ShopKind;
  sizes: number[];
}

/** A line of the results table, and the raw figures. */
export interface ShopRow {
  size: number;
  line: string;
}

export async function runShopBench(options: ShopBenchOptions): Promise<void> {
  const images = await startImageServer(4);
  const lines: string[] = [];
  try {
    for (const size of options.sizes) {
      const line = await benchSize(options, size, images.images);
      lines.push(line);
      console.log(line);
    }
  } finally {
    await images.close();
  }
  const db = options.kind === 'vendure' ? ` (${options.vendureDb})` : '';
  console.log(`\ntarget ${options.kind}${db}; image GETs at the image server: ${images.fetches}`);
  console.log(
    '\n| masters | initial sync | requests / master | rate-limit share | shop answering | no-op round | resend unchanged | 1 % round |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const line of lines) console.log(line);
}

async function benchSize(options: ShopBenchOptions, size: number, images: BenchImage[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'connector-shop-bench-'));
  let shop: BenchShop | null = null;
  let server: Awaited<ReturnType<typeof startDevServer>> | null = null;
  try {
    await migrate(dir, 'connector/wrangler.toml');
    const started = performance.now();
    shop = await startShop(options.kind, options);
    const on = shop.database ? ` on ${shop.database}` : '';
    console.log(`${options.kind}${on} up in ${((performance.now() - started) / 1000).toFixed(0)} s at ${shop.url}`);
    server = await startDevServer(dir, {
      args: [
        '--config',
        'connector/wrangler.toml',
        '--var',
        `CONNECTOR_KEYS:${JSON.stringify({ [KEY.keyId]: KEY.secret })}`,
        '--var',
        'ALLOW_PRIVATE_TARGETS:true',
      ],
    });
    const base = server.baseUrl;
    await call(
      base,
      'PUT',
      '/target',
      JSON.stringify({
        kind: options.kind,
        url: shop.url,
        credentials: shop.credentials,
        mapping: { priceType: 'net_customer' },
      }),
    );
    const probe = await (await call(base, 'POST', '/target/test')).json();
    console.log(`probe: ${JSON.stringify(probe).slice(0, 300)}`);
    const mappingsResponse = await call(base, 'GET', '/mappings');
    const batch = Number(mappingsResponse.headers.get(MAX_BATCH_RECORDS_HEADER) ?? MAX_BATCH_RECORDS);
    const mappings = (await mappingsResponse.json()) as Mappings;
    const ids: Ids = {
      manufacturerId: mappings.manufacturers[0]?.id ?? null,
      unitId: mappings.units[0]?.id ?? null,
      taxId: (mappings.taxes.find((t) => t.rate === 19) ?? mappings.taxes[0])?.id ?? null,
    };
    shop.proxy.take();

    const revisions = new Array<number>(size).fill(0);
    const fingerprint = (i: number) => `fp-${i}-${revisions[i]}`;
    const record = (i: number, op: 'create' | 'update'): UpsertRecord => ({
      op,
      sku: skuOf(i),
      fingerprint: fingerprint(i),
      product: shopProduct(i, revisions[i]!, ids, images),
    });
    const measure = async (prefix: string, body: () => Promise<{ sent: number; answer: Answer }>): Promise<Round> => {
      shop!.proxy.take();
      const t0 = performance.now();
      const { sent, answer } = await body();
      const round = {
        seconds: (performance.now() - t0) / 1000,
        sent,
        answer,
        target: shop!.proxy.take(),
        load: loadavg()[0]!,
        rate: shop!.rate ? { ...shop!.rate } : null,
      };
      const failed = answer.failed.length;
      const extra = shop!.extra?.() ?? '';
      console.log(
        `${prefix}: ${round.seconds.toFixed(1)} s, sent ${sent}, created ${answer.created}, updated ${answer.updated}, unchanged ${answer.unchanged}, failed ${failed}, target requests ${round.target.requests}${round.target.points ? `, points ${round.target.points}, throttled ${round.target.throttled}` : ''}${round.target.heldMs ? `, held ${(round.target.heldMs / 1000).toFixed(1)} s` : ''}, shop busy ${(round.target.busyMs / 1000).toFixed(1)} s${extra ? `, ${extra}` : ''}, load ${round.load.toFixed(2)}`,
      );
      for (const f of answer.failed.slice(0, 5)) console.log(`  failed ${f.sku} ${f.field}: ${f.error}`);
      // The slow calls of a round with few writes (the 1 % round): where each update's time goes.
      if (sent > 0 && sent <= 200)
        for (const line of describeOperations(round.target.operations)) console.log(`  ${line}`);
      return round;
    };
    /** The PIM's round: read the inventory, send what differs from it. */
    const pimRound = (prefix: string) =>
      measure(prefix, async () => {
        const held = await inventory(base);
        const records: UpsertRecord[] = [];
        for (let i = 0; i < size; i++) {
          const fp = held.get(skuOf(i));
          if (fp === undefined) records.push(record(i, 'create'));
          else if (fp !== fingerprint(i)) records.push(record(i, 'update'));
        }
        return { sent: records.length, answer: await send(base, records, batch, prefix) };
      });

    const initial = await pimRound('initial');
    shop.afterInitial?.();
    const noop = await pimRound('no-op');
    const resend = await measure('resend', async () => {
      const records = Array.from({ length: size }, (_, i) => record(i, 'create'));
      return { sent: records.length, answer: await send(base, records, batch, 'resend') };
    });
    for (let i = 0; i < size; i += 100) revisions[i]!++;
    const changed = await pimRound('one-percent');

    const rateShare = (round: Round): string => {
      if (!round.rate) return 'n/a (no limit)';
      if (round.rate.points) {
        // The least time any client needs for the points spent: the bucket's refill after its first 1000.
        const floor = Math.max(0, round.target.points - round.rate.burst) / round.rate.points;
        return `${Math.round((100 * floor) / round.seconds)} % (${round.target.points} points, ${round.target.throttled} throttled)`;
      }
      return `${Math.round((100 * round.target.heldMs) / 1000 / round.seconds)} % (held ${(round.target.heldMs / 1000).toFixed(1)} s)`;
    };
    const busy = (round: Round) =>
      `${Math.round((100 * round.target.busyMs) / 1000 / round.seconds)} % (${(round.target.busyMs / 1000).toFixed(0)} s)`;
    const perMaster = (round: Round) => (round.target.requests / Math.max(1, round.sent)).toFixed(1);
    const fmt = (round: Round) =>
      `${round.seconds.toFixed(2)} s (${round.target.requests} target req., load ${round.load.toFixed(1)})`;
    return `| ${size.toLocaleString('en')} | ${initial.seconds.toFixed(0)} s (${(size / initial.seconds).toFixed(1)} masters/s, ${initial.answer.failed.length} failed, load ${initial.load.toFixed(1)}) | ${perMaster(initial)} | ${rateShare(initial)} | ${busy(initial)} | ${fmt(noop)} | ${fmt(resend)} | ${changed.seconds.toFixed(1)} s (${changed.sent} sent, ${perMaster(changed)} req./master, load ${changed.load.toFixed(1)}) |`;
  } finally {
    server?.stop();
    await shop?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
