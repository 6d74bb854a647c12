import { rmSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/lib/dev-server';
import { signRequest } from '../../src/sync/protocol/signing';
import { addBenchConnection, BENCH_KEY, PIM_VARS, seedConnector, seedPim } from '../../bench/sync-setup';
import { api, login } from './export-harness';
import { pimQuery } from './sync-harness';

/**
 * Kills the PIM's `wrangler dev` in the middle of a sync and restarts it on the same state (the
 * local queue loses the run's message, as a dead Worker would): the job sweep (`/__scheduled`)
 * re-enqueues the run, which resumes from its checkpoint, resends the batch that was in flight
 * under the same id, and ends with the shop equal to the PIM: every SKU with the PIM's
 * fingerprint, every master created exactly once (docs/sync.md "Time slices and memory").
 * Small batches and a short stale window keep the runtime modest.
 */
const MASTERS = 600;
/** Killed once this many masters are in the shop: several batches done, most still to come. */
const KILL_AT = 150;
const PIM_ARGS = [...PIM_VARS, '--var', 'JOB_STALE_MS:4000', '--var', 'SYNC_BATCH_SIZE:50', '--test-scheduled'];

let pim: DevServer | undefined;
let connector: DevServer | undefined;
const dirs: string[] = [];
afterAll(() => {
  pim?.stop();
  connector?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function signed(baseUrl: string, path: string): Promise<Response> {
  const url = new URL(baseUrl + path);
  const headers = await signRequest({
    ...BENCH_KEY,
    method: 'GET',
    pathWithQuery: url.pathname + url.search,
    body: '',
  });
  return fetch(url, { headers });
}

async function shopStatus(baseUrl: string) {
  return (await (await signed(baseUrl, '/status')).json()) as {
    products: { managed: number; active: number };
    lastBatch: { batchId: string } | null;
  };
}

it('a sync whose PIM is killed mid-run resumes after the restart and leaves the shop equal to the PIM', {
  timeout: 600_000,
}, async () => {
  const { dir, seeded } = await seedPim(MASTERS);
  dirs.push(dir);
  const connectorDir = await seedConnector();
  dirs.push(connectorDir);
  connector = await startDevServer(connectorDir, {
    args: [
      '--config',
      'connector/wrangler.toml',
      '--var',
      `CONNECTOR_KEYS:${JSON.stringify({ [BENCH_KEY.keyId]: BENCH_KEY.secret })}`,
    ],
  });
  const shop = connector.baseUrl;
  const connectionId = await addBenchConnection(dir, seeded, shop);

  pim = await startDevServer(dir, { args: PIM_ARGS });
  let cookie = await login(seeded.email, seeded.password, pim.baseUrl);
  const { jobId } = await api(
    cookie,
    'Sync/StartSync',
    {
      departmentId: seeded.departmentId,
      connectionId,
    },
    pim.baseUrl,
  );

  // Wait until a few batches landed in the shop, then kill the PIM without a graceful shutdown.
  let atKill = await shopStatus(shop);
  for (let i = 0; i < 1200 && atKill.products.managed < KILL_AT; i++) {
    await sleep(100);
    atKill = await shopStatus(shop);
  }
  process.kill(-pim.child.pid!, 'SIGKILL');
  await new Promise((r) => pim!.child.once('exit', r));
  expect(atKill.products.managed).toBeGreaterThanOrEqual(KILL_AT);
  expect(atKill.products.managed).toBeLessThan(MASTERS);
  const [[stateAtKill]] = pimQuery(dir, `SELECT state FROM jobs WHERE id = '${jobId}'`) as [[string]];
  expect(stateAtKill).toBe('running');

  pim = await startDevServer(dir, { args: PIM_ARGS });
  cookie = await login(seeded.email, seeded.password, pim.baseUrl);
  const restarted = Date.now();
  let job: any;
  for (let i = 0; i < 600; i++) {
    // The Cron Trigger's job sweep, by hand (Cron Triggers never fire under wrangler dev).
    if (i % 8 === 0) expect((await fetch(`${pim.baseUrl}/__scheduled?cron=*+*+*+*+*`)).status).toBe(200);
    job = await api(cookie, `Job/GetJob?jobId=${jobId}`, undefined, pim.baseUrl);
    if (!['queued', 'running'].includes(job.state)) break;
    await sleep(250);
  }
  console.log(
    `sync recovery e2e: killed with ${atKill.products.managed}/${MASTERS} in the shop, ended ${job.state} ${((Date.now() - restarted) / 1000).toFixed(1)} s after the restart${job.error ? `: ${job.error}` : ''}`,
  );
  expect(job.state, job.error).toBe('succeeded');
  expect(job.result.report).toMatchObject({ created: MASTERS, updated: 0, skipped: 0, quarantinedCount: 0 });

  const inventoryResponse = await signed(shop, '/inventory');
  expect(inventoryResponse.status).toBe(200);
  const inventory = (await inventoryResponse.text())
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { sku: string; fingerprint: string });
  const masters = pimQuery(
    dir,
    `SELECT sku, fingerprint FROM products WHERE catalog_id = '${seeded.catalogId}' AND parent_id IS NULL ORDER BY sku`,
  ).map(([sku, fingerprint]) => ({ sku: sku!, fingerprint: fingerprint! }));
  expect(masters).toHaveLength(MASTERS);
  expect(inventory).toEqual(masters);

  // No batch applied twice: the shop committed each position once, and the creates add up.
  const batches = pimQuery(
    connectorDir,
    'SELECT batch_id, created, updated, deactivated FROM batches ORDER BY batch_id',
    'DB',
    'connector/wrangler.toml',
  );
  expect(batches.every(([id]) => id!.startsWith(`${jobId}:`))).toBe(true);
  const positions = batches.map(([id]) => Number(id!.split(':')[1]));
  expect(new Set(positions).size).toBe(positions.length);
  expect(batches.reduce((n, [, created]) => n + Number(created), 0)).toBe(MASTERS);
  expect(job.result.report.batches.sent).toBe(batches.length);
  const status = await shopStatus(shop);
  expect(status.products).toMatchObject({ managed: MASTERS, active: MASTERS });
});
