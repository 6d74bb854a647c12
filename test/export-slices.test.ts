import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogs, jobs, products } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import type { JobMessage } from '../src/env';
import { csvExporter } from '../src/exports/csv/csv-exporter';
import { productPage, type Exporter } from '../src/exports/exporter';
import { PART_SIZE } from '../src/exports/part-writer';
import { EXPORTERS } from '../src/exports/registry';
import { failExport, runExportSlice, type ExportDeps } from '../src/exports/run-export';
import { cancelJob } from '../src/jobs/jobs';
import { csvRecords, decodeCsvFile } from './helpers/csv';
import { db, makeCatalog, makeSession } from './helpers/factories';

type Session = Awaited<ReturnType<typeof makeSession>>;

/**
 * Continuations go to this recording queue instead of JOB_QUEUE: the test itself plays the
 * consumer, slice by slice, so no background delivery races it.
 */
function recordingQueue() {
  const sent: JobMessage[] = [];
  const queue = { send: async (message: JobMessage) => void sent.push(message) } as unknown as Queue<JobMessage>;
  return { sent, queue };
}

/** Masters (and variants) written straight into D1: fast, and large enough to span R2 parts. */
async function bulkCatalog(session: Session, masters: number, description: string) {
  const catalog = await makeCatalog(session);
  const ids: string[] = [];
  for (let i = 0; i < masters; i += 20) {
    const statements = [];
    for (let j = i; j < Math.min(i + 20, masters); j++) {
      const id = newId();
      ids.push(id);
      statements.push(
        db()
          .insert(products)
          .values({
            id,
            companyId: session.companyId,
            catalogId: catalog.catalogId,
            sku: `M${String(j).padStart(4, '0')}`,
            name: `Master ${j}`,
            description,
          }),
      );
      if (j % 10 === 0) {
        const variantId = newId();
        ids.push(variantId);
        statements.push(
          db()
            .insert(products)
            .values({
              id: variantId,
              companyId: session.companyId,
              catalogId: catalog.catalogId,
              parentId: id,
              sku: `M${String(j).padStart(4, '0')}-V`,
              name: `Variant ${j}`,
            }),
        );
      }
    }
    await db().batch(statements as [(typeof statements)[0], ...typeof statements]);
  }
  await db().update(catalogs).set({ productCount: ids.length }).where(eq(catalogs.id, catalog.catalogId));
  return { catalog, ids };
}

async function insertJob(session: Session, catalogId: string, exportType = 'CSV') {
  const jobId = newId();
  await db()
    .insert(jobs)
    .values({
      id: jobId,
      companyId: session.companyId,
      departmentId: session.departmentId,
      userId: session.userId,
      kind: 'export',
      state: 'queued',
      params: { catalogId, exportType, templateId: null },
    });
  return jobId;
}

const jobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;
const listKeys = async (prefix: string) => (await env.FILES.list({ prefix })).objects.map((o) => o.key);

async function drive(deps: ExportDeps, jobId: string, sent: JobMessage[], maxSlices = 50) {
  const outcomes = [];
  for (let i = 0; i < maxSlices; i++) {
    const outcome = await runExportSlice(deps, await jobRow(jobId));
    outcomes.push(outcome);
    if (outcome !== 'continued') break;
    expect(sent.at(-1)).toEqual({ jobId, bookmark: expect.any(String) });
  }
  return outcomes;
}

