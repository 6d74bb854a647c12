import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { catalogs, importFiles, jobs, users } from '../db/schema';
import { keysetPage } from '../kernel/pagination';
import { notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { getJob, JobOut, ownJobs } from '../jobs/jobs';
import { fileFacts } from './read/file-facts';
import { reasonLabel } from './report/import-report';
import { firstRowsByReason, type ReportRow } from './report/report-rows';
import type { ImportParams } from './run-import';
import { readHead } from './read/text-chunks';

/** The report's head read for the first rows per reason: bounded, whatever the report's size. */
const REPORT_HEAD_BYTES = 256 * 1024;

export const ImportOut = z.object({
  jobId: z.string(),
  state: JobOut.shape.state,
  catalogId: z.string(),
  catalogName: z.string().nullable(),
  fileId: z.string(),
  fileName: z.string().nullable(),
  fileSize: z.number().int().nullable(),
  mode: z.enum(['upsert', 'createOnly', 'texts']),
  dryRun: z.boolean(),
  strict: z.boolean(),
  /** Who started it: the user's name, else the e-mail. */
  startedBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
  summary: z.record(z.string(), z.number().int()).nullable(),
});

const ReportGroup = z.object({
  kind: z.enum(['rejected', 'warning']),
  code: z.string(),
  /** The reason in the report's words (English; the web app shows its own words per code). */
  label: z.string(),
  count: z.number().int(),
  /** The first rows of the group in file order (at most 5). */
  rows: z.array(
    z.object({ position: z.number().int(), sku: z.string().nullable(), location: z.string(), reason: z.string() }),
  ),
});

export const ImportDetailOut = ImportOut.extend({
  job: JobOut,
  /** Format, encoding, version, transaction and languages read from the file's head; null once the file is gone. */
  file: z
    .object({
      format: z.string().nullable(),
      encoding: z.string().nullable(),
      version: z.string().nullable(),
      transaction: z.string().nullable(),
      languages: z.array(z.string()),
      problem: z.string().nullable(),
    })
    .nullable(),
  /** Rejections first, then warnings, each by count: the report's groups. */
  groups: z.array(ReportGroup),
});

const columns = {
  job: jobs,
  catalogName: catalogs.name,
  fileName: importFiles.fileName,
  fileSize: importFiles.size,
  userName: users.name,
  userEmail: users.email,
};

function selectImports(db: Database) {
  return db
    .select(columns)
    .from(jobs)
    .leftJoin(catalogs, eq(catalogs.id, sql`json_extract(${jobs.params}, '$.catalogId')`))
    .leftJoin(importFiles, eq(importFiles.id, sql`json_extract(${jobs.params}, '$.fileId')`))
    .leftJoin(users, eq(users.id, jobs.userId));
}

interface ImportRow {
  job: typeof jobs.$inferSelect;
  catalogName: string | null;
  fileName: string | null;
  fileSize: number | null;
  userName: string | null;
  userEmail: string | null;
}

function importOut(row: ImportRow): z.infer<typeof ImportOut> {
  const params = row.job.params as ImportParams;
  return {
    jobId: row.job.id,
    state: row.job.state,
    catalogId: params.catalogId,
    catalogName: row.catalogName,
    fileId: params.fileId,
    fileName: row.fileName,
    fileSize: row.fileSize,
    mode: params.mode,
    dryRun: params.dryRun,
    strict: params.strict ?? false,
    startedBy: row.userName || row.userEmail || null,
    createdAt: row.job.createdAt,
    finishedAt: row.job.finishedAt,
    error: row.job.error,
    summary: row.job.summary ?? null,
  };
}

/** The company's imports, newest first (keyset over the job id), optionally of one catalog. */
export async function listImports(
  db: Database,
  caller: Caller,
  input: { cursor?: string; limit: number; catalogId?: string },
) {
  const page = await keysetPage(
    input,
    { column: jobs.id, order: 'desc' },
    (q) =>
      selectImports(db)
        .where(
          and(
            eq(jobs.companyId, caller.companyId),
            eq(jobs.kind, 'import'),
            ownJobs(caller),
            input.catalogId ? sql`json_extract(${jobs.params}, '$.catalogId') = ${input.catalogId}` : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.job.id,
  );
  return { items: page.items.map(importOut), nextCursor: page.nextCursor };
}

/**
 * One import for the screen: its job (progress, summary), the facts of its file and the
 * report's groups with their first rows (read from the report file's head, so bounded).
 */
export async function getImport(deps: { db: Database; files: R2Bucket }, caller: Caller, jobId: string) {
  const [row] = await selectImports(deps.db)
    .where(and(eq(jobs.id, jobId), eq(jobs.companyId, caller.companyId), eq(jobs.kind, 'import'), ownJobs(caller)))
    .limit(1);
  if (!row) throw notFound('import');
  const file = await deps.db.query.importFiles.findFirst({
    where: and(
      eq(importFiles.id, (row.job.params as ImportParams).fileId),
      eq(importFiles.companyId, caller.companyId),
    ),
  });
  const facts =
    file?.state === 'complete' ? await readHead(deps.files, file.storageKey).then(fileFacts, () => null) : null;
  const summary = row.job.summary ?? {};
  let firstRows = new Map<string, ReportRow[]>();
  if (row.job.state === 'succeeded' && row.job.resultKey) {
    const report = await deps.files.get(row.job.resultKey, { range: { offset: 0, length: REPORT_HEAD_BYTES } });
    if (report) firstRows = firstRowsByReason(await report.text(), report.size <= REPORT_HEAD_BYTES);
  }
  const groups = Object.entries(summary)
    .filter(([k]) => k.startsWith('rejected.') || k.startsWith('warnings.'))
    .map(([k, count]) => {
      const code = k.slice(k.indexOf('.') + 1);
      const kind = k.startsWith('rejected.') ? ('rejected' as const) : ('warning' as const);
      return {
        kind,
        code,
        label: reasonLabel(code),
        count,
        rows: (firstRows.get(k) ?? []).map(({ position, sku, location, reason }) => ({
          position,
          sku,
          location,
          reason,
        })),
      };
    })
    .sort((a, b) => (a.kind === b.kind ? b.count - a.count : a.kind === 'rejected' ? -1 : 1));
  return { ...importOut(row), job: await getJob(deps.db, caller, jobId), file: facts, groups };
}
