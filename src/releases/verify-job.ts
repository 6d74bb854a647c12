import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { jobs } from '../db/schema';
import type { JobMessage } from '../env';
import { loadClassificationContext } from '../classification/classification-context';
import { classificationWriteStatements } from '../classification/classification-write';
import { isWriteConflict } from '../history/write-guard';
import { enqueueJob, markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { progressed } from '../jobs/lease';
import { AppError, badRequest } from '../kernel/app-error';
import { type Caller, jobCaller } from '../kernel/caller';
import type { ClassificationGroup } from '../kernel/classification-groups';
import { dbNow } from '../kernel/clock';
import { groupOfRelease } from '../kernel/release-name';
import { findLoadedRelease, ReleaseName } from './release-queries';
import { planVerify } from './verify-plan';

export const StartVerifyCodesDto = z.strictObject({
  /** The loaded release to verify against, e.g. ETIM-9.0: the kept classes whose system names it. */
  release: ReleaseName,
});

/** Classifications per batch: read one by one, written together (all or nothing) with the checkpoint. */
export const VERIFY_PAGE = 25;
/** Distinct reasons listed in the report (each with its count); the counts cover them all. */
const MAX_REASONS = 200;
/** A batch that loses its guard to concurrent edits this often in a row fails the job rather than spin. */
const MAX_CONFLICTS = 5;

const COUNTS = [
  'checked',
  'classesVerified',
  'featuresVerified',
  'classesUnverified',
  'featuresUnverified',
  'otherRelease',
] as const;
type Counts = Record<(typeof COUNTS)[number], number>;

interface VerifyCheckpoint {
  seq: number;
  /** Last classification_links.id done (keyset over the kept classes of the group). */
  after: number;
  counts: Counts;
  reasons: Record<string, number>;
}

export interface VerifyDeps {
  db: Database;
  queue: Queue<JobMessage>;
  sliceMs: number;
}

/** Where the unverified classes of a group are: the partial index of migration 0020 walks them by link. */
function keptClassesAfter(db: Database, companyId: string, group: ClassificationGroup, after: number) {
  return db.all<{ id: number; linkId: string }>(sql`SELECT c.link_id AS id, l.link_id AS linkId
    FROM classification_link_classes c JOIN classification_links l ON l.id = c.link_id
    WHERE c.unverified = 1 AND c."group" = ${group} AND c.link_id > ${after} AND l.company_id = ${companyId}
    ORDER BY c.link_id LIMIT ${VERIFY_PAGE}`);
}

/**
 * Queues the verification of a company's kept codes against a loaded release (docs/
 * classification-releases.md, "Verifying kept codes"). 400 for a release that is not loaded or
 * whose system is not a classification group's.
 */
export async function startVerifyCodes(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: z.infer<typeof StartVerifyCodesDto>,
) {
  const group = groupOfRelease(input.release);
  if (!group) throw badRequest(`release: ${input.release} is not an ETIM, ECLASS or PROFICLASS release`);
  try {
    await findLoadedRelease(deps.db, input.release);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found')
      throw badRequest(`release: ${input.release} is not loaded`);
    throw err;
  }
  const [{ total }] = (await deps.db.all<{ total: number }>(sql`SELECT count(*) AS total
    FROM classification_link_classes c JOIN classification_links l ON l.id = c.link_id
    WHERE c.unverified = 1 AND c."group" = ${group} AND l.company_id = ${caller.companyId}`)) as [{ total: number }];
  return enqueueJob(deps, caller, { kind: 'releaseVerify', params: { release: input.release }, total });
}

/**
 * One slice: pages through the kept classes of the release's group by link, plans each with
 * planVerify, and writes a page's classifications (each its own guarded write, with its history
 * entry and fingerprint) in ONE batch together with the checkpoint: all or nothing per page. A
 * page that lost a guard to a concurrent edit is read and planned again; a redelivered message
 * resumes after the last saved page.
 */
export async function runVerifySlice(deps: VerifyDeps, job: JobRow): Promise<'finished' | 'continued' | 'stopped'> {
  const { db } = deps;
  const release = (job.params as { release: string }).release;
  const group = groupOfRelease(release)!;
  const caller = jobCaller(job);
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  let cp: VerifyCheckpoint = (job.checkpoint as VerifyCheckpoint | null) ?? {
    seq: 0,
    after: 0,
    counts: Object.fromEntries(COUNTS.map((k) => [k, 0])) as Counts,
    reasons: {},
  };
  if (!(await markRunning(db, job.id, job.progressTotal))) return 'stopped';
  const started = Date.now();
  let conflicts = 0;
  for (;;) {
    const page = await keptClassesAfter(db, caller.companyId, group, cp.after);
    if (page.length === 0) break;
    const next: VerifyCheckpoint = structuredClone(cp);
    next.seq++;
    next.after = page.at(-1)!.id;
    const statements: BatchStatement[] = [];
    for (const row of page) {
      const ctx = await loadClassificationContext(
        db,
        caller,
        { linkId: row.linkId },
        {
          classCodes: [],
          featureCodes: [],
          releases: [release],
        },
      );
      const plan = planVerify(ctx, release, group);
      next.counts.checked++;
      if (plan.otherRelease) next.counts.otherRelease++;
      else if (plan.classVerified) next.counts.classesVerified++;
      else next.counts.classesUnverified++;
      next.counts.featuresVerified += plan.featuresVerified;
      next.counts.featuresUnverified += plan.featuresUnverified;
      for (const reason of plan.reasons)
        if (reason in next.reasons || Object.keys(next.reasons).length < MAX_REASONS)
          next.reasons[reason] = (next.reasons[reason] ?? 0) + 1;
      if (plan.next) statements.push(...(await classificationWriteStatements(db, caller, ctx, plan.next)).statements);
    }
    try {
      const saved = await runBatch(db, [...statements, saveCheckpoint(db, job.id, cp.seq, next)]);
      if ((saved.at(-1) as unknown[]).length === 0) return 'stopped';
    } catch (err) {
      if (!isWriteConflict(err)) throw err;
      if (++conflicts >= MAX_CONFLICTS)
        throw new AppError('conflict', 'classifications kept changing while they were verified; start the job again');
      continue;
    }
    conflicts = 0;
    cp = next;
    if (Date.now() - started > deps.sliceMs) {
      await deps.queue.send({ jobId: job.id });
      return 'continued';
    }
  }
  const [finished] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: cp.counts.checked,
      progressTotal: cp.counts.checked,
      summary: cp.counts,
      warnings: reasonLines(cp.reasons),
      checkpoint: null,
      finishedAt: dbNow,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  return finished ? 'finished' : 'stopped';
}

/** The report's lines: each reason a code stayed unverified, with how many classifications. */
function reasonLines(reasons: Record<string, number>): string[] {
  return Object.entries(reasons)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, n]) => `${reason} (${n} ${n === 1 ? 'classification' : 'classifications'}): kept unverified`);
}

/** The checkpoint update of a page; lands only on the sequence this runner loaded and only while running. */
function saveCheckpoint(db: Database, jobId: string, loadedSeq: number, next: VerifyCheckpoint) {
  return db
    .update(jobs)
    .set({ checkpoint: next, progressDone: next.counts.checked, ...progressed() })
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

/** A failed verification keeps the counts and reasons of the pages it wrote. */
export async function failVerify(db: Database, job: JobRow, message: string): Promise<void> {
  const latest = await db.query.jobs.findFirst({ where: eq(jobs.id, job.id), columns: { checkpoint: true } });
  const cp = (latest?.checkpoint ?? null) as VerifyCheckpoint | null;
  if (cp)
    await db
      .update(jobs)
      .set({ summary: cp.counts, warnings: reasonLines(cp.reasons) })
      .where(eq(jobs.id, job.id));
  await markFailed(db, job.id, message);
}
