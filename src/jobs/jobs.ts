import { dbNow } from '../kernel/clock';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { newId } from '../kernel/ids';
import { keysetPage } from '../kernel/pagination';
import { jobs, syncRuns } from '../db/schema';
import { SyncReport, type SyncReportOut } from './sync-report';
import { SyncProgressOut, syncProgressOf } from './sync-progress';
import { MassEditReportOut } from './mass-edit-report';
import type { JobMessage } from '../env';
import { AppError, badRequest, notFound } from '../kernel/app-error';
import { heartbeat } from './lease';
import { cellOfHandle } from '../db/cells';
import { bookmarkOf } from '../db/session';
import type { Caller } from '../kernel/caller';
import { assertPermitted } from '../kernel/permissions';
import { seesOwnWorkOnly } from '../db/product-scope';

/** What an operation that queues a background job answers: follow it with Job/GetJob. */
export const JobRef = z.object({ jobId: z.string() });

export const JobOut = z.object({
  jobId: z.string(),
  kind: z.string(),
  state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  progress: z.object({
    done: z.number().int(),
    total: z.number().int(),
    /** Sync runs only: where the run stands against the shop (sync-progress.ts); absent while queued. */
    batchNo: SyncProgressOut.shape.batchNo.optional(),
    records: SyncProgressOut.shape.records.optional(),
    recordsTotal: SyncProgressOut.shape.recordsTotal,
  }),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  /** A finished file (exports); `{report}` of a job that changes data: a sync run (docs/sync.md) or a mass edit (updated, unchanged, failed). */
  result: z
    .union([
      z.object({ fileName: z.string(), contentType: z.string(), size: z.number().int() }),
      z.object({ report: z.union([SyncReport, MassEditReportOut, z.record(z.string(), z.unknown())]) }),
    ])
    .nullable(),
  /** What the job had to adjust, e.g. text an export truncated to a schema limit; empty when nothing. */
  warnings: z.array(z.string()),
  /** Counts of a finished job, e.g. an import's created / updated / unchanged / rejected; null when the kind reports none. */
  summary: z.record(z.string(), z.number().int()).nullable(),
});

export type JobRow = typeof jobs.$inferSelect;

/** Adds the stored reports of sync runs to job outputs (one query per page). */
async function withSyncReports(db: Database, rows: JobRow[]): Promise<z.infer<typeof JobOut>[]> {
  const outs = rows.map(jobOut);
  const syncIds = rows.filter((r) => r.kind === 'sync').map((r) => r.id);
  if (syncIds.length === 0) return outs;
  const runs = await db
    .select({ jobId: syncRuns.jobId, report: syncRuns.report })
    .from(syncRuns)
    .where(inArray(syncRuns.jobId, syncIds));
  const reports = new Map(runs.map((r) => [r.jobId, r.report as SyncReportOut | null]));
  return outs.map((out, i) => {
    const report = reports.get(out.jobId) ?? null;
    const shop = rows[i]!.kind === 'sync' ? syncProgressOf(rows[i]!.checkpoint, report) : null;
    const progress = shop ? { ...out.progress, ...shop } : out.progress;
    return report ? { ...out, progress, result: { report } } : { ...out, progress };
  });
}

function jobOut(row: JobRow): z.infer<typeof JobOut> {
  return {
    jobId: row.id,
    kind: row.kind,
    state: row.state,
    progress: { done: row.progressDone, total: row.progressTotal },
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    error: row.error,
    result: row.report
      ? { report: row.report }
      : row.state === 'succeeded' && row.resultFileName && row.resultContentType && row.resultSize !== null
        ? { fileName: row.resultFileName, contentType: row.resultContentType, size: row.resultSize }
        : null,
    warnings: row.warnings ?? [],
    summary: row.summary ?? null,
  };
}

/**
 * Inserts a job row in state `queued` and sends its queue message. If the queue refuses the
 * message, the job is marked failed so no row waits forever for work that will never come.
 */
/**
 * The queue message of a job: its id, the cell whose database holds the job row, and the
 * bookmark of the session that wrote the job's state, so the consumer's session reads at least
 * that new (read-your-writes for jobs). A handle not opened on a cell names none (cell-1).
 */
export function jobMessage(db: Database, jobId: string): JobMessage {
  const bookmark = bookmarkOf(db);
  const cell = cellOfHandle(db);
  return { jobId, ...(bookmark ? { bookmark } : {}), ...(cell ? { cell } : {}) };
}

