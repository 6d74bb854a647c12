/**
 * Import throughput and memory at catalog scale, against a real `wrangler dev` with local D1,
 * R2 and Queues. For each size: a fresh state dir seeded by scripts/seed-synthetic.ts
 * (masters, every fifth with 3 variants, each with ETIM features, attributes and media
 * references), an export of that catalog per format (the file a supplier would send), then
 * the file is uploaded (Import/Upload, or CreateUpload + UploadPart + CompleteUpload above
 * 90 MB) and imported into an empty catalog with StartImport, polling GetJob to the end.
 * Prints one table row per size and format: products per second, the CPU seconds the workerd
 * process (Worker and local D1) spent on the import and products per CPU-second (the rate
 * one dedicated core would reach, whatever the machine's load), and the Worker's JS heap.
 *
 *   npm run bench:import                                    # BMEcat and CSV, 10,000 and 100,000 masters
 *   npm run bench:import -- --sizes 1000 --formats BMEcat,BMEcat-ETIM,BMEcat12,CSV
 *   npm run bench:import -- --help                          # every flag with its default
 *
 * Every fifth master carries 3 price tiers in 2 price types, 5 references and 3 media links
 * (seed:synthetic --extras; `--plain` seeds without them). After the seed, storage per product
 * row (all tables and indexes, dbstat over the local D1 file) and what the price, reference and
 * link rows cost are printed; after each import, the price, reference and link rows the target
 * catalog got (a file that lost them would show here).
 *
 * The heap is sampled every 200 ms through the V8 inspector (bench/export-inspector.ts).
 * `--profile` also records a CPU profile of the Worker during each import and prints where
 * its thread spent the time (bench/cpu-profile.ts; "(idle)" is waiting for local D1 / R2);
 * `--profile-file F` also keeps each raw profile as F-<size>-<format>.cpuprofile.
 */
