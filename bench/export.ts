/**
 * BMEcat export throughput and memory at catalog scale, against a real `wrangler dev` with
 * local D1, R2 and Queues. For each size: a fresh state dir seeded by scripts/seed-synthetic.ts
 * (masters, every fifth with 3 variants, each with ETIM features, attributes and media), then
 * StartExport, GetJob polling to `succeeded`, and a streamed Download that counts the PRODUCTs
 * and checks every SUPPLIER_PID is there exactly once. Prints one table row per size and format.
 *
 *   npm run bench:export                                   # BMEcat, 10,000 and 100,000 masters
 *   npm run bench:export -- --sizes 1000 --formats BMEcat,BMEcat-ETIM,BMEcat12 --validate
 *   npm run bench:export -- --help                         # every flag with its default
 *
 * `--validate` also runs xmllint against the official schema (schemas/bmecat/xsd).
 * `--state DIR` keeps the seeded (and translated) catalog for the next run; `--profile` records
 * a CPU profile of the Worker during each export and prints where its thread spent the time.
 * Every run prints the CPU seconds of the workerd process per thread (the Worker and local D1
 * apart), which, unlike the wall time, does not depend on the machine's load.
 * Memory, sampled every 200 ms while the export runs: the Worker isolate's JS heap through the
 * V8 inspector (what the 128 MB limit applies to), and the resident size of the workerd
 * process running the Worker (which also holds local D1, R2 and Queues, so it is an upper bound).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { BMECAT_SCHEMAS } from '../scripts/lib/bmecat-schemas';
import { inclusiveShares, summariseProfile } from './cpu-profile';
import { connectHeapProbe } from './export-inspector';
import { startSnapshotServer, threadCpuSince } from './export-server';
import { benchArgs, sizesFlag, list, positiveInts } from './lib/args';
import { apiSession, waitForJob } from './lib/session';
import { d1File, releaseState, seededState } from './lib/state';
import { xchangeErrors } from '../scripts/lib/xchange-schema';
import type { JobRef } from './lib/types';

const args = benchArgs('npm run bench:export -- [flags]: BMEcat export throughput and memory', {
  sizes: sizesFlag('10000,100000'),
  formats: {
    type: 'string',
    default: 'BMEcat',
    value: 'F,F',
    help: 'BMEcat, BMEcat-ETIM, BMEcat12 and/or ETIMxChange, comma-separated',
  },
  validate: { type: 'boolean', help: 'also validate each file against the official schema (xmllint; ajv for xChange)' },
  languages: {
    type: 'string',
    default: '',
    value: 'L,L',
    help: 'further languages the catalog publishes (e.g. eng,fra): every product name and description translated into each',
  },
  state: { type: 'string', value: 'DIR', help: 'keep the seeded catalogs in DIR and reuse them in later runs' },
  profile: { type: 'boolean', help: "where the Worker's thread spent its time during each export" },
});
const sizes = positiveInts('sizes', args.sizes);
const formats = list(args.formats);
const validate = args.validate;
const furtherLanguages = list(args.languages).filter((l) => l !== '');
const SCHEMA: Record<string, string> = BMECAT_SCHEMAS;
/** Functions whose inclusive time `--profile` prints: the export's reads and its writers. */
const PHASES = [
  'runExportSlice',
  'productPage',
  'loadProductAggregates',
  'assembleAggregates',
  'productViews',
  'product',
  'xchangeProduct',
];

interface Row {
  format: string;
  masters: number;
  products: number;
  seconds: number;
  megabytes: number;
  heapBeforeMiB: number;
  heapPeakMiB: number;
  rssPeakMiB: number;
  /** CPU seconds of the workerd process (Worker and local D1) during the export. */
  cpuSeconds: number;
  valid: string;
}

/** Streams the download to disk, collecting SUPPLIER_PIDs (or AIDs) across chunk boundaries. */
async function download(response: Response, file: string): Promise<{ bytes: number; pids: string[] }> {
  const out = createWriteStream(file);
  const decoder = new TextDecoder();
  const pids: string[] = [];
  let tail = '';
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    out.write(chunk);
    const text = tail + decoder.decode(chunk, { stream: true });
    let end = 0;
    for (const m of text.matchAll(
      /<SUPPLIER_[AP]ID>([^<]*)<\/SUPPLIER_[AP]ID>|"SupplierItemNumber":("(?:[^"\\]|\\.)*")/g,
    )) {
      pids.push(m[1] ?? (JSON.parse(m[2]!) as string));
      end = m.index + m[0].length;
    }
    // Keep what may hold the start of an element cut by the chunk boundary (an element is < 100 characters).
    tail = text.slice(Math.max(end, text.length - 100));
  }
  await new Promise((r) => out.end(r));
  return { bytes, pids };
}

/**
 * Makes the seeded catalog publish `--languages` too: the company enables them, the catalog
 * lists them, and every product and variant gets a name and description in each, one INSERT
 * ... SELECT per language (the seed itself stays one language: seed:synthetic is shared).
 */
