import { dbNow } from '../kernel/clock';
import { and, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import type { Bindings, JobMessage } from '../env';
import { discardExport, type ExportCheckpoint } from '../exports/run-export';
import { discardSyncBatch } from '../sync/sync-finish';
import type { SyncCheckpoint } from '../sync/sync-state';
import { DEFAULT_STALE_MS, MAX_JOB_ATTEMPTS, staleMsFrom } from '../jobs/lease';
import { jobMessage } from '../jobs/jobs';
import type { Caller } from '../kernel/caller';

/**
 * Recovery of jobs whose worker died (docs/reliability.md): a Cron Trigger and every job poll
 * run the sweep; it re-enqueues a stale job (it resumes from its checkpoint) or fails it with
 * a reason after MAX_JOB_ATTEMPTS restarts, and releases what finished jobs left behind.
 */

const ACTIVE = ['queued', 'running'] as const;
/** Jobs handled per sweep; the next sweep takes the rest. */
const SWEEP_LIMIT = 50;

/** What a failed or cancelled job of each kind must throw away (open uploads, temporary objects). */
const RELEASERS: Record<string, (files: R2Bucket, checkpoint: unknown) => Promise<void>> = {
  export: (files, checkpoint) => discardExport(files, checkpoint as ExportCheckpoint),
  sync: (files, checkpoint) => discardSyncBatch(files, checkpoint as SyncCheckpoint),
};

interface SweepDeps {
  db: Database;
  queue: Queue<JobMessage>;
  files: R2Bucket;
  staleMs: number;
}

export function sweepDeps(env: Bindings, db: Database): SweepDeps {
  return { db, queue: env.JOB_QUEUE, files: env.FILES, staleMs: staleMsFrom(env) };
}

const lastSignOfLife = sql<string>`coalesce(${jobs.heartbeatAt}, ${jobs.startedAt}, ${jobs.createdAt})`;
const staleBefore = (now: Date, staleMs: number) => lt(lastSignOfLife, new Date(now.getTime() - staleMs).toISOString());

/**
 * Re-enqueues every queued or running job whose heartbeat is older than `staleMs` at `now`,
 * counting the restart; a job already restarted MAX_JOB_ATTEMPTS times without progress is
 * failed instead. Each change is conditional on the job still being stale, so concurrent
 * sweeps and a worker coming back to life never double-count.
 */
export async function recoverStaleJobs(db: Database, queue: Queue<JobMessage>, now: Date, staleMs = DEFAULT_STALE_MS) {
  const stale = await db
    .select({ id: jobs.id, attempts: jobs.attempts })
    .from(jobs)
    .where(and(inArray(jobs.state, [...ACTIVE]), staleBefore(now, staleMs)))
    .limit(SWEEP_LIMIT);
  const requeued: string[] = [];
  const failed: string[] = [];
  for (const job of stale) {
    const still = and(
      eq(jobs.id, job.id),
      inArray(jobs.state, [...ACTIVE]),
      eq(jobs.attempts, job.attempts),
      staleBefore(now, staleMs),
    );
    if (job.attempts >= MAX_JOB_ATTEMPTS) {
      const error = `the job stopped making progress: no sign of life for ${Math.round(staleMs / 1000)} s after ${MAX_JOB_ATTEMPTS} restarts`;
      // The checkpoint stays until releaseJobResources has thrown its upload away.
      const [row] = await db
        .update(jobs)
        .set({ state: 'failed', error, finishedAt: dbNow })
        .where(still)
        .returning({ id: jobs.id });
      if (row) failed.push(row.id);
      continue;
    }
    const [row] = await db
      .update(jobs)
      .set({ attempts: job.attempts + 1, heartbeatAt: dbNow })
      .where(still)
      .returning({ id: jobs.id });
    if (!row) continue;
    try {
      await queue.send(jobMessage(db, row.id));
      requeued.push(row.id);
    } catch (err) {
      // The heartbeat was renewed: the next sweep after the stale window tries again.
      console.error(JSON.stringify({ jobId: row.id, recovery: 'queue send failed', error: String(err) }));
    }
  }
  return { requeued, failed };
}

/** Aborts the open upload and deletes the temporary objects of failed and cancelled jobs, then clears their checkpoint. */
export async function releaseJobResources(db: Database, files: R2Bucket, jobId?: string): Promise<string[]> {
  const leftovers = await db
    .select({ id: jobs.id, kind: jobs.kind, checkpoint: jobs.checkpoint })
    .from(jobs)
    .where(
      and(
        inArray(jobs.state, ['failed', 'cancelled']),
        isNotNull(jobs.checkpoint),
        jobId ? eq(jobs.id, jobId) : undefined,
      ),
    )
    .limit(SWEEP_LIMIT);
  const released: string[] = [];
  for (const job of leftovers) {
    await RELEASERS[job.kind]?.(files, job.checkpoint);
    await db
      .update(jobs)
      .set({ checkpoint: null })
      .where(and(eq(jobs.id, job.id), inArray(jobs.state, ['failed', 'cancelled'])));
    released.push(job.id);
  }
  return released;
}

/** The whole sweep: what the Cron Trigger runs. */
export async function sweepJobs(deps: SweepDeps, now: Date) {
  const recovered = await recoverStaleJobs(deps.db, deps.queue, now, deps.staleMs);
  const released = await releaseJobResources(deps.db, deps.files);
  return { ...recovered, released };
}

/**
 * The poll-time check (Cron Triggers never fire under `wrangler dev`, and a poll is when
 * someone waits for the job): sweeps only when one of the company's jobs is stale.
 */
export async function sweepIfStale(deps: SweepDeps, tenant: Caller, now: Date): Promise<boolean> {
  const [stale] = await deps.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.state, [...ACTIVE]), eq(jobs.companyId, tenant.companyId), staleBefore(now, deps.staleMs)))
    .limit(1);
  if (!stale) return false;
  await sweepJobs(deps, now);
  return true;
}
