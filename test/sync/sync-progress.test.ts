import { describe, expect, it } from 'vitest';
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

async function startedRun() {
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
      confirmDeactivations: false,
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
    const runs = await listRuns(db(), setup.caller, { connectionId: connection.connectionId, limit: 5 });
    expect(runs.items[0]!.progress).toEqual(running.progress);

    await runToEnd(deps, jobId);
    const finished = await getJob(db(), setup.caller, jobId);
    const report = (finished.result as { report: { batches: { sent: number }; created: number } }).report;
    expect(report.created).toBe(5);
    expect(finished.progress).toEqual({ done: 5, total: 5, batchNo: report.batches.sent, records: 5 });
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
    expect(job.json.progress).toEqual({ done: 5, total: 5, batchNo: 3, records: 5 });
    const runs = await call('GET', `/api/Sync/GetRuns?connectionId=${connection.connectionId}`, { cookie });
    expect(runs.json.items[0].progress).toEqual(job.json.progress);
    const read = await call('GET', `/api/Sync/GetConnection?connectionId=${connection.connectionId}`, { cookie });
    expect(read.json.lastRun.progress).toEqual(job.json.progress);
  });
});

describe('syncProgressOf', () => {
  it('reads the checkpoint first, the report after, and nothing of a queued run', () => {
    const counts = { created: 3, updated: 2, deactivated: 1, unchanged: 4, skipped: 9, quarantined: 7 };
    expect(syncProgressOf({ batchNo: 4, counts }, null)).toEqual({ batchNo: 4, records: 10 });
    expect(syncProgressOf(null, { ...counts, batches: { sent: 6, retried: 1 } })).toEqual({ batchNo: 6, records: 10 });
    expect(syncProgressOf({ batchNo: 0, counts: {} }, null)).toEqual({ batchNo: 0, records: 0 });
    expect(syncProgressOf(null, null)).toBeNull();
  });
});