function translateCatalog(dir: string, seeded: { companyId: string; catalogId: string }) {
  const all = JSON.stringify(['deu', ...furtherLanguages]);
  const statements = [
    `UPDATE companies SET languages = '${all}' WHERE id = '${seeded.companyId}';`,
    `UPDATE catalogs SET languages = '${all}' WHERE id = '${seeded.catalogId}';`,
    ...furtherLanguages.map(
      (l) =>
        `INSERT OR REPLACE INTO translations (element_id, field, lang, value) SELECT id, 'name', '${l}', name || ' ${l}' FROM products WHERE catalog_id = '${seeded.catalogId}' AND name IS NOT NULL UNION ALL SELECT id, 'description', '${l}', description || ' ${l}' FROM products WHERE catalog_id = '${seeded.catalogId}' AND description IS NOT NULL;`,
    ),
  ];
  const started = Date.now();
  const result = spawnSync('sqlite3', [d1File(dir)], { input: statements.join('\n'), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`translating the catalog failed: ${result.stderr}`);
  process.stderr.write(
    `  translated into ${furtherLanguages.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

async function benchSize(masters: number): Promise<Row[]> {
  process.stderr.write(`seeding ${masters} masters...\n`);
  // A kept catalog with further languages lives apart from the one-language one.
  const keep = args.state && furtherLanguages.length > 0 ? join(args.state, furtherLanguages.join('-')) : args.state;
  const state = await seededState(masters, keep, 'pim-bench-export-');
  const { dir, seeded } = state;
  // A kept catalog is translated once (the marker file says so).
  const translated = join(dir, 'translated.json');
  if (furtherLanguages.length > 0 && !existsSync(translated)) {
    translateCatalog(dir, seeded);
    writeFileSync(translated, JSON.stringify(furtherLanguages));
  }
  const rows: Row[] = [];
  try {
    const server = await startSnapshotServer(dir);
    try {
      const base = `${server.baseUrl}/api`;
      const { cookie, call } = await apiSession(server.baseUrl, seeded);
      const heap = await connectHeapProbe(server.inspectorPort);
      for (const format of formats) {
        const heapBefore = await heap.usedBytes();
        let rssPeak = server.rssKiB();
        const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rssKiB())), 200);
        heap.start(200);
        if (args.profile) await heap.startProfile();
        const cpuBefore = server.cpuSeconds();
        const threadsBefore = server.cpuSecondsByThread();
        const started = performance.now();
        const { jobId } = await call<JobRef>('/Export/StartExport', {
          departmentId: seeded.departmentId,
          catalogId: seeded.catalogId,
          exportType: format,
        });
        const job = await waitForJob(call, jobId);
        const seconds = (performance.now() - started) / 1000;
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        process.stderr.write(
          `  ${format}: workerd CPU by thread: ${threadCpuSince(server.cpuSecondsByThread(), threadsBefore)}
`,
        );
        if (args.profile) {
          const recorded = await heap.stopProfile();
          process.stderr.write(`${format}: ${summariseProfile(recorded)}\n${inclusiveShares(recorded, PHASES)}\n`);
        }
        clearInterval(sampler);
        const heapPeak = Math.max(heap.stop(), heapBefore);
        if (job.state !== 'succeeded') throw new Error(`${format} export ${job.state}: ${job.error}`);
        const file = join(dir, `export-${format}.${format === 'ETIMxChange' ? 'json' : 'xml'}`);
        const { bytes, pids } = await download(
          await fetch(`${base}/Export/Download?jobId=${jobId}`, { headers: { Cookie: cookie } }),
          file,
        );
        const expected = masters + seeded.variants;
        if (pids.length !== expected || new Set(pids).size !== expected)
          throw new Error(`${format}: ${pids.length} PRODUCTs (${new Set(pids).size} distinct), expected ${expected}`);
        let valid = 'not run';
        if (validate && format === 'ETIMxChange') {
          const errors = xchangeErrors(JSON.parse(readFileSync(file, 'utf8')));
          valid = errors.length === 0 ? 'valid' : `INVALID: ${errors.slice(0, 3).join('; ')}`;
        } else if (validate) {
          const lint = spawnSync('xmllint', ['--noout', '--schema', SCHEMA[format]!, file], { encoding: 'utf8' });
          valid = lint.status === 0 ? 'valid' : `INVALID: ${lint.stderr.slice(0, 300)}`;
        }
        rmSync(file, { force: true });
        rows.push({
          format,
          masters,
          products: expected,
          seconds,
          megabytes: bytes / 1e6,
          heapBeforeMiB: heapBefore / 2 ** 20,
          heapPeakMiB: heapPeak / 2 ** 20,
          rssPeakMiB: rssPeak / 1024,
          cpuSeconds,
          valid,
        });
        process.stderr.write(`  ${format}: ${expected} products in ${seconds.toFixed(1)} s\n`);
      }
      heap.close();
    } finally {
      server.stop();
    }
  } finally {
    releaseState(state);
  }
  return rows;
}

const rows: Row[] = [];
process.stderr.write(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
for (const size of sizes) rows.push(...(await benchSize(size)));
process.stderr.write(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}\n`,
);
console.log(
  '| format | masters | PRODUCTs (with variants) | export time | products/s | workerd CPU | file size | Worker JS heap before → peak | workerd RSS peak | xmllint |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.format} | ${r.masters.toLocaleString('en')} | ${r.products.toLocaleString('en')} | ${r.seconds.toFixed(1)} s | ${Math.round(r.products / r.seconds).toLocaleString('en')} | ${r.cpuSeconds.toFixed(1)} s | ${r.megabytes.toFixed(1)} MB | ${r.heapBeforeMiB.toFixed(0)} → ${r.heapPeakMiB.toFixed(0)} MiB | ${r.rssPeakMiB.toFixed(0)} MiB | ${r.valid} |`,
  );
}
