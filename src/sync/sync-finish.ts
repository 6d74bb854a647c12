import { dbNow } from '../kernel/clock';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs, syncRunItems, syncRuns } from '../db/schema';
import type { SyncReportOut } from '../jobs/sync-report';
import { pendingKeys, PLAN_LIST_CAP, type RunContext, type SyncCheckpoint, type SyncDeps } from './sync-state';

/** Most quarantined records listed in a report; `quarantinedCount` has them all. */
export const QUARANTINE_LIST_CAP = 1000;

async function buildReport(
  db: Database,
  jobId: string,
  cp: SyncCheckpoint | null,
  startedAt: string | null,
): Promise<SyncReportOut> {
  const quarantined = await db
    .select({ sku: syncRunItems.sku, reason: syncRunItems.reason })
    .from(syncRunItems)
    .where(and(eq(syncRunItems.jobId, jobId), eq(syncRunItems.kind, 'quarantine')))
    .orderBy(asc(syncRunItems.sku))
    .limit(QUARANTINE_LIST_CAP);
  const changes = cp?.counts.changes ? await changesOf(db, jobId) : [];
  const counts = cp?.counts ?? {
    created: 0,
    updated: 0,
    skipped: 0,
    deactivated: 0,
    quarantined: 0,
    sent: 0,
    retried: 0,
  };
  return {
    created: counts.created,
    updated: counts.updated,
    skipped: counts.skipped,
    deactivated: counts.deactivated,
    quarantined: quarantined.map((q) => ({ sku: q.sku, reason: q.reason ?? '' })),
    quarantinedCount: counts.quarantined,
    batches: { sent: counts.sent, retried: counts.retried },
    durationMs: startedAt ? Math.max(0, Date.now() - Date.parse(startedAt)) : 0,
    ...(counts.unchanged ? { unchanged: counts.unchanged } : {}),
    ...(cp?.plan ? { plan: cp.plan } : {}),
    ...(counts.changes ? { changes, changesCount: counts.changes } : {}),
    ...(cp?.deactivationsRefused ? { deactivationsRefused: cp.deactivationsRefused } : {}),
    ...(cp?.subtree ? { subtree: cp.subtree } : {}),
    ...(cp?.incomplete
      ? {
          incomplete: {
            channel: cp.incomplete.channel,
            count: cp.incomplete.count,
            variants: cp.incomplete.variants ?? 0,
            variantSkus: cp.incomplete.variantSkus ?? [],
            missing: Object.entries(cp.incomplete.missing)
              .map(([requirement, products]) => ({ requirement, products }))
              .sort((a, b) => b.products - a.products || a.requirement.localeCompare(b.requirement)),
          },
        }
      : {}),
  };
}

/** A dry run's changes against a real shop, by SKU (their working rows hold `{op, fields}`). */
async function changesOf(db: Database, jobId: string): Promise<NonNullable<SyncReportOut['changes']>> {
  const rows = await db
    .select({ sku: syncRunItems.sku, reason: syncRunItems.reason })
    .from(syncRunItems)
    .where(and(eq(syncRunItems.jobId, jobId), eq(syncRunItems.kind, 'change')))
    .orderBy(asc(syncRunItems.sku))
    .limit(PLAN_LIST_CAP);
  return rows.map((row) => ({ sku: row.sku, ...(JSON.parse(row.reason ?? '{}') as Omit<ChangeDetail, 'sku'>) }));
}

type ChangeDetail = NonNullable<SyncReportOut['changes']>[number];

async function startedAtOf(db: Database, jobId: string): Promise<string | null> {
  const row = await db.query.jobs.findFirst({ where: eq(jobs.id, jobId), columns: { startedAt: true } });
  return row?.startedAt ?? null;
}

/** The run's working rows go once its report is stored. */
async function dropItems(db: Database, jobId: string): Promise<void> {
  await db.delete(syncRunItems).where(eq(syncRunItems.jobId, jobId));
}

/** Stores the report and marks the job succeeded; false if it was cancelled meanwhile. */
export async function finishRun(ctx: RunContext): Promise<boolean> {
  const { db } = ctx.deps;
  const report = await buildReport(db, ctx.jobId, ctx.cp, await startedAtOf(db, ctx.jobId));
  const [done] = await db.batch([
    db
      .update(jobs)
      .set({ state: 'succeeded', progressDone: ctx.cp.done, finishedAt: dbNow, checkpoint: null })
      .where(and(eq(jobs.id, ctx.jobId), eq(jobs.state, 'running')))
      .returning({ id: jobs.id }),
    db.update(syncRuns).set({ report }).where(eq(syncRuns.jobId, ctx.jobId)),
  ]);
  await dropItems(db, ctx.jobId);
  return done.length > 0;
}

/**
 * Marks a sync job failed with a message a user can act on, keeping the report of what was
 * done up to then. The checkpoint is re-read: the slice that failed may have saved a newer one.
 */
export async function failRun(
  deps: Pick<SyncDeps, 'db' | 'files'>,
  jobId: string,
  message: string,
  known?: SyncCheckpoint,
): Promise<void> {
  const { db } = deps;
  const row = await db.query.jobs.findFirst({ where: eq(jobs.id, jobId) });
  if (!row) return;
  const latest = (row.checkpoint as SyncCheckpoint | null) ?? null;
  const cp = known && (!latest || known.seq >= latest.seq) ? known : latest;
  const report = await buildReport(db, jobId, cp, row.startedAt);
  await db.batch([
    db
      .update(jobs)
      .set({ state: 'failed', error: message, finishedAt: dbNow, checkpoint: null })
      .where(and(eq(jobs.id, jobId), inArray(jobs.state, ['queued', 'running']))),
    db.update(syncRuns).set({ report }).where(eq(syncRuns.jobId, jobId)),
  ]);
  if (cp?.pending) await deps.files.delete(pendingKeys(cp.pending));
  await dropItems(db, jobId);
}

/** Deletes the R2 copy of a run's in-flight batch (the job sweep's releaser for failed sync jobs). */
export async function discardSyncBatch(files: R2Bucket, checkpoint: SyncCheckpoint | null): Promise<void> {
  if (checkpoint?.pending) await files.delete(pendingKeys(checkpoint.pending));
}

/** A cancelled run's last message: keep its report, drop its working rows and pending batch. */
export async function closeCancelledRun(
  deps: Pick<SyncDeps, 'db' | 'files'>,
  job: { id: string; checkpoint: unknown; startedAt: string | null },
): Promise<void> {
  const cp = (job.checkpoint as SyncCheckpoint | null) ?? null;
  if (!cp) return;
  const report = await buildReport(deps.db, job.id, cp, job.startedAt);
  await deps.db.batch([
    deps.db.update(syncRuns).set({ report }).where(eq(syncRuns.jobId, job.id)),
    deps.db
      .update(jobs)
      .set({ checkpoint: null })
      .where(and(eq(jobs.id, job.id), eq(jobs.state, 'cancelled'))),
  ]);
  if (cp.pending) await deps.files.delete(pendingKeys(cp.pending));
  await dropItems(deps.db, job.id);
}
