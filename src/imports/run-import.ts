import { tidySearchIndex } from '../catalog/search-tidy';
import { dbNow } from '../kernel/clock';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  importDryProducts,
  importGroups,
  importPlacements,
  importRejections,
  importSkus,
  importWarnings,
  jobs,
} from '../db/schema';
import type { JobMessage } from '../env';
import { jobMessage, markFailed, markRunning, type JobRow } from '../jobs/jobs';
import { findCatalog } from '../db/scope';
import { ReferenceCache } from '../catalog/upsert/resolve/reference-cache';
import { detectFormat } from './read/detect-format';
import { findImportFile } from './import-files';
import { firstCheckpoint, GUARD_FAILED, isXChange, type ImportCheckpoint } from './read/import-checkpoint';
import { resolveGroups } from './write/import-categories';
import { readProductsPhase, saveCheckpoint, validatePhase, type PhaseOutcome, type SliceRun } from './import-phases';
import { reasonCounts, rejectionStatements, writeReport } from './report/import-report';
import { scopeInside } from './write/import-batches';
import { ImportFileError, readHead } from './read/text-chunks';
import { jobCaller } from '../kernel/caller';
import { headerLanguage, type LanguagesNotEnabled } from './read/file-languages';
import { fileHeader } from './read/file-header';
import { decodeHead } from './read/text-encodings';

export interface ImportDeps {
  db: Database;
  files: R2Bucket;
  queue: Queue<JobMessage>;
  /** Wall-clock budget of one invocation before the job continues in a new queue message. */
  sliceMs: number;
  /** Products per transaction. */
  batchSize?: number;
}

export interface ImportParams {
  catalogId: string;
  fileId: string;
  format: string | null;
  /** `texts`: a texts-only import (write/texts-only.ts), of existing products only. */
  mode: 'upsert' | 'createOnly' | 'texts';
  dryRun: boolean;
  /** A texts-only import: the languages its starter may write (absent or null: every language). */
  textLanguages?: string[] | null;
  /** Reject a product for any field that does not check (absent in jobs queued before import tolerance). */
  strict?: boolean;
  /** Texts in a language the company has not enabled: `fail` (default) or `skip` them with a warning. */
  languagesNotEnabled?: LanguagesNotEnabled;
  /**
   * The member's category scope when it narrows the catalog (start-import.ts): the job's caller
   * carries no scope, so the job carries what its start was checked for. Absent: not narrowed.
   */
  scopeCategoryIds?: string[];
}

/**
 * Products per transaction (also bounded by MAX_BATCH_BYTES of file text). A batch is a
 * handful of statements whatever its size (rows go as JSON: db/json-rows.ts), so a larger
 * batch mostly saves the per-transaction and per-lookup costs; measured in bench/import.ts.
 */
const DEFAULT_BATCH_SIZE = 500;

export type ImportSliceOutcome = 'finished' | 'continued' | 'stopped';

async function dropStaging(db: Database, jobId: string): Promise<void> {
  await db.batch([
    db.delete(importGroups).where(eq(importGroups.jobId, jobId)),
    db.delete(importRejections).where(eq(importRejections.jobId, jobId)),
    db.delete(importPlacements).where(eq(importPlacements.jobId, jobId)),
    db.delete(importDryProducts).where(eq(importDryProducts.jobId, jobId)),
    db.delete(importWarnings).where(eq(importWarnings.jobId, jobId)),
    db.delete(importSkus).where(eq(importSkus.jobId, jobId)),
  ]);
}

