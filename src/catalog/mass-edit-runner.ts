import { dbNow } from '../kernel/clock';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { jobs, products } from '../db/schema';
import type { JobMessage } from '../env';
import { AppError } from '../kernel/app-error';
import { loadPath } from '../records/current-value';
import { historyStatements, type HistoryEntry } from '../records/history-record';
import { withChanges } from '../records/snapshot';
import { featureUnitPathOf } from '../model/class-version';
import { jobMessage, markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { progressed } from '../jobs/lease';
import { bumpRevision, refreshFingerprints } from '../records/sync-record';
import type { MassEditReport } from '../jobs/mass-edit-report';
import { currentValues } from './mass-edit-values';
import type { MassEditParams } from './mass-edit';
import { productFilterWhere } from './product-filter';
import { searchMatch } from './search-plan';
import type { ElementRef } from '../db/scope';
import { planValueWrite } from './values';
import { jobCaller, type Caller } from '../kernel/caller';

/** Products per page: one D1 batch of writes (plus revision bumps and the checkpoint). */
export const MASS_EDIT_PAGE = 50;
/** The report lists at most this many failures; `failedCount` has them all. */
const MAX_LISTED_FAILURES = 1000;

/** Where a mass edit continues: kept in `jobs.checkpoint`, saved in the same batch as each page's writes. */
interface MassEditCheckpoint {
  seq: number;
  /** Last product id done (keyset over products.id). */
  cursor: string | null;
  done: number;
  total: number;
  report: MassEditReport;
}

export interface MassEditDeps {
  db: Database;
  queue: Queue<JobMessage>;
  /** Wall-clock budget of one invocation before the job continues in a new queue message. */
  sliceMs: number;
}

type ProductRow = typeof products.$inferSelect;

async function nextPage(
  db: Database,
  tenant: Caller,
  params: MassEditParams,
  cursor: string | null,
): Promise<{ rows: ProductRow[]; missing: string[] }> {
  if (params.productIds) {
    const ids = params.productIds.filter((id) => cursor === null || id > cursor).slice(0, MASS_EDIT_PAGE);
    if (ids.length === 0) return { rows: [], missing: [] };
    const rows = await db
      .select()
      .from(products)
      .where(
        and(
          inArray(products.id, ids),
          eq(products.companyId, tenant.companyId),
          eq(products.catalogId, params.catalogId),
        ),
      )
      .orderBy(asc(products.id));
    const found = new Set(rows.map((r) => r.id));
    return { rows, missing: ids.filter((id) => !found.has(id)) };
  }
  const rows = await db
    .select()
    .from(products)
    .where(and(await selectionWhere(db, tenant, params), cursor ? gt(products.id, cursor) : undefined))
    .orderBy(asc(products.id))
    .limit(MASS_EDIT_PAGE);
  return { rows, missing: [] };
}

async function countSelection(db: Database, tenant: Caller, params: MassEditParams): Promise<number> {
  if (params.productIds) return params.productIds.length;
  return db.$count(products, await selectionWhere(db, tenant, params));
}

/** The filter as the product list applies it (the search planned the same way: search-plan.ts). */
async function selectionWhere(db: Database, tenant: Caller, params: MassEditParams) {
  const filter = params.filter ?? {};
  const match = filter.q !== undefined && filter.q.trim() !== '' ? await searchMatch(db, filter.q) : null;
  return productFilterWhere(tenant, params.catalogId, filter, match);
}

function addFailure(report: MassEditReport, productId: string, sku: string | null, error: string): void {
  report.failedCount++;
  if (report.failed.length < MAX_LISTED_FAILURES) report.failed.push({ productId, sku, error });
}

/**
 * Runs one slice of a mass edit: pages through the selection by product id from the checkpoint,
 * plans each product's write with SetValue's own `planValueWrite` (so every rule and message is
 * SetValue's), writes a page as one batch together with the revision bumps and the checkpoint,
 * then refreshes the fingerprints of the changed masters. A redelivered message resumes after
 * the last saved page; a cancelled job stops between pages and keeps its partial report.
 */
export async function runMassEditSlice(deps: MassEditDeps, job: JobRow): Promise<'finished' | 'continued' | 'stopped'> {
  const { db } = deps;
  const params = job.params as MassEditParams;
  const tenant = jobCaller(job);
  // the selection of a member limited to subtrees: a filter lists only their products (product-filter.ts)
  const selecting: Caller = params.scopeCategoryIds
    ? { ...tenant, productScope: { catalogIds: [], categoryIds: params.scopeCategoryIds } }
    : tenant;
  if (job.state === 'cancelled') await keepPartialReport(db, job.id);
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  let cp = (job.checkpoint as MassEditCheckpoint | null) ?? null;
  if (!cp) {
    const total = await countSelection(db, selecting, params);
    cp = { seq: 0, cursor: null, done: 0, total, report: { updated: 0, unchanged: 0, failed: [], failedCount: 0 } };
    // what the filter matches outside the scope, counted once at the start (ids outside were refused at the start)
    if (params.scopeCategoryIds)
      cp.report.skipped = params.filter ? (await countSelection(db, tenant, params)) - total : 0;
  }
  if (!(await markRunning(db, job.id, cp.total))) return 'stopped';
  const started = Date.now();

  for (;;) {
    // Before writing: still running, and no other delivery of this job has moved past us.
    const latest = await db.query.jobs.findFirst({
      where: eq(jobs.id, job.id),
      columns: { state: true, checkpoint: true },
    });
    if (latest?.state !== 'running') {
      await keepPartialReport(db, job.id);
      return 'stopped';
    }
    if (((latest.checkpoint as MassEditCheckpoint | null)?.seq ?? 0) !== cp.seq) return 'stopped';
    const { rows, missing } = await nextPage(db, selecting, params, cp.cursor);
    if (rows.length === 0 && missing.length === 0) break;
    const next: MassEditCheckpoint = structuredClone(cp);
    next.seq++;
    for (const id of missing) addFailure(next.report, id, null, 'the product no longer exists');
    const current = await currentValues(db, tenant, params.field, rows);
    const statements: BatchStatement[] = [];
    const history: HistoryEntry[] = [];
    const masters = new Set<string>();
    for (const row of rows) {
      const element: ElementRef = {
        kind: row.parentId ? 'variant' : 'product',
        id: row.id,
        catalogId: row.catalogId,
        departmentId: params.departmentId,
        masterId: row.parentId ?? row.id,
      };
      try {
        const plan = await planValueWrite(db, tenant, element, params.field, params.value);
        if (current.get(row.id) === plan.value) {
          next.report.unchanged++;
          continue;
        }
        statements.push(plan.statement, ...(plan.follow ?? []));
        // Each changed product gets its version, as a SetValue would write it (surface "job").
        const before = await loadPath(db, tenant.companyId, element, plan.path);
        history.push({
          elementId: row.id,
          kind: element.kind,
          place: element,
          before,
          // The value written is verified (or gone): a kept value's unit path goes (featureUnitPathOf).
          after: withChanges(before, { ...unitGone(plan.path), [plan.path]: plan.stored }),
        });
        masters.add(element.masterId!);
        next.report.updated++;
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        addFailure(next.report, row.id, row.sku, err.message);
      }
    }
    const lastId = [...rows.map((r) => r.id), ...missing].sort().at(-1)!;
    next.cursor = lastId;
    next.done += rows.length + missing.length;
    statements.push(...historyStatements(db, jobCaller(job), history).statements);
    for (const masterId of masters) statements.push(bumpRevision(db, masterId));
    // completeness events compare each product once per page, before and after it
    const saved = await runBatch(db, [
      ...withCompletenessEventsAtEnd(db, statements),
      saveCheckpoint(db, job.id, cp.seq, next),
    ]);
    if ((saved.at(-1) as { id: string }[]).length === 0) {
      await keepPartialReport(db, job.id);
      return 'stopped';
    }
    cp = next;
    await refreshFingerprints(db, tenant.companyId, [...masters]);
    if (Date.now() - started > deps.sliceMs) {
      await deps.queue.send(jobMessage(db, job.id));
      return 'continued';
    }
  }

  const [finished] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: cp.done,
      progressTotal: cp.done,
      report: { ...cp.report },
      checkpoint: null,
      finishedAt: dbNow,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  if (!finished) await keepPartialReport(db, job.id);
  return finished ? 'finished' : 'stopped';
}

/** The checkpoint update of a page; lands only on the sequence this runner loaded and only while running. */
function saveCheckpoint(db: Database, jobId: string, loadedSeq: number, next: MassEditCheckpoint) {
  return (
    db
      .update(jobs)
      // A saved page is progress: it renews the job's lease (docs/reliability.md).
      .set({ checkpoint: next, progressDone: next.done, ...progressed() })
      .where(
        and(
          eq(jobs.id, jobId),
          eq(jobs.state, 'running'),
          loadedSeq === 0
            ? sql`(${jobs.checkpoint} IS NULL OR json_extract(${jobs.checkpoint}, '$.seq') = 0)`
            : sql`json_extract(${jobs.checkpoint}, '$.seq') = ${loadedSeq}`,
        ),
      )
      .returning({ id: jobs.id })
  );
}

/** A null (removal) for the unit path of a kept feature value at `path`; nothing for another path. */
function unitGone(path: string): Record<string, null> {
  const unitPath = featureUnitPathOf(path);
  return unitPath ? { [unitPath]: null } : {};
}

/** A cancelled or failed mass edit still says what it changed before it stopped. */
async function keepPartialReport(db: Database, jobId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ report: sql`json_extract(${jobs.checkpoint}, '$.report')`, checkpoint: null })
    .where(and(eq(jobs.id, jobId), sql`${jobs.checkpoint} IS NOT NULL`, sql`${jobs.state} IN ('cancelled', 'failed')`));
}

/** Marks a mass edit failed with a message a user can act on, keeping the report of what was done. */
export async function failMassEdit(db: Database, job: JobRow, message: string): Promise<void> {
  await db
    .update(jobs)
    .set({ report: sql`json_extract(${jobs.checkpoint}, '$.report')` })
    .where(and(eq(jobs.id, job.id), sql`${jobs.checkpoint} IS NOT NULL`));
  await markFailed(db, job.id, message);
}
