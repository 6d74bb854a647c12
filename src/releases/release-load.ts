import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type Database } from '../db/client';
import { classificationReleases, jobs } from '../db/schema';
import type { JobMessage } from '../env';
import { AppError } from '../kernel/app-error';
import { GUARD_FAILED } from '../imports/read/import-checkpoint';
import { jobMessage, markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { formatOf, type ReleaseFormat, XML_LAYOUT } from './release-formats';
import type { ReleaseCheckpoint } from './release-checkpoint';
import { releaseProgress, saveReleaseCheckpoint } from './release-checkpoint';
import { cellOrder, enterNextCell, ownCell, type ReleaseCells, releaseDb } from './release-cells';
import { readReleaseCsv } from './release-csv';
import { readReleaseXml } from './release-xml';
import type { XmlNode } from '../imports/read/xml-node';
import { ReleaseFileError } from './release-errors';
import { finalizeRelease, purgeReleases } from './release-finalize';
import { rescoreInEveryCell, verifyInEveryCell } from './verify-start';
import { RowReject } from './release-rows';
import { loadKnown, RowBuffer } from './release-writer';

export interface ReleaseLoadDeps {
  db: Database;
  files: R2Bucket;
  queue: Queue<JobMessage>;
  /** Wall-clock budget of one invocation before the job continues in a new queue message. */
  sliceMs: number;
  /** Rows per transaction. */
  batchRows?: number;
  /** Every cell the release goes to (release-cells.ts); absent: the job's own cell only. */
  cells?: ReleaseCells;
}

/** The job's params (Classification/StartReleaseLoad); the files and their roles are in the first checkpoint. */
export interface ReleaseLoadParams {
  system: string;
  version: string;
  format: ReleaseFormat;
  /** Load it again where a cell has it loaded already (StartReleaseLoad `replace`). */
  replace?: boolean;
}

/**
 * Rows per transaction: a batch is a handful of JSON-row statements (db/json-rows.ts), so its
 * cost is mostly per transaction; 2,000 rows keep one under ~1 MB of JSON.
 */
const DEFAULT_BATCH_ROWS = 2000;

export type ReleaseSliceOutcome = 'finished' | 'continued' | 'stopped';

/**
 * Runs one slice of a release load (docs/classification-releases.md): reads the current file
 * from the checkpoint on, validating every row, and writes batches under the release id in
 * status `loading`, each with the checkpoint after its last row; then finalizes and purges.
 * A broken row fails the job with file, line and reason (the queue consumer then calls
 * failReleaseLoad, which throws the loading release away); loaded releases are never touched
 * until the final flip.
 */
export async function runReleaseLoadSlice(deps: ReleaseLoadDeps, job: JobRow): Promise<ReleaseSliceOutcome> {
  const { db } = deps;
  if (job.state === 'cancelled') {
    await failReleaseLoad(deps, job, 'cancelled');
    return 'stopped';
  }
  const cp = job.checkpoint as ReleaseCheckpoint | null;
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  if (!cp) throw new AppError('internal', 'release load without a checkpoint');
  const cellCount = cellOrder(db, deps.cells, cp).length;
  if (!(await markRunning(db, job.id, releaseProgress(cp, cellCount).total))) return 'stopped';
  const started = Date.now();
  const params = job.params as unknown as ReleaseLoadParams;
  try {
    let current = cp;
    for (;;) {
      // The cell this step writes: the job's own, then each further cell in turn.
      const rdb = releaseDb(db, deps.cells, current);
      if (current.phase === 'read') {
        const next = await readSlice(deps, rdb, job, current, started);
        if (next === 'stopped') return 'stopped';
        if (next === 'continued') {
          await deps.queue.send(jobMessage(deps.db, job.id));
          return 'continued';
        }
        current = next;
      } else if (current.phase === 'finalize') {
        current = await finalizeRelease(db, job, current, rdb);
      } else {
        await purgeReleases(rdb);
        const moved = deps.cells ? await enterNextCell(db, deps.cells, job, current, params) : null;
        if (moved?.next) {
          current = moved.next;
          if (Date.now() - started > deps.sliceMs) {
            await deps.queue.send(jobMessage(deps.db, job.id));
            return 'continued';
          }
          continue;
        }
        const name = `${params.system}-${params.version}`;
        const verify = await verifyInEveryCell(deps, name);
        const rescore = await rescoreInEveryCell(deps, name);
        const last = { ...current, skippedCells: moved?.skippedCells ?? current.skippedCells };
        return (await finishJob(db, job, last, { verify, rescore }, cellCount)) ? 'finished' : 'stopped';
      }
    }
  } catch (err) {
    if (err instanceof Error && GUARD_FAILED.test(`${err.message} ${String(err.cause ?? '')}`)) return 'stopped';
    throw err;
  }
}

/** Reads from the checkpoint until the files are done (the finalize checkpoint) or the budget is spent. */
async function readSlice(
  deps: ReleaseLoadDeps,
  rdb: Database,
  job: JobRow,
  cp: ReleaseCheckpoint,
  started: number,
): Promise<ReleaseCheckpoint | 'continued' | 'stopped'> {
  const { db } = deps;
  const { format, version } = job.params as ReleaseLoadParams;
  const spec = formatOf(format);
  const batchRows = deps.batchRows ?? DEFAULT_BATCH_ROWS;
  let saved = cp;
  const commit = async (buffer: RowBuffer, next: Omit<ReleaseCheckpoint, 'seq'>) => {
    const checkpoint = { ...next, seq: saved.seq + 1 };
    const rows = buffer.statements(rdb, cp.releaseId);
    const save = saveReleaseCheckpoint(db, job.id, saved.seq, checkpoint);
    // In the job's own cell rows and checkpoint are one transaction; in another cell the rows
    // commit first (their inserts ignore existing keys, so rows written again after a crash are harmless).
    if (rdb === db) await runBatch(db, [...rows, ...save]);
    else {
      if (rows.length > 0) await runBatch(rdb, rows);
      await runBatch(db, save);
    }
    buffer.clear();
    saved = checkpoint;
  };
  while (saved.fileIndex < saved.files.length) {
    const file = saved.files[saved.fileIndex]!;
    const role = spec.roles.find((r) => r.role === file.role)!;
    const known = await loadKnown(rdb, cp.releaseId, file.role);
    const buffer = new RowBuffer();
    let rows = 0;
    let skipped = saved.skipped ?? 0;
    try {
      const source =
        file.kind === 'xml'
          ? readReleaseXml(deps.files, file.key, file.name, file.encoding, XML_LAYOUT[format] ?? 'bmecat')
          : readReleaseCsv(deps.files, file.key, file.name, file.encoding);
      for await (const row of source) {
        rows++;
        if (rows <= saved.rowsDone) continue;
        let parsed: ReturnType<typeof role.parse>;
        try {
          parsed = role.parse(
            row.cells,
            { lang: file.lang, known, row: rows, version },
            'node' in row ? (row.node as XmlNode) : undefined,
          );
        } catch (err) {
          if (err instanceof RowReject) throw new ReleaseFileError(file.name, row.line, err.message);
          throw err;
        }
        // A row the format deliberately passes over (eCl@ss keywords of properties) is not counted as read.
        if (Object.keys(parsed).length === 0) skipped++;
        buffer.add(parsed);
        known.note(parsed);
        if (buffer.count >= batchRows) {
          await commit(buffer, { ...saved, rowsDone: rows, skipped });
          if (Date.now() - started > deps.sliceMs) return 'continued';
        }
      }
    } catch (err) {
      // The shared text reader knows no file names: say which file.
      if (err instanceof AppError && !(err instanceof ReleaseFileError))
        throw new ReleaseFileError(file.name, 0, err.message);
      throw err;
    }
    const done = { ...saved.rows, [file.name]: rows - skipped };
    await commit(buffer, { ...saved, fileIndex: saved.fileIndex + 1, rowsDone: 0, skipped: 0, rows: done });
    if (Date.now() - started > deps.sliceMs && saved.fileIndex < saved.files.length) return 'continued';
  }
  const finalize: ReleaseCheckpoint = { ...saved, phase: 'finalize', seq: saved.seq + 1 };
  await runBatch(db, saveReleaseCheckpoint(db, job.id, saved.seq, finalize));
  return finalize;
}

/** Ends the job with the release's counts, the verification and rescoring jobs it started and its warnings. */
async function finishJob(
  db: Database,
  job: JobRow,
  cp: ReleaseCheckpoint,
  started: Record<'verify' | 'rescore', { queued: number; left: number }>,
  cells: number,
): Promise<boolean> {
  const { verify, rescore } = started;
  const release = await db.query.classificationReleases.findFirst({
    where: eq(classificationReleases.id, cp.releaseId),
  });
  const summary = release?.counts ?? {};
  const warnings = Object.entries(cp.rows).flatMap(([name, rows]) => {
    const stored = cp.stored?.[name];
    return stored !== undefined && stored < rows
      ? [`${name}: ${rows - stored} of ${rows} rows repeat an earlier row and were loaded once`]
      : [];
  });
  for (const cell of cp.skippedCells ?? []) warnings.push(`${cell} had this release loaded already: left as it was`);
  if (verify.left > 0)
    warnings.push(
      `${verify.left} more companies hold codes of this release: their administrators start the verification`,
    );
  if (rescore.left > 0)
    warnings.push(
      `${rescore.left} more companies have channel rules naming this release: their administrators save those channels again to recompute`,
    );
  const [done] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: sql`${jobs.progressTotal}`,
      summary: { releaseId: cp.releaseId, ...summary, verifyJobs: verify.queued, rescoreJobs: rescore.queued, cells },
      warnings: warnings.length > 0 ? warnings : null,
      checkpoint: null,
      finishedAt: new Date().toISOString(),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  return done !== undefined;
}

/**
 * Fails a release load: the job gets the message (file, line and reason), the loading release
 * becomes `failed` and its rows are deleted. Previously loaded releases were never touched.
 */
export async function failReleaseLoad(
  deps: Pick<ReleaseLoadDeps, 'db' | 'cells'>,
  job: JobRow,
  message: string,
): Promise<void> {
  const { db } = deps;
  if (message !== 'cancelled') await markFailed(db, job.id, message);
  // Every cell the load reached: a cell it finished keeps the release (loaded, all or nothing).
  const own = ownCell(db);
  const reached = [db, ...(deps.cells?.names ?? []).filter((c) => c !== own).map((c) => deps.cells!.open(c))];
  for (const rdb of reached) {
    await rdb
      .update(classificationReleases)
      .set({ status: 'failed', error: message })
      .where(and(eq(classificationReleases.jobId, job.id), eq(classificationReleases.status, 'loading')));
    await purgeReleases(rdb);
  }
}
