import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { addChannel } from '../../src/completeness/channels';
import { getJob } from '../../src/jobs/jobs';
import { syncProgressOf } from '../../src/jobs/sync-progress';
import { listRuns, startSync } from '../../src/sync/start-sync';
import { runSyncSlice } from '../../src/sync/run-sync';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeUser } from '../helpers/factories';
import { call, loginAs } from '../helpers/http';
import { BASE_URL, connect, jobRow, product, runToEnd, syncDeps, syncSetup } from '../helpers/sync-fixtures';
import type { JobMessage } from '../../src/env';

/**
 * A run's progress against the shop (docs/sync.md "Progress"): the batch position and records
 * done, from the checkpoint while it runs and from the report once it ended, in GetJob and GetRuns.
 */

async function startedRun(seed?: (fake: FakeConnector) => void) {
  const setup = await syncSetup();
  for (const n of [1, 2, 3, 4, 5]) await product(setup, `PROG-${n}`);
  const connection = await connect(setup);
  const holdQueue = { send: async (_: JobMessage) => undefined } as unknown as Queue<JobMessage>;
  const { jobId } = await startSync(
    { db: db(), queue: holdQueue },
    setup.caller,
    {
      departmentId: setup.company.departmentId,
      connectionId: connection.connectionId,
      dryRun: false,
      confirmDeactivations: seed !== undefined,
    },
    BASE_URL,
  );
  return { setup, connection, jobId };
}

describe('sync progress against the shop', () => {
  it('answers the batch position and records done while the run goes, and the report figures after it', async () => {
    const { setup, connection, jobId } = await startedRun();
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake, { batchSize: 2, sliceMs: 0 });
    const queued = await getJob(db(), setup.caller, jobId);
    expect(queued.progress).not.toHaveProperty('batchNo');
    expect(queued.progress).not.toHaveProperty('records');

    // A slice without time left ends after its first batch: the run stands after batch 1.
    expect(await runSyncSlice(deps, await jobRow(jobId))).toBe('continued');
    const running = await getJob(db(), setup.caller, jobId);
    expect(running.state).toBe('running');
    expect(fake.upserts).toHaveLength(1);
    expect(running.progress).toMatchObject({ batchNo: 1, records: fake.upserts[0]!.records.length });
    // The shop held nothing: an initial sync, whose total is every master from the start.
    expect(running.progress).toMatchObject({ recordsTotal: 5 });
    const runs = await listRuns(db(), setup.caller, { connectionId: connection.connectionId, limit: 5 });
    expect(runs.items[0]!.progress).toEqual(running.progress);

    await runToEnd(deps, jobId);
    const finished = await getJob(db(), setup.caller, jobId);
    const report = (finished.result as { report: { batches: { sent: number }; created: number } }).report;
    expect(report.created).toBe(5);
    expect(finished.progress).toEqual({
      done: 5,
      total: 5,
      batchNo: report.batches.sent,
      records: 5,
      recordsTotal: 5,
    });
    expect(report.batches.sent).toBe(fake.upserts.length);
    const after = await listRuns(db(), setup.caller, { connectionId: connection.connectionId, limit: 5 });
    expect(after.items[0]!.progress).toEqual(finished.progress);
  });

  it('carries the fields in the REST answers of GetJob, GetRuns and GetConnection', async () => {
    const { setup, connection, jobId } = await startedRun();
    const fake = new FakeConnector();
    await runToEnd(syncDeps(fake, { batchSize: 2 }).deps, jobId);
    const cookie = await loginAs((await makeUser(setup.company, { role: 'admin' })).email);
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie });
    expect(job.status, job.text).toBe(200);
    expect(job.json.progress).toEqual({ done: 5, total: 5, batchNo: 3, records: 5, recordsTotal: 5 });
    const runs = await call('GET', `/api/Sync/GetRuns?connectionId=${connection.connectionId}`, { cookie });
    expect(runs.json.items[0].progress).toEqual(job.json.progress);
    const read = await call('GET', `/api/Sync/GetConnection?connectionId=${connection.connectionId}`, { cookie });
    expect(read.json.lastRun.progress).toEqual(job.json.progress);
  });
});

