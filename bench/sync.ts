/**
 * Sync benchmark (docs/sync.md "Benchmark"): the PIM and the real connector Worker, each under
 * its own `wrangler dev` with local D1/R2/Queues. For each size a synthetic catalog (masters,
 * every fifth with 3 variants, ETIM features, attribute values, an image, a category) is synced
 * three times: initial (everything created), no-op (everything skipped) and after 1 % of the
 * masters changed (SetValue of their name through the API, not timed). Each run is timed from
 * StartSync to `succeeded`; the PIM Worker's JS heap is sampled through the V8 inspector.
 * Checks after each run: the report's counts, and the shop's /status managed count.
 *
 * Both Workers run from a snapshot of the source tree (a file saved meanwhile reloads neither).
 * The CPU seconds of each Worker's workerd process (the isolate with its local D1/R2/Queues)
 * are printed too: they measure the work whatever share of the machine the run got.
 *
 *   npm run bench:sync                       # 10,000 and 100,000 masters
 *   npm run bench:sync -- --sizes 1000
 *   npm run bench:sync -- --sizes 10000 --profile            # where each Worker's thread spent its time
 *   npm run bench:sync -- --sizes 10000 --seed-cache .bench  # seed once, reuse a copy next time
 *   npm run bench:sync -- --help                             # every flag with its default
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { summariseProfile } from './cpu-profile';
import { signRequest } from '../src/sync/protocol/signing';
import { connectHeapProbe } from './export-inspector';
import { startSnapshotServer } from './export-server';
import { addBenchConnection, BENCH_KEY, PIM_VARS, seedConnector, seedPim } from './sync-setup';
import { benchArgs, sizesFlag, positiveInts } from './lib/args';
import { apiSession, waitForJob } from './lib/session';
import { seededState } from './lib/state';
import { syncReportOf, type JobRef, type ProductPage } from './lib/types';

const args = benchArgs('npm run bench:sync -- [flags]: sync runs between the PIM and the real connector', {
  sizes: sizesFlag('10000,100000'),
  profile: { type: 'boolean', help: "where each Worker's thread spent its time" },
  'profile-dir': { type: 'string', value: 'DIR', help: 'with --profile: keep the .cpuprofile files in DIR' },
  'seed-cache': {
    type: 'string',
    value: 'DIR',
    help: 'seed each size once into DIR/sync/<masters>; later runs use a copy',
  },
  'seed-only': { type: 'boolean', help: 'with --seed-cache: fill the cache, measure nothing' },
});
const sizes = positiveInts('sizes', args.sizes);
const profile = args.profile;
const seedCache = args['seed-cache'] && resolve(args['seed-cache'], 'sync');

/** A PIM state to run on: a copy of the one kept under `--seed-cache` (a run changes it), else a fresh one. */
async function seededPim(masters: number) {
  if (!seedCache) return seedPim(masters);
  const kept = await seededState(masters, seedCache);
  const dir = mkdtempSync(join(tmpdir(), 'pim-bench-sync-'));
  cpSync(kept.dir, dir, { recursive: true });
  return { dir, seeded: kept.seeded };
}

interface Row {
  masters: number;
  products: number;
  run: string;
  seconds: number;
  report: string;
  heapBeforeMiB: number;
  heapPeakMiB: number;
  pimCpu: number;
  connectorCpu: number;
}

async function connectorStatus(baseUrl: string) {
  const url = new URL(`${baseUrl}/status`);
  const headers = await signRequest({ ...BENCH_KEY, method: 'GET', pathWithQuery: url.pathname, body: '' });
  return (await (await fetch(url, { headers })).json()) as { products: { managed: number; active: number } };
}

