import { eq, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { jobs } from '../db/schema';
import type { TextEncodingName } from '../imports/read/text-chunks';
import { guardStatement } from '../imports/read/import-checkpoint';
import { progressed } from '../jobs/lease';
import type { Role } from './release-rows';

/** One uploaded file of a release, as the load reads it. */
export interface ReleaseFile {
  fileId: string;
  name: string;
  key: string;
  role: Role;
  encoding: TextEncodingName;
  lang: string;
  /** `xml`: a BMEcat file (its feature system is read); else a delimited text file. */
  kind?: 'csv' | 'xml';
}

/**
 * Where a release load continues (`jobs.checkpoint`). `read` goes through the files in role
 * order; `rowsDone` rows of the current file are written (a resumed slice reads past them);
 * `finalize` checks what needs the whole release, builds the search index and flips the
 * release to `loaded`; `purge` deletes the rows of the release it replaced.
 */
export interface ReleaseCheckpoint {
  seq: number;
  phase: 'read' | 'finalize' | 'purge';
  releaseId: number;
  files: ReleaseFile[];
  fileIndex: number;
  rowsDone: number;
  /** Rows of the current file the format passes over on purpose (not counted as read). */
  skipped?: number;
  /** Data rows read per file name. */
  rows: Record<string, number>;
  /** Rows stored per file name, for a file that is its role's only one (finalize): fewer than read means repeated rows. */
  stored?: Record<string, number>;
  /**
   * The cells the release goes to, the job's own first (release-cells.ts); absent until the
   * load moves past its own cell. `cellIndex` is the one being written (absent: 0, its own).
   */
  cells?: string[];
  cellIndex?: number;
  /** Cells passed over because they had the release loaded already. */
  skippedCells?: string[];
}

/** Progress over every cell: each cell counts its files and its finalize step. */
export function releaseProgress(
  cp: Pick<ReleaseCheckpoint, 'files' | 'fileIndex' | 'cells' | 'cellIndex'>,
  cellCount?: number,
) {
  const perCell = cp.files.length + 1;
  const cells = Math.max(cellCount ?? cp.cells?.length ?? 1, 1);
  return { done: (cp.cellIndex ?? 0) * perCell + cp.fileIndex, total: cells * perCell };
}

/** Guard plus checkpoint save, to end the batch whose work the checkpoint records (imports' guard: the batch fails if the job moved on). */
export function saveReleaseCheckpoint(
  db: Database,
  jobId: string,
  loadedSeq: number,
  next: ReleaseCheckpoint,
): BatchStatement[] {
  return [
    guardStatement(db, jobId, loadedSeq),
    db
      .update(jobs)
      .set({ checkpoint: next, ...progressColumns(releaseProgress(next)), ...progressed() })
      .where(eq(jobs.id, jobId)),
  ];
}

/** A checkpoint's progress as the job columns; before the load knows its cells the total is left as it was. */
function progressColumns(progress: { done: number; total: number }) {
  return { progressDone: progress.done, progressTotal: sql`max(${jobs.progressTotal}, ${progress.total})` };
}
