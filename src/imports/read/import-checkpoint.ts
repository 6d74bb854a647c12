import { eq, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jobs } from '../../db/schema';
import { progressed } from '../../jobs/lease';
import type { WarningTally } from '../../exports/export-warnings';
import { CSV_START, type CsvResumePoint } from './csv-reader';
import { XML_START, type XmlResumePoint } from './bmecat-reader';
import type { ImportFormat } from './detect-format';
import { XCHANGE_START, type XChangeResumePoint } from './xchange-reader';
import type { TextEncodingName } from './text-encodings';
import type { FileLanguages } from './file-languages';
import type { FileHeader } from './file-header';

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** Products deleted by T_UPDATE_PRODUCTS mode="delete" (absent in checkpoints of older jobs). */
  deleted?: number;
  /** Placements written from the group map (BMEcat) or the categories column (CSV): a created master's, and an updated master's whose placements changed. */
  placements: number;
  categoriesCreated: number;
}

/**
 * Where an import continues, kept in `jobs.checkpoint`. Phases: `validate` reads the whole
 * file without touching the catalog (well-formedness, product count, the group system staged
 * in import_groups); `groups` turns the staged groups into categories; `products` reads the
 * file again and upserts it in batches; `finish` writes the report and ends the job.
 */
export interface ImportCheckpoint {
  /** Increases with every save; a batch commits only on the sequence it loaded (guardStatement). */
  seq: number;
  format: ImportFormat;
  encoding: TextEncodingName;
  phase: 'validate' | 'groups' | 'products' | 'finish';
  at: XmlResumePoint | CsvResumePoint | XChangeResumePoint;
  total: number;
  done: number;
  counts: ImportCounts;
  warnings: WarningTally;
  /** The file has a group map (BMEcat): then it is the placements of the file's masters (docs/import.md). */
  hasMap?: boolean;
  /** The catalog's language (ISO 639-2): which xChange description the catalog keeps. */
  language?: string;
  /** The catalog's currency: a BMEcat price list that is only the `price` in it is read as that price (bmecat-prices.ts). */
  currency?: string;
  /** BMEcat: the HEADER's default LANGUAGE as written (null: none), read when the job starts. */
  headerLanguage?: string | null;
  /** BMEcat: what the HEADER says about reading prices (our own export, its generation date), read when the job starts. */
  header?: FileHeader;
  /** BMEcat and CSV: records per language (its code, the form written when none, `''` unlabelled) and the first, counted by the validation pass. */
  seenLanguages?: Record<string, { count: number; example: string }>;
  /** BMEcat and CSV: how the file's languages are read, decided after the validation pass (file-languages.ts). */
  languages?: FileLanguages;
}

/** Whether a format is read by the xChange reader (V2.0 and V1.1 share it). */
export const isXChange = (format: ImportFormat) => format === 'ETIMxChange' || format === 'ETIMxChange-1.1';

export const startOf = (format: ImportFormat) =>
  format === 'CSV' ? CSV_START : isXChange(format) ? XCHANGE_START : XML_START;

export function firstCheckpoint(format: ImportFormat, encoding: TextEncodingName): ImportCheckpoint {
  return {
    seq: 0,
    format,
    encoding,
    phase: 'validate',
    at: startOf(format),
    total: 0,
    done: 0,
    counts: { created: 0, updated: 0, unchanged: 0, rejected: 0, deleted: 0, placements: 0, categoriesCreated: 0 },
    warnings: {},
  };
}

/** The message SQLite raises when guardStatement finds the job moved on. */
export const GUARD_FAILED = /malformed JSON/;

/**
 * A statement that fails its whole batch (D1 runs a batch as one transaction) unless the job
 * is still running on checkpoint `loadedSeq`: a cancelled job or a duplicate delivery racing
 * this one never commits a batch. `json(<not JSON>)` is the failure; its argument depends on a
 * column so SQLite cannot evaluate it ahead of the CASE.
 */
export function guardStatement(db: Database, jobId: string, loadedSeq: number): BatchStatement {
  return db
    .select({
      ok: sql`CASE WHEN ${jobs.state} = 'running' AND json_extract(${jobs.checkpoint}, '$.seq') = ${loadedSeq} THEN 1
        ELSE json('import moved on: ' || ${jobs.id}) END`,
    })
    .from(jobs)
    .where(eq(jobs.id, jobId));
}

/** Guard plus the checkpoint save: put both in the batch whose work the checkpoint records. */
export function saveStatements(
  db: Database,
  jobId: string,
  loadedSeq: number,
  next: ImportCheckpoint,
): BatchStatement[] {
  return [
    guardStatement(db, jobId, loadedSeq),
    // The checkpoint advanced: the lease is renewed and the recovery sweep's restart count reset (docs/reliability.md).
    db
      .update(jobs)
      .set({ checkpoint: next, progressDone: next.done, progressTotal: next.total, ...progressed() })
      .where(eq(jobs.id, jobId)),
  ];
}
