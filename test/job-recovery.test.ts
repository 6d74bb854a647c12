import { createScheduledController } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import type { JobMessage } from '../src/env';
import type { ExportCheckpoint } from '../src/exports/run-export';
import { runExportSlice } from '../src/exports/run-export';
import { DEFAULT_STALE_MS, MAX_JOB_ATTEMPTS } from '../src/jobs/lease';
import { recoverStaleJobs, sweepJobs } from '../src/runners/recovery';
import worker from '../src/index';
import { csvRecords, decodeCsvFile } from './helpers/csv';
import { bulkCatalog, insertExportJob, jobRow, listKeys, testDeps } from './helpers/export-fixtures';
import { db, makeSession } from './helpers/factories';
import { call } from './helpers/http';

function recordingQueue() {
  const sent: JobMessage[] = [];
  return { sent, queue: { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage> };
}

/** A moment the job's last heartbeat is older than the stale window. */
const later = (steps = 1) => new Date(Date.now() + steps * (DEFAULT_STALE_MS + 60_000));

/** Runs a CSV export two slices far, then "kills" its worker: the checkpoint and open upload stay. */
async function halfDoneExport(masters = 300) {
  const session = await makeSession();
  const { catalog, expected } = await bulkCatalog(session.tenant, masters);
  const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'CSV' });
  const deps = testDeps();
  expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
  expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
  return { session, jobId, expected, deps };
}

async function uploadIsAborted(checkpoint: ExportCheckpoint): Promise<boolean> {
  return env.FILES.resumeMultipartUpload(checkpoint.key, checkpoint.uploadId)
    .complete(checkpoint.parts)
    .then(
      () => false,
      () => true,
    );
}

describe('job recovery (docs/reliability.md)', () => {
  it('re-enqueues a running export whose heartbeat is stale; it resumes from its checkpoint and finishes complete', async () => {
    const { jobId, expected, deps } = await halfDoneExport();
    const before = await jobRow(jobId);
    const { sent, queue } = recordingQueue();

    expect((await recoverStaleJobs(db(), queue, new Date())).requeued).not.toContain(jobId); // fresh heartbeat: left alone
    // The worker died three minutes ago: two sweeps racing restart it once.
    await db()
      .update(jobs)
      .set({ heartbeatAt: new Date(Date.now() - DEFAULT_STALE_MS - 60_000).toISOString() })
      .where(eq(jobs.id, jobId));
    const results = await Promise.all([
      recoverStaleJobs(db(), queue, new Date()),
      recoverStaleJobs(db(), queue, new Date()),
    ]);
    expect(results.flatMap((r) => r.requeued).filter((id) => id === jobId)).toHaveLength(1);
    expect(sent.filter((m) => m.jobId === jobId)).toHaveLength(1);
    const recovered = await jobRow(jobId);
    expect(recovered).toMatchObject({ state: 'running', attempts: 1, progressDone: before.progressDone });
    // The renewed heartbeat protects it from the next sweep.
    expect((await recoverStaleJobs(db(), queue, new Date())).requeued).not.toContain(jobId);

    for (let i = 0; i < 100 && (await runExportSlice(deps, await jobRow(jobId))) === 'continued'; i++);
    const done = await jobRow(jobId);
    expect(done).toMatchObject({ state: 'succeeded', attempts: 0, checkpoint: null, error: null });
    const file = await env.FILES.get(done.resultKey!);
    const rows = csvRecords(decodeCsvFile(await file!.arrayBuffer()));
    expect(rows.map((r) => r.sku)).toEqual(expected);
  });

  it(`fails a job after ${MAX_JOB_ATTEMPTS} restarts without progress, with a reason, and throws its upload away`, async () => {
    const { jobId } = await halfDoneExport();
    const checkpoint = (await jobRow(jobId)).checkpoint as ExportCheckpoint;
    const { sent, queue } = recordingQueue();
    for (let i = 1; i <= MAX_JOB_ATTEMPTS; i++) {
      expect((await recoverStaleJobs(db(), queue, later(i))).requeued).toContain(jobId);
      expect((await jobRow(jobId)).attempts).toBe(i);
    }
    expect(sent.filter((m) => m.jobId === jobId)).toHaveLength(MAX_JOB_ATTEMPTS);

    const sweep = await sweepJobs(
      { db: db(), queue, files: env.FILES, staleMs: DEFAULT_STALE_MS },
      later(MAX_JOB_ATTEMPTS + 1),
    );
    expect(sweep.failed).toContain(jobId);
    expect(sweep.released).toContain(jobId);
    const failed = await jobRow(jobId);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/stopped making progress.*after 5 restarts/);
    expect(failed.finishedAt).not.toBeNull();
    expect(failed.checkpoint).toBeNull();
    expect(await uploadIsAborted(checkpoint)).toBe(true);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });

  it('a poll of a stale job runs the sweep (Cron Triggers never fire under wrangler dev)', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session.tenant, 3);
    const jobId = await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'CSV' });
    const longAgo = new Date(Date.now() - 3 * DEFAULT_STALE_MS).toISOString();
    await db().update(jobs).set({ heartbeatAt: longAgo, attempts: MAX_JOB_ATTEMPTS }).where(eq(jobs.id, jobId));

    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.status).toBe(200);
    expect(job.json).toMatchObject({ state: 'failed', error: expect.stringMatching(/stopped making progress/) });
    const list = await call('GET', '/api/Job/GetJobs', { cookie: session.cookie });
    expect(list.json.items.find((j: { jobId: string }) => j.jobId === jobId).state).toBe('failed');
  });

  it('the Cron Trigger handler runs the sweep', async () => {
    const { jobId } = await halfDoneExport();
    await db().update(jobs).set({ attempts: MAX_JOB_ATTEMPTS }).where(eq(jobs.id, jobId));
    await worker.scheduled(createScheduledController({ scheduledTime: later(), cron: '* * * * *' }), env);
    expect(await jobRow(jobId)).toMatchObject({ state: 'failed', checkpoint: null });
  });

  it('CancelJob aborts the open upload, deletes the carry and clears the checkpoint at once', async () => {
    const { session, jobId } = await halfDoneExport();
    const checkpoint = (await jobRow(jobId)).checkpoint as ExportCheckpoint;
    expect(checkpoint.carryKey).not.toBeNull();
    const res = await call('POST', '/api/Job/CancelJob', { cookie: session.cookie, body: { jobId } });
    expect(res.json.state).toBe('cancelled');
    expect((await jobRow(jobId)).checkpoint).toBeNull();
    expect(await uploadIsAborted(checkpoint)).toBe(true);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });
});