async function finish(run: SliceRun): Promise<ImportSliceOutcome> {
  const { db, job, cp } = run;
  const reasons = await reasonCounts(db, job.id);
  const warned = Object.entries(reasons).reduce((n, [k, v]) => (k.startsWith('warnings.') ? n + v : n), 0);
  // Totals, then each reason's count (`rejected.<code>`, `warnings.<code>`: import-report.ts).
  const summary = { ...cp.counts, deleted: cp.counts.deleted ?? 0, warnings: warned, total: cp.total, ...reasons };
  const fileName = `import-report-${job.id.slice(0, 8)}.csv`;
  const key = `imports/${job.companyId}/${job.id}/${fileName}`;
  const size = await writeReport(db, run.files, job.id, key, summary);
  const [done] = await db
    .update(jobs)
    .set({
      state: 'succeeded',
      progressDone: cp.done,
      progressTotal: cp.total,
      summary,
      checkpoint: null,
      finishedAt: dbNow,
      resultKey: key,
      resultFileName: fileName,
      resultContentType: 'text/csv; charset=utf-8',
      resultSize: size,
      warnings:
        Object.keys(cp.warnings).length > 0
          ? Object.entries(cp.warnings).map(([k, v]) => `${k} (${v.count}×, e.g. ${v.examples.join(', ')})`)
          : null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
    .returning({ id: jobs.id });
  await dropStaging(db, job.id);
  // an import writes the search index in one segment per batch: merge them while the catalog is
  // quiet (bounded; the cron continues where a large import leaves off, docs/search.md "Index upkeep")
  await tidySearchIndex(db);
  if (!done) {
    await run.files.delete(key);
    return 'stopped';
  }
  return 'finished';
}

/**
 * Runs one slice of an import job (docs/import.md): resumes from the checkpoint and works
 * through the phases (validate, groups, products, finish) until the job is done or the slice
 * budget is spent; then the checkpoint already saved with the last batch is where the next
 * queue message continues. A file that is not well-formed fails in the validate phase, before
 * the catalog is touched. Batches commit only while this runner owns the job (guardStatement).
 */
export async function runImportSlice(deps: ImportDeps, job: JobRow): Promise<ImportSliceOutcome> {
  const { db } = deps;
  if (job.state === 'cancelled') {
    await dropStaging(db, job.id);
    return 'stopped';
  }
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  const params = job.params as ImportParams;
  const tenant = jobCaller(job);
  const file = await findImportFile(db, tenant, params.fileId);
  const catalog = await findCatalog(db, tenant, params.catalogId);
  let cp = (job.checkpoint as ImportCheckpoint | null) ?? null;
  if (!cp) {
    const head = await readHead(deps.files, file.storageKey);
    const detected = detectFormat(head);
    if (params.format && params.format !== detected.format)
      throw new ImportFileError(`the file is ${detected.format}, not ${params.format} as requested`);
    if (!(await markRunning(db, job.id, 0))) return 'stopped';
    cp = {
      ...firstCheckpoint(detected.format, detected.encoding),
      language: catalog.language,
      currency: catalog.currency,
      // xChange names each text's language on the text (xchange-languages.ts): no header default.
      headerLanguage: isXChange(detected.format) ? null : headerLanguage(decodeHead(head).text),
      ...(detected.format.startsWith('BMEcat') ? { header: fileHeader(decodeHead(head).text) } : {}),
    };
    const [saved] = await db
      .update(jobs)
      .set({ checkpoint: cp })
      .where(and(eq(jobs.id, job.id), eq(jobs.state, 'running')))
      .returning({ id: jobs.id });
    if (!saved) return 'stopped';
  } else if (!(await markRunning(db, job.id, cp.total))) {
    return 'stopped';
  }

  const run: SliceRun = {
    db,
    files: deps.files,
    job,
    cp,
    key: file.storageKey,
    started: Date.now(),
    sliceMs: deps.sliceMs,
    batchSize: deps.batchSize ?? DEFAULT_BATCH_SIZE,
    scope: {
      db,
      jobId: job.id,
      companyId: job.companyId,
      actor: jobCaller(job),
      catalogId: params.catalogId,
      mode: params.mode === 'texts' ? 'upsert' : params.mode,
      ...(params.mode === 'texts' ? { texts: { languages: params.textLanguages ?? null } } : {}),
      dryRun: params.dryRun,
      strict: params.strict ?? false,
      cache: new ReferenceCache(db, job.companyId),
      files: deps.files,
      catalogLanguage: catalog.language,
      languagesNotEnabled: params.languagesNotEnabled ?? 'fail',
      inheritMasterPrices: cp.header?.ownExport ?? false,
      inheritMasterValues: cp.header?.ownExport ?? false,
      ...(params.scopeCategoryIds ? { scopeCategoryIds: params.scopeCategoryIds } : {}),
    },
  };
  try {
    for (;;) {
      let outcome: PhaseOutcome = 'next';
      if (run.cp.phase === 'validate') outcome = await validatePhase(run);
      else if (run.cp.phase === 'groups' && run.scope.texts) {
        // a texts-only import creates and changes no category (the products pass names what it leaves out)
        await saveCheckpoint(run, [], { ...run.cp, phase: 'products' });
      } else if (run.cp.phase === 'groups') {
        const inside = await scopeInside(run.scope);
        const groups = await resolveGroups(
          db,
          { companyId: job.companyId, catalogId: params.catalogId, inside },
          job.id,
          params.dryRun,
        );
        const next: ImportCheckpoint = {
          ...run.cp,
          phase: 'products',
          counts: {
            ...run.cp.counts,
            categoriesCreated: groups.categoriesCreated,
            rejected: run.cp.counts.rejected + groups.rejections.length,
          },
        };
        if (groups.orphans > 0)
          next.warnings = {
            ...next.warnings,
            [`${groups.orphans} group(s) whose parent is not in the file were placed at the top level`]: {
              count: groups.orphans,
              examples: [],
            },
          };
        // a scoped member's groups outside: reported with the checkpoint that counts them
        await saveCheckpoint(run, rejectionStatements(db, job.id, groups.rejections), next);
      } else if (run.cp.phase === 'products') outcome = await readProductsPhase(run);
      else return await finish(run);
      if (outcome === 'stopped') return 'stopped';
      if (outcome === 'continued') {
        await deps.queue.send(jobMessage(deps.db, job.id));
        return 'continued';
      }
    }
  } catch (err) {
    if (err instanceof Error && GUARD_FAILED.test(`${err.message} ${String(err.cause ?? '')}`)) return 'stopped';
    throw err;
  }
}

/** Marks an import failed with a message a user can act on and drops its staging rows. */
export async function failImport(deps: Pick<ImportDeps, 'db'>, job: JobRow, message: string): Promise<void> {
  await markFailed(deps.db, job.id, message);
  await dropStaging(deps.db, job.id);
}