describe('the total of records a run sends', () => {
  it('is unknown during the join of a run against a shop that holds products, then the records and deactivations', async () => {
    const seedShop = (fake: FakeConnector) => {
      for (const n of [1, 2, 3, 4, 5]) fake.seed(`PROG-${n}`, 'an older fingerprint');
      fake.seed('PROG-9', 'gone from the PIM');
    };
    const { setup, jobId } = await startedRun(seedShop);
    const fake = new FakeConnector();
    seedShop(fake);
    const { deps } = syncDeps(fake, { batchSize: 2, sliceMs: 0 });
    const seen: { phase: string; records?: number; recordsTotal?: number }[] = [];
    for (let slice = 0; slice < 20; slice++) {
      const row = await jobRow(jobId);
      if (row.state !== 'queued' && row.state !== 'running') break;
      await runSyncSlice(deps, row);
      const phase = ((await jobRow(jobId)).checkpoint as { phase?: string } | null)?.phase ?? 'ended';
      const { records, recordsTotal } = (await getJob(db(), setup.caller, jobId)).progress;
      seen.push({ phase, records, recordsTotal });
    }
    const joining = seen.filter((s) => s.phase === 'join');
    expect(joining.length).toBeGreaterThan(0);
    for (const s of joining) expect(s).not.toHaveProperty('recordsTotal', expect.anything());
    // From the end of the join on: 5 updates and 1 deactivation, and the records reach it.
    const after = seen.filter((s) => s.phase !== 'join');
    expect(after.length).toBeGreaterThan(0);
    for (const s of after) expect(s.recordsTotal).toBe(6);
    expect(seen.at(-1)).toMatchObject({ phase: 'ended', records: 6, recordsTotal: 6 });
  });

  it('of an initial sync loses the masters left out as incomplete (onlyComplete) as the join meets them', async () => {
    const setup = await syncSetup();
    const channel = await addChannel({ db: db(), queue: env.JOB_QUEUE }, setup.caller, {
      name: 'Shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'gtin' }],
    });
    await product(setup, 'A-1', { gtin: '4006381333931' });
    await product(setup, 'B-2');
    await product(setup, 'C-3', { gtin: '4006381333948' });
    const connection = await connect(setup, { channelId: channel.channelId, onlyComplete: true });
    const holdQueue = { send: async (_: JobMessage) => undefined } as unknown as Queue<JobMessage>;
    const { jobId } = await startSync(
      { db: db(), queue: holdQueue },
      setup.caller,
      {
        departmentId: setup.company.departmentId,
        connectionId: connection.connectionId,
        dryRun: false,
        confirmDeactivations: false,
      },
      BASE_URL,
    );
    const { deps } = syncDeps(new FakeConnector(), { batchSize: 1, sliceMs: 0 });
    const seen: { done: number; recordsTotal?: number }[] = [];
    for (let slice = 0; slice < 20; slice++) {
      const row = await jobRow(jobId);
      if (row.state !== 'queued' && row.state !== 'running') break;
      await runSyncSlice(deps, row);
      const job = await getJob(db(), setup.caller, jobId);
      if (job.state === 'running') seen.push({ done: job.progress.done, recordsTotal: job.progress.recordsTotal });
    }
    // Three masters with a SKU, the shop empty: 3 at the start, 2 once the join met B-2 (done 2),
    // while the run still goes (its end would answer the records anyway).
    const met = seen.filter((s) => s.done >= 2);
    expect(met.length).toBeGreaterThan(0);
    expect(met.map((s) => s.recordsTotal)).toEqual(met.map(() => 2));
    for (const s of seen.filter((o) => o.done < 2)) expect(s.recordsTotal).toBe(3);
    expect((await getJob(db(), setup.caller, jobId)).progress).toMatchObject({ records: 2, recordsTotal: 2 });
  });

  it('of an initial sync leaves the quarantined records out as they are found', async () => {
    const { setup, jobId } = await startedRun();
    const fake = new FakeConnector();
    fake.faults.refuse = new Set(['PROG-1']);
    const { deps } = syncDeps(fake, { batchSize: 2, sliceMs: 0 });
    await runSyncSlice(deps, await jobRow(jobId));
    // The shop refused PROG-1 in the first batch: quarantined, no longer counted to send.
    expect((await getJob(db(), setup.caller, jobId)).progress).toMatchObject({ recordsTotal: 4 });
    await runToEnd(deps, jobId);
    expect((await getJob(db(), setup.caller, jobId)).progress).toMatchObject({ records: 4, recordsTotal: 4 });
  });
});

describe('syncProgressOf', () => {
  it('reads the checkpoint first, the report after, and nothing of a queued run', () => {
    const counts = { created: 3, updated: 2, deactivated: 1, unchanged: 4, skipped: 9, quarantined: 7 };
    expect(syncProgressOf({ batchNo: 4, counts }, null)).toEqual({ batchNo: 4, records: 10 });
    expect(syncProgressOf(null, { ...counts, batches: { sent: 6, retried: 1 } })).toEqual({
      batchNo: 6,
      records: 10,
      recordsTotal: 10,
    });
    expect(syncProgressOf({ batchNo: 0, counts: {} }, null)).toEqual({ batchNo: 0, records: 0 });
    expect(syncProgressOf(null, null)).toBeNull();
  });

  it("answers the checkpoint's total less the quarantined records, never below the records done", () => {
    const counts = { created: 3, updated: 2, deactivated: 1, unchanged: 4, quarantined: 7 };
    expect(syncProgressOf({ batchNo: 4, counts, toSend: 20 }, null)).toEqual({
      batchNo: 4,
      records: 10,
      recordsTotal: 13,
    });
    expect(syncProgressOf({ batchNo: 4, counts, toSend: 12 }, null)).toMatchObject({ recordsTotal: 10 });
    expect(syncProgressOf({ batchNo: 4, counts, toSend: null }, null)).not.toHaveProperty('recordsTotal');
  });
});
