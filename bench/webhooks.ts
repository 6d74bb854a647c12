/**
 * Webhook fan-out of a 10,000-product import (issue 34 "Measured", docs/webhooks.md): how fast
 * the events of one import reach a receiver, and how long after their commit.
 *
 *   npm run bench:webhooks                                  # CSV import of 10,000 products
 *   npm run bench:webhooks -- --format BMEcat --masters 1000
 *   npm run bench:webhooks -- --help                        # every flag with its default
 *
 * A synthetic catalog (seed:synthetic: every fifth master with 3 variants, so 6,250 masters are
 * 10,000 products) is exported as the file a supplier would send and imported through the
 * Import API (Upload, StartImport) into an empty catalog of the same company, against
 * `wrangler dev` (local D1, Queues, Durable Objects) with `ALLOW_PRIVATE_TARGETS`, so the
 * receiver may listen on 127.0.0.1. The seeded user is made an admin of its company in the D1
 * file first (the seed makes an editor; AddEndpoint is for admins). The receiver is the e2e
 * one (test/e2e/webhook-receiver.ts): every request verified with the `standardwebhooks`
 * library against the endpoint's secret, and its arrival time kept.
 *
 * Commit time of an event = the `at` of the last change it carries (its payload `timestamp`):
 * the history row's database clock (`at` default), taken inside the import batch that commits
 * the product, so the delay below runs from that batch's write to the request's arrival (the
 * batch's remaining statements are counted as delay, never hidden). Events per second = the
 * product events delivered / (last arrival - first commit): the whole fan-out, import included.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { LOCAL_DEV_VARS } from '../scripts/lib/dev-vars';
import { startDevServer } from '../scripts/lib/dev-server';
import { type Received, WebhookReceiver } from '../test/e2e/webhook-receiver';
import { benchArgs, positiveInt } from './lib/args';
import { apiSession, waitForJob } from './lib/session';
import { d1File, releaseState, seededState } from './lib/state';
import { percentile } from './lib/stats';
import type { JobRef } from './lib/types';

const args = benchArgs('npm run bench:webhooks -- [flags]: webhook fan-out of one import', {
  masters: {
    type: 'string',
    default: '6250',
    help: 'masters of the imported catalog (every fifth has 3 variants: 6,250 masters = 10,000 products)',
  },
  format: { type: 'string', default: 'CSV', value: 'F', help: 'file format of the import: CSV or BMEcat' },
  quiet: { type: 'string', default: '120', value: 'S', help: 'seconds without a delivery after which the wait ends' },
  state: { type: 'string', value: 'DIR', help: 'reuse (or seed and keep) the catalog in DIR/<masters>' },
});
const MASTERS = positiveInt('masters', args.masters);
const QUIET_MS = positiveInt('quiet', args.quiet) * 1000;
const FORMAT = args.format;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ProductEvent {
  elementId: string;
  changes: { at: string }[];
}

const state = await seededState(MASTERS, args.state, 'pim-bench-webhooks-');
const receiver = new WebhookReceiver();
try {
  const file = d1File(state.dir);
  execFileSync('sqlite3', [
    file,
    `UPDATE memberships SET role = 'admin' WHERE company_id = '${state.seeded.companyId}' AND user_id = (SELECT id FROM users WHERE email = '${state.seeded.email}')`,
  ]);
  const server = await startDevServer(state.dir, {
    args: [
      '--var',
      `WEBHOOK_ENCRYPTION_KEY:${LOCAL_DEV_VARS.WEBHOOK_ENCRYPTION_KEY}`,
      '--var',
      'ALLOW_PRIVATE_TARGETS:true',
    ],
  });
  try {
    const { seeded } = state;
    const { cookie, call } = await apiSession(server.baseUrl, seeded);
    const expected = seeded.masters + seeded.variants;
    const exported = await waitForJob(
      call,
      (
        await call<JobRef>('/Export/StartExport', {
          departmentId: seeded.departmentId,
          catalogId: seeded.catalogId,
          exportType: FORMAT,
        })
      ).jobId,
    );
    if (exported.state !== 'succeeded') throw new Error(`export: ${exported.state} ${exported.error}`);
    const body = await (
      await fetch(`${server.baseUrl}/api/Export/Download?jobId=${exported.jobId}`, { headers: { Cookie: cookie } })
    ).arrayBuffer();
    const uploaded = await fetch(
      `${server.baseUrl}/api/Import/Upload?fileName=supplier.${FORMAT === 'CSV' ? 'csv' : 'xml'}`,
      { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'application/octet-stream' }, body },
    );
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const { fileId } = (await uploaded.json()) as { fileId: string };
    const target = await call<{ catalogId: string }>('/Catalog/AddCatalog', {
      departmentId: seeded.departmentId,
      name: 'Supplier import',
    });

    await receiver.start();
    const endpoint = await call<{ endpointId: string; secret: string }>('/Webhooks/AddEndpoint', {
      url: receiver.url,
      description: 'bench:webhooks',
      eventTypes: ['product.created', 'product.updated', 'import.finished'],
    });
    receiver.secret = endpoint.secret;
    await sleep(3000); // the dispatcher's loop is running and at the end of the feed

    const loadBefore = loadavg();
    const started = Date.now();
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
    if (job.state !== 'succeeded') throw new Error(`import: ${job.state} ${job.error}`);
    if (job.summary?.created !== expected) throw new Error(`import: ${JSON.stringify(job.summary)}`);
    process.stderr.write(`import of ${expected} products done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const products = () => new Set(receiver.received.filter(isProduct).map((r) => (r.data as ProductEvent).elementId));
    let seen = receiver.received.length;
    let lastChange = Date.now();
    while (products().size < expected && Date.now() - lastChange < QUIET_MS) {
      await sleep(1000);
      if (receiver.received.length !== seen) [seen, lastChange] = [receiver.received.length, Date.now()];
    }
    const loadAfter = loadavg();
    report(receiver.received, expected, job.startedAt, job.finishedAt, loadBefore, loadAfter);
    console.log(phases(file, job.jobId, endpoint.endpointId));
  } finally {
    server.stop();
  }
} finally {
  await receiver.stop();
  releaseState(state);
}

/** The ms a UUIDv7 was made at (its first 48 bits): delivery ids are made when the dispatcher writes them. */
function uuidV7Ms(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

/**
 * Where the time went, read from the D1 file: the import's commits (its history rows' `at`) and
 * the dispatcher writing the pending deliveries (their UUIDv7 ids); the rest is queue delivery.
 */
function phases(file: string, jobId: string, endpointId: string): string {
  const row = (query: string) => execFileSync('sqlite3', [file, query], { encoding: 'utf8' }).trim().split('|');
  const [firstAt, lastAt] = row(`SELECT min(at), max(at) FROM history_versions WHERE job_id = '${jobId}'`);
  const [firstId, lastId] = row(`SELECT min(id), max(id) FROM webhook_deliveries WHERE endpoint_id = '${endpointId}'`);
  const commit = [Date.parse(firstAt!), Date.parse(lastAt!)];
  const written = [uuidV7Ms(firstId!), uuidV7Ms(lastId!)];
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `\nimport commits ${firstAt} → ${lastAt} (${s(commit[1]! - commit[0]!)}); deliveries written by the dispatcher from ${s(written[0]! - commit[0]!)} to ${s(written[1]! - commit[0]!)} after the first commit (${s(written[1]! - commit[1]!)} after the last)`;
}

function isProduct(r: Received): boolean {
  return r.type === 'product.created' || r.type === 'product.updated';
}

/** Prints the figures of one run as a table row (first arrival of each `webhook-id`). */
function report(
  received: Received[],
  expected: number,
  jobStarted: string | null,
  jobFinished: string | null,
  loadBefore: number[],
  loadAfter: number[],
) {
  const first = new Map<string, Received>();
  for (const r of received) if (!first.has(r.id)) first.set(r.id, r);
  const events = [...first.values()].filter(isProduct);
  const forged = received.filter((r) => r.verifyError !== null).length;
  const perProduct = new Map<string, number>();
  let changes = 0;
  const delays: number[] = [];
  let firstCommit = Number.POSITIVE_INFINITY;
  let lastArrival = 0;
  for (const r of events) {
    const data = r.data as ProductEvent;
    perProduct.set(data.elementId, (perProduct.get(data.elementId) ?? 0) + 1);
    changes += data.changes.length;
    const commits = data.changes.map((c) => Date.parse(c.at));
    firstCommit = Math.min(firstCommit, ...commits);
    lastArrival = Math.max(lastArrival, r.receivedAt);
    delays.push(r.receivedAt - Math.max(...commits));
  }
  const seconds = (lastArrival - firstCommit) / 1000;
  const importSeconds =
    jobStarted && jobFinished ? (Date.parse(jobFinished) - Date.parse(jobStarted)) / 1000 : Number.NaN;
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  console.log(
    `\nWebhook fan-out of one ${FORMAT} import, wrangler dev (local D1, Queues, Durable Objects), one endpoint\n`,
  );
  console.log(
    '| products imported | import job | product events delivered (distinct products) | changes carried | deliveries per product (max) | first commit → last delivery | events/s | delay commit → delivery p50 / p95 / max | requests (retries) | signature failures | import.finished | load average before → after |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---|');
  console.log(
    `| ${[
      expected.toLocaleString('en'),
      `${importSeconds.toFixed(1)} s`,
      `${events.length.toLocaleString('en')} (${perProduct.size.toLocaleString('en')})`,
      changes.toLocaleString('en'),
      `${(events.length / Math.max(1, perProduct.size)).toFixed(2)} (${Math.max(0, ...perProduct.values())})`,
      `${seconds.toFixed(1)} s`,
      (events.length / seconds).toFixed(0),
      delays.length
        ? `${(percentile(delays, 50) / 1000).toFixed(1)} / ${(percentile(delays, 95) / 1000).toFixed(1)} / ${(Math.max(...delays) / 1000).toFixed(1)} s`
        : 'none',
      `${received.length.toLocaleString('en')} (${(received.length - first.size).toLocaleString('en')})`,
      forged,
      [...first.values()].filter((r) => r.type === 'import.finished').length,
      `${load(loadBefore)} → ${load(loadAfter)}`,
    ].join(' | ')} |`,
  );
  if (perProduct.size < expected)
    console.log(`\nINCOMPLETE: ${expected - perProduct.size} products got no event within the wait.`);
}
