import { eq } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { jobs } from '../db/schema';
import type { TextEncodingName } from '../imports/text-chunks';
import { guardStatement } from '../imports/import-checkpoint';
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
      .set({ checkpoint: next, progressDone: next.fileIndex, progressTotal: next.files.length + 1, ...progressed() })
      .where(eq(jobs.id, jobId)),
  ];
}
