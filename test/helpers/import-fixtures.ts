import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { newId } from '../../src/kernel/ids';
import { importFiles, jobs } from '../../src/db/schema';
import { AppError } from '../../src/kernel/app-error';
import {
  failImport,
  runImportSlice,
  type ImportDeps,
  type ImportParams,
  type ImportSliceOutcome,
} from '../../src/imports/run-import';
import { parseCsv } from './csv';
import { db } from './factories';

type Tenant = { companyId: string; departmentId: string; userId: string };

/** Stores `content` as a completed import file of the tenant (what Import/Upload does). */
export async function putImportFile(tenant: Tenant, content: string | Uint8Array, fileName = 'catalog.xml') {
  const id = newId();
  const storageKey = `imports/${tenant.companyId}/files/${id}`;
  const object = await env.FILES.put(storageKey, content);
  await db().insert(importFiles).values({
    id,
    companyId: tenant.companyId,
    userId: tenant.userId,
    fileName,
    contentType: 'application/xml',
    storageKey,
    state: 'complete',
    size: object!.size,
  });
  return id;
}

/** An import job row without a queue message, so only the test drives the runner. */
export async function insertImportJob(
  tenant: Tenant,
  params: Partial<ImportParams> & { catalogId: string; fileId: string },
) {
  const jobId = newId();
  await db()
    .insert(jobs)
    .values({
      id: jobId,
      companyId: tenant.companyId,
      departmentId: tenant.departmentId,
      userId: tenant.userId,
      kind: 'import',
      state: 'queued',
      params: { format: null, mode: 'upsert', dryRun: false, ...params },
    });
  return jobId;
}

export const importJobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;

export function importDeps(overrides: Partial<ImportDeps> = {}): ImportDeps {
  return { db: db(), files: env.FILES, queue: env.EXPORT_HOLD_QUEUE, sliceMs: 60_000, ...overrides };
}

/**
 * Stores `text` as an import file, runs its job to the end (by default a slice per step:
 * `sliceMs` -1, so the checkpoints carry it) and answers the job, which ended without an error.
 */
export async function importTextToEnd(
  tenant: Tenant,
  catalogId: string,
  text: string,
  options: { fileName?: string; batchSize?: number; sliceMs?: number } = {},
) {
  const fileId = await putImportFile(tenant, text, options.fileName ?? 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ sliceMs: options.sliceMs ?? -1, batchSize: options.batchSize }));
  const job = await importJobRow(jobId);
  expect(job.error).toBeNull();
  return { jobId, job };
}

/** Runs slices until the job is finished or stopped; returns every slice's outcome. */
export async function runImportToEnd(jobId: string, deps = importDeps()): Promise<ImportSliceOutcome[]> {
  const outcomes: ImportSliceOutcome[] = [];
  for (let i = 0; i < 500; i++) {
    const job = await importJobRow(jobId);
    let outcome: ImportSliceOutcome;
    try {
      outcome = await runImportSlice(deps, job);
    } catch (err) {
      // As the queue consumer does: a known failure (AppError) fails the job with its message.
      if (!(err instanceof AppError)) throw err;
      await failImport(deps, job, err.message);
      outcome = 'stopped';
    }
    outcomes.push(outcome);
    if (outcome !== 'continued') break;
  }
  return outcomes;
}

/** The report's comment lines: the summary, then one line per reason with its count. */
export async function reportComments(jobId: string): Promise<string[]> {
  const row = await importJobRow(jobId);
  const text = await (await env.FILES.get(row.resultKey!))!.text();
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((line) => line.startsWith('# '));
}

/** The job's report file as rows of cells (header and comment lines dropped). */
export async function reportRows(jobId: string): Promise<string[][]> {
  const row = await importJobRow(jobId);
  const text = await (await env.FILES.get(row.resultKey!))!.text();
  const lines = text.replace(/^\uFEFF/, '').split('\r\n');
  return parseCsv(lines.slice(lines.findIndex((line) => !line.startsWith('# '))).join('\r\n'))
    .slice(1)
    .filter((r) => r.length > 1);
}
