import { dbNow } from '../kernel/clock';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { exportTemplates, jobs } from '../db/schema';
import type { JobMessage } from '../env';
import { AppError } from '../kernel/app-error';
import { findCatalog } from '../db/scope';
import { jobMessage, markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { heartbeat, progressed } from '../jobs/lease';
import type { ExportContext, Exporter } from './exporter';
import { ExportWarnings, type WarningTally } from './export-warnings';
import { PartWriter } from './part-writer';
import { contentDisposition } from '../kernel/content-disposition';
import { jobCaller } from '../kernel/caller';

/** Where an export continues: kept in `jobs.checkpoint` between queue messages. */
export interface ExportCheckpoint {
  /** Increases with every save; a save only lands on the sequence it loaded (one runner at a time). */
  seq: number;
  key: string;
  fileName: string;
  uploadId: string;
  parts: R2UploadedPart[];
  /** Object holding the bytes written after the last full part, or null. */
  carryKey: string | null;
  phase: number;
  cursor: string | null;
  done: number;
  plan: unknown;
  /** Progress total fixed when the export started. */
  total: number;
  warnings: WarningTally;
}

export interface ExportDeps {
  db: Database;
  files: R2Bucket;
  queue: Queue<JobMessage>;
  exporters: Record<string, Exporter<any>>;
  /** Wall-clock budget of one invocation before the job continues in a new queue message. */
  sliceMs: number;
  /** Part size override for tests; production uses PART_SIZE. */
  partSize?: number;
  /**
   * Signs media URLs for formats that link media (xChange attachments), given the origin the
   * export was started from; answers undefined when the server cannot sign.
   */
  mediaUrlFor?: (origin: string | null) => ((mediaId: string) => Promise<string>) | undefined;
}

interface ExportParams {
  catalogId: string;
  exportType: string;
  templateId: string | null;
  /** The origin StartExport was called on (absent in jobs queued before it was kept). */
  mediaBaseUrl?: string | null;
  /**
   * An export of a member limited to category subtrees: their roots, judged when it started
   * (`exportSubtrees`, db/product-scope.ts); absent for everyone else (the whole catalog).
   */
  scopeCategoryIds?: string[];
}

export type SliceOutcome = 'finished' | 'continued' | 'stopped';

function fileNameFor(catalogName: string, exporter: Exporter<any>, jobId: string): string {
  const base =
    catalogName
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'catalog';
  return `${base}-${exporter.exportType}-${jobId.slice(0, 8)}.${exporter.fileExtension}`;
}

async function saveCheckpoint(
  db: Database,
  jobId: string,
  loadedSeq: number,
  next: ExportCheckpoint,
): Promise<boolean> {
  const [row] = await db
    .update(jobs)
    .set({ checkpoint: next, progressDone: next.done, ...progressed() })
    .where(
      and(
        eq(jobs.id, jobId),
        eq(jobs.state, 'running'),
        loadedSeq < 0 ? sql`${jobs.checkpoint} IS NULL` : sql`json_extract(${jobs.checkpoint}, '$.seq') = ${loadedSeq}`,
      ),
    )
    .returning({ id: jobs.id });
  return row !== undefined;
}

async function isStillRunning(db: Database, jobId: string): Promise<boolean> {
  const row = await db.query.jobs.findFirst({ where: eq(jobs.id, jobId), columns: { state: true } });
  return row?.state === 'running';
}

/** Aborts the export's open multipart upload and deletes its carry object. */
export async function discardExport(files: R2Bucket, checkpoint: ExportCheckpoint | null): Promise<void> {
  if (!checkpoint) return;
  await files
    .resumeMultipartUpload(checkpoint.key, checkpoint.uploadId)
    .abort()
    .catch(() => undefined);
  if (checkpoint.carryKey) await files.delete(checkpoint.carryKey);
}

/**
 * Runs one slice of an export job: resumes from the checkpoint, writes pages until the file
 * is complete or the slice budget is spent, then either completes the upload and marks the job
 * succeeded, or saves the checkpoint and queues a continuation. A cancelled job stops and its
 * upload is aborted. Deterministic output per cursor makes a re-run after a crash overwrite
 * the same part numbers with the same bytes.
 */
export async function runExportSlice(deps: ExportDeps, job: JobRow): Promise<SliceOutcome> {
  const { db, files } = deps;
  const params = job.params as ExportParams;
  let checkpoint = (job.checkpoint as ExportCheckpoint | null) ?? null;

  if (job.state === 'cancelled') {
    await discardExport(files, checkpoint);
    return 'stopped';
  }
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';

  const exporter = deps.exporters[params.exportType];
  if (!exporter) throw new AppError('bad_request', `export type ${params.exportType} is not available`);
  const catalog = await findCatalog(db, jobCaller(job), params.catalogId);
  const template = params.templateId
    ? ((await db.query.exportTemplates.findFirst({
        where: and(eq(exportTemplates.id, params.templateId), eq(exportTemplates.companyId, job.companyId)),
      })) ?? null)
    : null;
  // Only planning reads the template; a running export keeps its plan even if the template is deleted.
  if (params.templateId && !template && !checkpoint)
    throw new AppError('not_found', 'export template no longer exists');
  const ctx: ExportContext = {
    db,
    companyId: job.companyId,
    catalog,
    template,
    jobId: job.id,
    mediaUrl: deps.mediaUrlFor?.(params.mediaBaseUrl ?? null),
    scopeCategoryIds: params.scopeCategoryIds ?? null,
  };

  const loadedSeq = checkpoint?.seq ?? -1;
  if (checkpoint) {
    if (!(await markRunning(db, job.id, checkpoint.total))) return 'stopped';
  } else {
    // Plan before the upload exists: a plan that refuses the export (AppError) leaves nothing behind.
    const plan = await exporter.plan(ctx);
    const total = exporter.total ? await exporter.total(ctx, plan) : catalog.productCount;
    if (!(await markRunning(db, job.id, total))) return 'stopped';
    const fileName = fileNameFor(catalog.name, exporter, job.id);
    const key = `exports/${job.companyId}/${job.id}/${fileName}`;
    const upload = await files.createMultipartUpload(key, {
      httpMetadata: {
        contentType: exporter.contentType,
        contentDisposition: contentDisposition('attachment', fileName),
      },
    });
    checkpoint = {
      seq: 0,
      key,
      fileName,
      uploadId: upload.uploadId,
      parts: [],
      carryKey: null,
      phase: 0,
      cursor: null,
      done: 0,
      plan,
      total,
      warnings: {},
    };
    if (!(await saveCheckpoint(db, job.id, loadedSeq, checkpoint))) {
      await upload.abort();
      return 'stopped';
    }
  }

  const cp: ExportCheckpoint = checkpoint;
  const upload = files.resumeMultipartUpload(cp.key, cp.uploadId);
  const carryObject = cp.carryKey ? await files.get(cp.carryKey) : null;
  // The carry is deleted once a newer checkpoint is saved: this delivery is a stale duplicate,
  // and writing parts from it would overwrite good parts with different bytes.
  if (cp.carryKey && !carryObject) return 'stopped';
  const carry = carryObject ? new Uint8Array(await carryObject.arrayBuffer()) : new Uint8Array();
  const writer = new PartWriter(upload, [...cp.parts], carry, deps.partSize);
  const warnings = new ExportWarnings(structuredClone(cp.warnings));
  const started = Date.now();
  let { phase, cursor, done } = cp;
  let pages = 0;

  while (phase < exporter.phases.length) {
    const result = await exporter.phases[phase]!.run(ctx, cp.plan, cursor);
    await writer.write(result.text);
    done += result.products;
    warnings.merge(result.warnings);
    cursor = result.nextCursor;
    if (cursor === null) phase++;
    pages++;

    if (phase < exporter.phases.length && pages % 10 === 0) {
      if (!(await isStillRunning(db, job.id))) {
        await discardExport(files, cp);
        return 'stopped';
      }
      await db
        .update(jobs)
        .set({ progressDone: done, ...heartbeat() })
        .where(eq(jobs.id, job.id));
    }
    if (phase < exporter.phases.length && Date.now() - started > deps.sliceMs) {
      const seq = cp.seq + 1;
      // Unique per attempt: a duplicate delivery racing on the same seq must not overwrite or delete the winner's carry.
      const carryKey = `tmp/${job.id}/carry-${seq}-${crypto.randomUUID()}`;
      await files.put(carryKey, writer.carry());
      const next: ExportCheckpoint = {
        ...cp,
        seq,
        parts: writer.parts,
        carryKey,
        phase,
        cursor,
        done,
        warnings: warnings.toJSON(),
      };
      if (!(await saveCheckpoint(db, job.id, cp.seq, next))) {
        await files.delete(carryKey);
        if (!(await isStillRunning(db, job.id))) await discardExport(files, next);
        return 'stopped';
      }
      if (cp.carryKey) await files.delete(cp.carryKey);
      await deps.queue.send(jobMessage(deps.db, job.id));
      return 'continued';
    }
  }

  if (!(await isStillRunning(db, job.id))) {
    await discardExport(files, cp);
    return 'stopped';
  }
  const object = await writer.finish();
  const [finished] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: done,
      // The file is complete: what it holds is the total, whatever was estimated at the start.
      progressTotal: done,
      warnings: warnings.isEmpty ? null : warnings.messages(),
      finishedAt: dbNow,
      resultKey: cp.key,
      resultFileName: cp.fileName,
      resultContentType: exporter.contentType,
      resultSize: object.size,
      checkpoint: null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  if (cp.carryKey) await files.delete(cp.carryKey);
  if (!finished) {
    // Cancelled in the last moment: the finished file is not a result.
    await files.delete(cp.key);
    return 'stopped';
  }
  return 'finished';
}

/**
 * Marks an export failed, with a message a user can act on, and throws its upload and carry
 * away. The checkpoint is re-read: the slice that failed may have saved a newer one.
 */
export async function failExport(deps: Pick<ExportDeps, 'db' | 'files'>, job: JobRow, message: string): Promise<void> {
  const latest = await deps.db.query.jobs.findFirst({ where: eq(jobs.id, job.id), columns: { checkpoint: true } });
  await discardExport(deps.files, ((latest ?? job).checkpoint as ExportCheckpoint | null) ?? null);
  await markFailed(deps.db, job.id, message);
}