export async function enqueueJob(
  deps: { db: Database; queue: Queue<JobMessage> },
  tenant: { companyId: string; departmentId: string; userId: string },
  job: {
    kind: string;
    params: Record<string, unknown>;
    total?: number;
    related?: (jobId: string) => BatchStatement[];
    /**
     * Reads the results of `related` after the transaction; throwing refuses the job before
     * its message is sent (e.g. a sync whose conditional statements removed the row again).
     */
    admit?: (relatedResults: unknown[], jobId: string) => Promise<void>;
  },
): Promise<{ jobId: string }> {
  const jobId = newId();
  // Rows of the job kind's own (e.g. a sync run) go in the same transaction as the job row.
  const results = await runBatch(deps.db, [
    deps.db.insert(jobs).values({
      id: jobId,
      companyId: tenant.companyId,
      departmentId: tenant.departmentId,
      userId: tenant.userId,
      kind: job.kind,
      state: 'queued',
      params: job.params,
      progressTotal: job.total ?? 0,
      heartbeatAt: dbNow,
    }),
    ...(job.related?.(jobId) ?? []),
  ]);
  await job.admit?.(results.slice(1), jobId);
  try {
    await deps.queue.send(jobMessage(deps.db, jobId));
  } catch (err) {
    await deps.db
      .update(jobs)
      .set({ state: 'failed', error: 'the job could not be queued', finishedAt: dbNow })
      .where(eq(jobs.id, jobId));
    throw err;
  }
  return { jobId };
}

/** A scoped member's jobs are their own (db/product-scope.ts `seesOwnWorkOnly`): the condition, or none. */
export const ownJobs = (tenant: Caller) => (seesOwnWorkOnly(tenant) ? eq(jobs.userId, tenant.userId) : undefined);

export async function findJob(db: Database, tenant: Caller, jobId: string): Promise<JobRow> {
  const row = await db.query.jobs.findFirst({
    where: and(eq(jobs.id, jobId), eq(jobs.companyId, tenant.companyId), ownJobs(tenant)),
  });
  if (!row) throw notFound('job');
  return row;
}

export async function getJob(db: Database, tenant: Caller, jobId: string) {
  const [out] = await withSyncReports(db, [await findJob(db, tenant, jobId)]);
  return out!;
}

export async function listJobs(db: Database, tenant: Caller, input: { cursor?: string; limit: number }) {
  const page = await keysetPage(
    input,
    { column: jobs.id, order: 'desc' },
    (q) =>
      db
        .select()
        .from(jobs)
        .where(and(eq(jobs.companyId, tenant.companyId), ownJobs(tenant), q.after))
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.id,
  );
  return { items: await withSyncReports(db, page.items), nextCursor: page.nextCursor };
}

/** queued/running → cancelled. The running consumer notices between pages and stops. */
/**
 * Cancels a queued or running job. Whoever may write products may cancel any job of the
 * company; a publisher (exports, syncs, no product writes) only the jobs they started
 * (docs/teams.md): the route lets `publish` through, the rest is decided here.
 */
export async function cancelJob(db: Database, tenant: Caller, jobId: string) {
  const job = await findJob(db, tenant, jobId);
  if (job.userId !== tenant.userId) assertPermitted(tenant, 'product.write');
  const [row] = await db
    .update(jobs)
    .set({ state: 'cancelled', finishedAt: dbNow })
    .where(and(eq(jobs.id, job.id), inArray(jobs.state, ['queued', 'running'])))
    .returning();
  if (!row) throw new AppError('conflict', `job is already ${job.state}`);
  return jobOut(row);
}

/** queued → running (first delivery). Returns false if the job is not runnable any more. */
export async function markRunning(db: Database, jobId: string, total: number): Promise<boolean> {
  const [row] = await db
    .update(jobs)
    .set({
      state: 'running',
      startedAt: sql`coalesce(${jobs.startedAt}, ${dbNow})`,
      progressTotal: total,
      ...heartbeat(),
    })
    .where(and(eq(jobs.id, jobId), inArray(jobs.state, ['queued', 'running'])))
    .returning({ id: jobs.id });
  return row !== undefined;
}

export async function markFailed(db: Database, jobId: string, error: string): Promise<void> {
  await db
    .update(jobs)
    .set({ state: 'failed', error, finishedAt: dbNow, checkpoint: null })
    .where(and(eq(jobs.id, jobId), inArray(jobs.state, ['queued', 'running'])));
}