describe('runExportSlice', () => {
  it('continues across slices and R2 parts without losing or duplicating rows, multibyte text intact', async () => {
    const session = await makeSession();
    // 100 masters of ~60 KB (2-byte characters) make more than one 5 MiB part, cut mid-character.
    const description = `Ü${'Leitung ä '.repeat(6000)}`;
    const { catalog, ids } = await bulkCatalog(session, 100, description);
    const jobId = await insertJob(session, catalog.catalogId);
    const { sent, queue } = recordingQueue();
    // A negative budget ends every slice after one page.
    const deps: ExportDeps = { db: db(), files: env.FILES, queue, exporters: EXPORTERS, sliceMs: -1 };
    const outcomes = await drive(deps, jobId, sent);
    // header page, two product pages (90 + 10 masters): three slices, the last finishes.
    expect(outcomes).toEqual(['continued', 'continued', 'finished']);
    expect(sent).toHaveLength(2);

    const job = await jobRow(jobId);
    expect(job).toMatchObject({
      state: 'succeeded',
      progressDone: ids.length,
      progressTotal: ids.length,
      checkpoint: null,
      error: null,
    });
    const object = await env.FILES.get(job.resultKey!);
    expect(object!.size).toBe(job.resultSize);
    expect(object!.size).toBeGreaterThan(PART_SIZE);
    const rows = csvRecords(decodeCsvFile(await object!.arrayBuffer()));
    expect(rows.map((r) => r.productId).sort()).toEqual([...ids].sort());
    expect(new Set(rows.map((r) => r.productId)).size).toBe(ids.length);
    expect(rows.filter((r) => r.parentId === '').every((r) => r.description === description)).toBe(true);
    // Masters in creation order, each variant row directly after its master's row.
    expect(rows.slice(0, 3).map((r) => r.sku)).toEqual(['M0000', 'M0000-V', 'M0001']);
    rows.forEach((r, i) => {
      if (r.parentId) expect(rows[i - 1]!.productId).toBe(r.parentId);
    });
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });

  it('stops a job cancelled between slices, aborting its upload and removing the carry', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session, 100, 'short');
    const jobId = await insertJob(session, catalog.catalogId);
    const { queue } = recordingQueue();
    const deps: ExportDeps = { db: db(), files: env.FILES, queue, exporters: EXPORTERS, sliceMs: -1 };
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
    const checkpoint = (await jobRow(jobId)).checkpoint as { key: string; uploadId: string; carryKey: string };
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([checkpoint.carryKey]);
    await cancelJob(db(), session, jobId);
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('stopped');
    expect(await jobRow(jobId)).toMatchObject({ state: 'cancelled', resultKey: null });
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    await expect(
      env.FILES.resumeMultipartUpload(checkpoint.key, checkpoint.uploadId).uploadPart(1, 'x'),
    ).rejects.toThrow();
  });

  it('marks a job that breaks mid-way failed with a message and leaves no file, part or carry', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session, 100, 'x'.repeat(60_000));
    const jobId = await insertJob(session, catalog.catalogId, 'Broken');
    let pages = 0;
    const broken: Exporter<unknown> = {
      ...csvExporter,
      exportType: 'Broken',
      phases: [
        {
          name: 'products',
          async run(ctx, _plan, cursor) {
            if (++pages > 1) throw new Error('disk on fire');
            const page = await productPage(ctx, cursor);
            return {
              text: page.aggregates.map((a) => `${a.product.id},${a.product.description}\r\n`).join(''),
              nextCursor: page.nextCursor,
              products: page.aggregates.length,
            };
          },
        },
      ],
    };
    const { queue } = recordingQueue();
    const deps: ExportDeps = { db: db(), files: env.FILES, queue, exporters: { Broken: broken }, sliceMs: -1 };
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
    const checkpoint = (await jobRow(jobId)).checkpoint as { key: string; uploadId: string; parts: unknown[] };
    expect(checkpoint.parts.length).toBeGreaterThan(0);
    const job = await jobRow(jobId);
    await expect(runExportSlice(deps, job)).rejects.toThrow('disk on fire');
    await failExport(deps, job, 'export failed: the file could not be written');
    expect(await jobRow(jobId)).toMatchObject({
      state: 'failed',
      error: 'export failed: the file could not be written',
      checkpoint: null,
      resultKey: null,
      finishedAt: expect.any(String),
    });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
    await expect(
      env.FILES.resumeMultipartUpload(checkpoint.key, checkpoint.uploadId).uploadPart(1, 'x'),
    ).rejects.toThrow();
  });

  it('does not run a slice twice from the same checkpoint (a duplicate delivery stops)', async () => {
    const session = await makeSession();
    const { catalog, ids } = await bulkCatalog(session, 100, 'short');
    const jobId = await insertJob(session, catalog.catalogId);
    const { queue } = recordingQueue();
    const deps: ExportDeps = { db: db(), files: env.FILES, queue, exporters: EXPORTERS, sliceMs: -1 };
    expect(await runExportSlice(deps, await jobRow(jobId))).toBe('continued');
    const stale = await jobRow(jobId);
    expect(await runExportSlice(deps, stale)).toBe('continued');
    // A redelivered message carrying the older checkpoint must not save over the newer one.
    expect(await runExportSlice(deps, stale)).toBe('stopped');
    while ((await runExportSlice(deps, await jobRow(jobId))) === 'continued');
    const job = await jobRow(jobId);
    expect(job.state).toBe('succeeded');
    const rows = csvRecords(decodeCsvFile(await (await env.FILES.get(job.resultKey!))!.arrayBuffer()));
    expect(rows.map((r) => r.productId).sort()).toEqual([...ids].sort());
  });
});
