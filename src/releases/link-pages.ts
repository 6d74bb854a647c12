import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { jobs } from '../db/schema';
import type { JobMessage } from '../env';
import { type ClassificationContext, loadClassificationContext } from '../classification/classification-context';
import { classificationWriteStatements, type NextClassification } from '../classification/classification-write';
import { isWriteConflict } from '../records/write-guard';
import { markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { progressed } from '../jobs/lease';
import { AppError } from '../kernel/app-error';
import { type Caller, jobCaller } from '../kernel/caller';
import { dbNow } from '../kernel/clock';

/** Classifications per page: read one by one, written together (all or nothing) with the checkpoint. */
export const LINK_PAGE = 25;
/** Distinct lines kept per list in the report (each with its count); the counts cover them all. */
const MAX_LINES = 200;
/** A page that loses its guard to concurrent edits this often in a row fails the job rather than spin. */
const MAX_CONFLICTS = 5;

/** What planning one classification gives: the write (null: none), counts to add, report lines. */
export interface LinkOutcome {
  next: NextClassification | null;
  counts: Record<string, number>;
  automatic?: string[];
  review?: string[];
}

/** A job that walks classifications page by page (verification, upgrade): its query and its plan. */
export interface LinkPageJob {
  /** The next page of classifications after link row id `after`: their row id and public id. */
  page(db: Database, caller: Caller, after: number): Promise<{ id: number; linkId: string }[]>;
  /** The releases the contexts read (classification-context.ts). */
  releases: string[];
  /** Plans a page: one outcome per context, in order. */
  planPage(db: Database, contexts: ClassificationContext[]): Promise<LinkOutcome[]>;
  /** The counts the job always ends with (0 when no classification added to one, e.g. nothing to walk). */
  countKeys: readonly string[];
}

interface Checkpoint {
  seq: number;
  after: number;
  counts: Record<string, number>;
  automatic: Record<string, number>;
  review: Record<string, number>;
}

export interface LinkPageDeps {
  db: Database;
  queue: Queue<JobMessage>;
  sliceMs: number;
}

const addLine = (lines: Record<string, number>, line: string) => {
  if (line in lines || Object.keys(lines).length < MAX_LINES) lines[line] = (lines[line] ?? 0) + 1;
};

/** The report of a checkpoint: each line with how many classifications, most frequent first. */
export function reportOf(cp: Pick<Checkpoint, 'automatic' | 'review'>) {
  const list = (lines: Record<string, number>) =>
    Object.entries(lines)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([line, count]) => ({ line, count }));
  return { automatic: list(cp.automatic), review: list(cp.review) };
}

/**
 * One slice of a classification page job: each page's classifications are read (one batch
 * each), planned, and written in ONE batch with the checkpoint; each write is guarded, so a
 * concurrent edit fails the page, which is read and planned again. A redelivered message
 * resumes after the last saved page. At the end the job holds the counts (summary), the
 * automatic and review lines (report) and the review lines as warnings.
 */
export async function runLinkPages(
  deps: LinkPageDeps,
  job: JobRow,
  spec: LinkPageJob,
): Promise<'finished' | 'continued' | 'stopped'> {
  const { db } = deps;
  const caller = jobCaller(job);
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  let cp = (job.checkpoint as Checkpoint | null) ?? { seq: 0, after: 0, counts: {}, automatic: {}, review: {} };
  if (!(await markRunning(db, job.id, job.progressTotal))) return 'stopped';
  const started = Date.now();
  let conflicts = 0;
  for (;;) {
    const page = await spec.page(db, caller, cp.after);
    if (page.length === 0) break;
    const next: Checkpoint = structuredClone(cp);
    next.seq++;
    next.after = page.at(-1)!.id;
    const contexts: ClassificationContext[] = [];
    for (const row of page)
      contexts.push(
        await loadClassificationContext(
          db,
          caller,
          { linkId: row.linkId },
          { classCodes: [], featureCodes: [], releases: spec.releases },
        ),
      );
    const outcomes = await spec.planPage(db, contexts);
    const statements: BatchStatement[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      next.counts.checked = (next.counts.checked ?? 0) + 1;
      for (const [key, n] of Object.entries(outcome.counts)) next.counts[key] = (next.counts[key] ?? 0) + n;
      for (const line of outcome.automatic ?? []) addLine(next.automatic, line);
      for (const line of outcome.review ?? []) addLine(next.review, line);
      if (outcome.next)
        statements.push(...(await classificationWriteStatements(db, caller, contexts[i]!, outcome.next)).statements);
    }
    try {
      const saved = await runBatch(db, [...statements, saveCheckpoint(db, job.id, cp.seq, next)]);
      if ((saved.at(-1) as unknown[]).length === 0) return 'stopped';
    } catch (err) {
      if (!isWriteConflict(err)) throw err;
      if (++conflicts >= MAX_CONFLICTS)
        throw new AppError('conflict', 'classifications kept changing while the job ran; start it again');
      continue;
    }
    conflicts = 0;
    cp = next;
    if (Date.now() - started > deps.sliceMs) {
      await deps.queue.send({ jobId: job.id });
      return 'continued';
    }
  }
  const report = reportOf(cp);
  const [finished] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: cp.counts.checked ?? 0,
      progressTotal: cp.counts.checked ?? 0,
      summary: { checked: 0, ...Object.fromEntries(spec.countKeys.map((k) => [k, 0])), ...cp.counts },
      report,
      warnings: report.review.map(
        (r) => `${r.line} (${r.count} ${r.count === 1 ? 'classification' : 'classifications'})`,
      ),
      checkpoint: null,
      finishedAt: dbNow,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  return finished ? 'finished' : 'stopped';
}

/** The checkpoint update of a page; lands only on the sequence this runner loaded and only while running. */
function saveCheckpoint(db: Database, jobId: string, loadedSeq: number, next: Checkpoint) {
  return db
    .update(jobs)
    .set({ checkpoint: next, progressDone: next.counts.checked ?? 0, ...progressed() })
    .where(
      and(
        eq(jobs.id, jobId),
        eq(jobs.state, 'running'),
        loadedSeq === 0
          ? sql`(${jobs.checkpoint} IS NULL OR json_extract(${jobs.checkpoint}, '$.seq') = 0)`
          : sql`json_extract(${jobs.checkpoint}, '$.seq') = ${loadedSeq}`,
      ),
    )
    .returning({ id: jobs.id });
}

/** A failed page job keeps the counts and lines of the pages it wrote. */
export async function failLinkPages(db: Database, job: JobRow, message: string): Promise<void> {
  const latest = await db.query.jobs.findFirst({ where: eq(jobs.id, job.id), columns: { checkpoint: true } });
  const cp = (latest?.checkpoint ?? null) as Checkpoint | null;
  if (cp)
    await db
      .update(jobs)
      .set({ summary: cp.counts, report: reportOf(cp) })
      .where(eq(jobs.id, job.id));
  await markFailed(db, job.id, message);
}