async function benchSize(masters: number): Promise<Row[]> {
  process.stderr.write(`seeding ${masters} masters...\n`);
  const { dir, seeded } = await seededPim(masters);
  const connectorDir = await seedConnector();
  const connector = await startSnapshotServer(
    connectorDir,
    ['--var', `CONNECTOR_KEYS:${JSON.stringify({ [BENCH_KEY.keyId]: BENCH_KEY.secret })}`],
    { config: 'connector/wrangler.toml', entries: ['connector'] },
  );
  const rows: Row[] = [];
  try {
    const connectionId = await addBenchConnection(dir, seeded, connector.baseUrl);
    const server = await startSnapshotServer(dir, PIM_VARS);
    try {
      const { call } = await apiSession(server.baseUrl, seeded);
      const heap = await connectHeapProbe(server.inspectorPort);
      const shopProbe = await connectHeapProbe(connector.inspectorPort);
      const runSync = async (name: string, expect: Record<string, number>) => {
        const heapBefore = await heap.usedBytes();
        if (profile) await Promise.all([heap.startProfile(), shopProbe.startProfile()]);
        const cpuBefore = [server.cpuSeconds(), connector.cpuSeconds()];
        heap.start(200);
        const started = performance.now();
        const { jobId } = await call<JobRef>('/Sync/StartSync', { departmentId: seeded.departmentId, connectionId });
        const job = await waitForJob(call, jobId, 250);
        const seconds = (performance.now() - started) / 1000;
        const heapPeak = Math.max(heap.stop(), heapBefore);
        const pimCpu = server.cpuSeconds() - cpuBefore[0]!;
        const connectorCpu = connector.cpuSeconds() - cpuBefore[1]!;
        if (profile) {
          for (const [worker, probe] of [
            ['PIM', heap],
            ['connector', shopProbe],
          ] as const) {
            const cpuProfile = await probe.stopProfile();
            process.stderr.write(`${name}, ${worker} Worker ${summariseProfile(cpuProfile)}\n`);
            // --profile-dir keeps the .cpuprofile files (Chrome DevTools opens them).
            const keep = args['profile-dir'];
            if (keep) {
              mkdirSync(keep, { recursive: true });
              writeFileSync(
                join(keep, `${masters}-${name.replace(/\W+/g, '-')}-${worker}.cpuprofile`),
                JSON.stringify(cpuProfile),
              );
            }
          }
        }
        if (job.state !== 'succeeded') throw new Error(`${name} sync ${job.state}: ${job.error}`);
        const r = syncReportOf(job);
        const counts = r as unknown as Record<string, unknown>;
        for (const [key, value] of Object.entries(expect))
          if (counts[key] !== value)
            throw new Error(`${name}: ${key} ${counts[key]}, expected ${value} (${JSON.stringify(r).slice(0, 500)})`);
        const shop = await connectorStatus(connector.baseUrl);
        if (shop.products.active !== masters)
          throw new Error(`${name}: the shop has ${shop.products.active} active products, expected ${masters}`);
        rows.push({
          masters,
          products: masters + seeded.variants,
          run: name,
          seconds,
          report: `${r.created} created, ${r.updated} updated, ${r.skipped} skipped, ${r.batches.sent} batches`,
          heapBeforeMiB: heapBefore / 2 ** 20,
          heapPeakMiB: heapPeak / 2 ** 20,
          pimCpu,
          connectorCpu,
        });
        process.stderr.write(
          `  ${name}: ${seconds.toFixed(1)} s (CPU: PIM ${pimCpu.toFixed(1)} s, connector ${connectorCpu.toFixed(1)} s)\n`,
        );
      };
      await runSync('initial', { created: masters, quarantinedCount: 0 });
      await runSync('no-op', { skipped: masters, updated: 0, created: 0 });
      const changed = Math.max(1, Math.round(masters / 100));
      let after: string | null = null;
      const ids: string[] = [];
      while (ids.length < changed) {
        const page: ProductPage = await call<ProductPage>(
          `/Catalog/GetProducts?catalogId=${seeded.catalogId}&limit=100${after ? `&cursor=${after}` : ''}`,
        );
        ids.push(...page.items.filter((p) => !p.parentId).map((p) => p.productId));
        after = page.nextCursor;
        if (!after) break;
      }
      const targets = ids.slice(0, changed);
      for (let i = 0; i < targets.length; i += 8) {
        await Promise.all(
          targets.slice(i, i + 8).map((id) =>
            call('/Catalog/SetValue', {
              departmentId: seeded.departmentId,
              elementId: id,
              field: 'name',
              value: `Changed for the bench ${id.slice(-6)}`,
            }),
          ),
        );
      }
      await runSync('1 % changed', { updated: targets.length, skipped: masters - targets.length });
      heap.close();
      shopProbe.close();
    } finally {
      server.stop();
    }
  } finally {
    connector.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(connectorDir, { recursive: true, force: true });
  }
  return rows;
}

// --seed-only (with --seed-cache): fill the cache ahead of a later run, measure nothing.
if (args['seed-only']) {
  if (!seedCache) throw new Error('--seed-only needs --seed-cache DIR');
  for (const size of sizes) await seededState(size, seedCache);
  process.exit(0);
}
const rows: Row[] = [];
for (const size of sizes) rows.push(...(await benchSize(size)));
console.log(
  '| masters | products (with variants) | run | time | CPU: PIM / connector | report | PIM Worker JS heap before → peak |',
);
console.log('|---:|---:|---|---:|---:|---|---:|');
for (const r of rows) {
  console.log(
    `| ${r.masters.toLocaleString('en')} | ${r.products.toLocaleString('en')} | ${r.run} | ${r.seconds.toFixed(1)} s | ${r.pimCpu.toFixed(1)} s / ${r.connectorCpu.toFixed(1)} s | ${r.report} | ${r.heapBeforeMiB.toFixed(0)} → ${r.heapPeakMiB.toFixed(0)} MiB |`,
  );
}