import { copyFileSync, createReadStream, createWriteStream, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { inclusiveShares, summariseProfile } from './cpu-profile';
import { connectHeapProbe } from './export-inspector';
import { startSnapshotServer, threadCpuSince } from './export-server';
import { benchArgs, sizesFlag, list, positiveInts } from './lib/args';
import { type ApiCall, apiSession, waitForJob } from './lib/session';
import { d1File, releaseState, seededState } from './lib/state';
import { extrasCounts, storageOf } from './lib/storage';
import type { JobRef } from './lib/types';

const args = benchArgs('npm run bench:import -- [flags]: BMEcat and CSV import throughput and memory', {
  sizes: sizesFlag('10000,100000'),
  formats: {
    type: 'string',
    default: 'BMEcat,CSV',
    value: 'F,F',
    help: 'BMEcat, BMEcat-ETIM, BMEcat12, CSV and/or ETIMxChange, comma-separated',
  },
  profile: { type: 'boolean', help: "where the Worker's thread spent its time during each import" },
  'profile-file': {
    type: 'string',
    value: 'F',
    help: "with --profile, also write each import's raw profile to F-<size>-<format>.cpuprofile (Chrome DevTools, speedscope)",
  },
  plain: { type: 'boolean', help: 'seed without prices, references and media links (the catalog before issue 19)' },
  state: {
    type: 'string',
    value: 'DIR',
    help: 'reuse (or seed and keep) the catalog in DIR/<size>, e.g. one bench:export --state seeded; each run adds its imported catalogs to it',
  },
  'keep-files': {
    type: 'string',
    value: 'DIR',
    help: 'keep each exported file as DIR/<size>-<format> (for bench/import-parse.ts) instead of deleting it',
  },
});
const extras = !args.plain;
const sizes = positiveInts('sizes', args.sizes);
const formats = list(args.formats);
const profile = args.profile;
/** Functions whose inclusive time `--profile` prints: the import's passes and its main costs. */
const PHASES = [
  'validatePhase',
  'readProductsPhase',
  'readXmlRecords',
  'readCsvRecords',
  'readXChangeProducts',
  'xchangeItems',
  'xchangeItemsOf',
  'readTextChunks',
  'items',
  'productOf',
  'csvProductOf',
  'upsertRecords',
  'resolveRecord',
  'fingerprintsAfter',
  'historyStatements',
  'jsonInsert',
  'runBatch',
  'placementsOf',
  'nodeStatements',
  'snapshotAfter',
  'diffSnapshots',
  'fingerprintOf',
  'syncRecord',
  'sha256Hex',
  'flush',
  'chunkByJsonSize',
  'withMarkedRescore',
];
const SINGLE_UPLOAD_MAX = 90 * 1024 * 1024;

interface Row {
  format: string;
  masters: number;
  products: number;
  megabytes: number;
  seconds: number;
  heapBeforeMiB: number;
  heapPeakMiB: number;
  /** CPU seconds of the workerd process (Worker and local D1) during the import. */
  cpuSeconds: number;
  summary: Record<string, number>;
}

/** Uploads a file from disk without holding it in memory: one request, or R2 multipart parts. */
async function upload(base: string, cookie: string, call: ApiCall, file: string, fileName: string): Promise<string> {
  const size = statSync(file).size;
  const put = async (url: string, method: string, start: number, end: number) => {
    const res = await fetch(url, {
      method,
      headers: { Cookie: cookie, 'Content-Type': 'application/octet-stream', 'Content-Length': String(end - start) },
      body: Readable.toWeb(createReadStream(file, { start, end: end - 1 })) as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { fileId: string };
  };
  if (size <= SINGLE_UPLOAD_MAX)
    return (await put(`${base}/Import/Upload?fileName=${fileName}`, 'POST', 0, size)).fileId;
  const { fileId, partSize } = await call<{ fileId: string; partSize: number }>('/Import/CreateUpload', { fileName });
  for (let part = 1, start = 0; start < size; part++, start += partSize)
    await put(
      `${base}/Import/UploadPart?fileId=${fileId}&part=${part}`,
      'PUT',
      start,
      Math.min(size, start + partSize),
    );
  await call('/Import/CompleteUpload', { fileId });
  return fileId;
}

async function benchSize(masters: number): Promise<Row[]> {
  process.stderr.write(`seeding ${masters} masters...\n`);
  const state = await seededState(masters, args.state, 'pim-bench-import-', extras);
  const { dir, seeded } = state;
  process.stderr.write(`${storageOf(d1File(dir))}\n`);
  const rows: Row[] = [];
  try {
    const server = await startSnapshotServer(dir);
    try {
      const base = `${server.baseUrl}/api`;
      const { cookie, call } = await apiSession(server.baseUrl, seeded);
      const heap = await connectHeapProbe(server.inspectorPort);
      for (const format of formats) {
        const exported = await waitForJob(
          call,
          (
            await call<JobRef>('/Export/StartExport', {
              departmentId: seeded.departmentId,
              catalogId: seeded.catalogId,
              exportType: format,
            })
          ).jobId,
        );
        if (exported.state !== 'succeeded') throw new Error(`export ${format}: ${exported.state} ${exported.error}`);
        const file = join(dir, `source-${format}`);
        const download = await fetch(`${base}/Export/Download?jobId=${exported.jobId}`, {
          headers: { Cookie: cookie },
        });
        await new Promise((resolve, reject) =>
          Readable.fromWeb(download.body as never)
            .pipe(createWriteStream(file))
            .on('finish', resolve)
            .on('error', reject),
        );
        const fileId = await upload(
          base,
          cookie,
          call,
          file,
          `source-${format}.${format === 'CSV' ? 'csv' : format === 'ETIMxChange' ? 'json' : 'xml'}`,
        );
        const target = await call<{ catalogId: string }>('/Catalog/AddCatalog', {
          departmentId: seeded.departmentId,
          name: `Import ${format}`,
        });

        const heapBefore = await heap.usedBytes();
        heap.start(200);
        if (profile) await heap.startProfile();
        const cpuBefore = server.cpuSeconds();
        const threadsBefore = server.cpuSecondsByThread();
        const started = performance.now();
        const job = await waitForJob(
          call,
          (
            await call<JobRef>('/Import/StartImport', {
              departmentId: seeded.departmentId,
              catalogId: target.catalogId,
              fileId,
            })
          ).jobId,
        );
        const seconds = (performance.now() - started) / 1000;
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        process.stderr.write(
          `  ${format}: workerd CPU by thread: ${threadCpuSince(server.cpuSecondsByThread(), threadsBefore)}
`,
        );
        const heapPeak = Math.max(heap.stop(), heapBefore);
        if (profile) {
          const recorded = await heap.stopProfile();
          if (args['profile-file'])
            writeFileSync(`${args['profile-file']}-${masters}-${format}.cpuprofile`, JSON.stringify(recorded));
          process.stderr.write(`${format}: ${summariseProfile(recorded)}\n${inclusiveShares(recorded, PHASES)}\n`);
        }
        if (job.state !== 'succeeded') throw new Error(`import ${format}: ${job.state} ${job.error}`);
        const expected = masters + seeded.variants;
        if (job.summary?.created !== expected || job.summary.rejected !== 0)
          throw new Error(`import ${format}: ${JSON.stringify(job.summary)}, expected ${expected} created`);
        rows.push({
          format,
          masters,
          products: expected,
          megabytes: statSync(file).size / 1e6,
          seconds,
          heapBeforeMiB: heapBefore / 2 ** 20,
          heapPeakMiB: heapPeak / 2 ** 20,
          cpuSeconds,
          summary: job.summary,
        });
        if (args['keep-files']) {
          mkdirSync(args['keep-files'], { recursive: true });
          copyFileSync(file, join(args['keep-files'], `${masters}-${format}`));
        }
        rmSync(file, { force: true });
        process.stderr.write(`  ${format}: ${expected} products in ${seconds.toFixed(1)} s\n`);
        process.stderr.write(
          `  ${format}: imported rows ${extrasCounts(d1File(dir), target.catalogId)} (seeded ${extrasCounts(d1File(dir), seeded.catalogId)})\n`,
        );
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
for (const size of sizes) rows.push(...(await benchSize(size)));
console.log(
  '| format | masters | products (with variants) | file size | import time | products/s | workerd CPU | products per CPU-second | Worker JS heap before → peak |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(
    `| ${r.format} | ${r.masters.toLocaleString('en')} | ${r.products.toLocaleString('en')} | ${r.megabytes.toFixed(1)} MB | ${r.seconds.toFixed(1)} s | ${Math.round(r.products / r.seconds).toLocaleString('en')} | ${r.cpuSeconds.toFixed(1)} s | ${Math.round(r.products / r.cpuSeconds).toLocaleString('en')} | ${r.heapBeforeMiB.toFixed(0)} → ${r.heapPeakMiB.toFixed(0)} MiB |`,
  );
}
