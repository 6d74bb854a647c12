import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { chunkForInsert, runBatch } from '../../src/db/client';
import { newId } from '../../src/kernel/ids';
import { catalogs, jobs, productCategories, products } from '../../src/db/schema';
import { EXPORTERS } from '../../src/exports/registry';
import { type ExportDeps, runExportSlice } from '../../src/exports/run-export';
import { handleJobBatch } from '../../src/runners/queue-consumer';
import { db, makeCatalog, makeCategory } from './factories';

type Tenant = { companyId: string; departmentId: string; userId: string };

/**
 * A catalog of `masters` master products (SKU `M-0000`...), every third with two variants
 * (`M-0000-V1`, `-V2`), all placed in one category; inserted in bulk so tests can afford
 * several keyset pages. Returns the SKUs in the order an export writes them (`expected`).
 */
export async function bulkCatalog(tenant: Tenant, masters: number, options: { descriptionLength?: number } = {}) {
  const description = options.descriptionLength
    ? 'Schutzschalter für Hutschiene, '.repeat(options.descriptionLength / 30 + 1).slice(0, options.descriptionLength)
    : null;
  const catalog = await makeCatalog(tenant, { name: 'Bulk catalog' });
  const category = await makeCategory(tenant, catalog.catalogId, { name: 'Alles' });
  const rows: (typeof products.$inferInsert)[] = [];
  const placements: (typeof productCategories.$inferInsert)[] = [];
  const families: { id: string; skus: string[] }[] = [];
  for (let i = 0; i < masters; i++) {
    const id = newId();
    const sku = `M-${String(i).padStart(4, '0')}`;
    rows.push({
      id,
      companyId: tenant.companyId,
      catalogId: catalog.catalogId,
      sku,
      name: `Master ${i}`,
      description,
      price: `${i}.50`,
      unit: 'C62',
    });
    placements.push({ productId: id, categoryId: category.categoryId });
    const family = { id, skus: [sku] };
    if (i % 3 === 0) {
      for (const v of [1, 2]) {
        rows.push({
          id: newId(),
          companyId: tenant.companyId,
          catalogId: catalog.catalogId,
          parentId: id,
          sku: `${sku}-V${v}`,
          name: `Variant ${v} of ${i}`,
        });
        family.skus.push(`${sku}-V${v}`);
      }
    }
    families.push(family);
  }
  // Keyset order is id order (ids made in the same millisecond are not monotonic), variants by SKU after their master.
  const expected = families.sort((a, b) => (a.id < b.id ? -1 : 1)).flatMap((f) => f.skus);
  await runBatch(db(), [
    ...chunkForInsert(rows, 21).map((chunk) => db().insert(products).values(chunk)),
    ...chunkForInsert(placements, 3).map((chunk) => db().insert(productCategories).values(chunk)),
    db().update(catalogs).set({ productCount: rows.length }).where(eq(catalogs.id, catalog.catalogId)),
  ]);
  return { catalog, category, expected };
}

/** A job row without a queue message, so only the test drives the runner. */
export async function insertExportJob(
  tenant: Tenant,
  params: { catalogId: string; exportType: string; templateId?: string | null; scopeCategoryIds?: string[] },
) {
  const jobId = newId();
  await db()
    .insert(jobs)
    .values({
      id: jobId,
      companyId: tenant.companyId,
      departmentId: tenant.departmentId,
      userId: tenant.userId,
      kind: 'export',
      state: 'queued',
      params: { templateId: null, ...params },
    });
  return jobId;
}

/** Runs an export of the catalog to its end (the test drives every slice); the job must succeed. Its file's text and the job's warnings. */
export async function exportedFile(
  tenant: Tenant,
  catalogId: string,
  exportType: string,
  templateId: string | null = null,
): Promise<{ text: string; warnings: string[] }> {
  const jobId = await insertExportJob(tenant, { catalogId, exportType, templateId });
  for (
    let i = 0;
    i < 50 && (await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return { text: await (await env.FILES.get(row.resultKey!))!.text(), warnings: row.warnings ?? [] };
}

/** The text of exportedFile. */
export async function exportedText(
  tenant: Tenant,
  catalogId: string,
  exportType: string,
  templateId: string | null = null,
): Promise<string> {
  return (await exportedFile(tenant, catalogId, exportType, templateId)).text;
}

export const jobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;
export const listKeys = async (prefix: string) => (await env.FILES.list({ prefix })).objects.map((o) => o.key);

/**
 * Runner dependencies over the real bindings. Continuations go to a queue without consumer,
 * so no background run races the test; `sliceMs: -1` ends every slice after one page.
 */
export function testDeps(overrides: Partial<ExportDeps> = {}): ExportDeps {
  return { db: db(), files: env.FILES, queue: env.EXPORT_HOLD_QUEUE, exporters: EXPORTERS, sliceMs: -1, ...overrides };
}

/**
 * The real R2 bucket, except that one operation throws like a crash mid-slice: the `part`-th
 * multipart part upload or the `put`-th object write (the carry saved before a checkpoint).
 */
export function crashingFiles(failOn: { part?: number; put?: number }): R2Bucket {
  let parts = 0;
  let puts = 0;
  const wrap = (upload: R2MultipartUpload): R2MultipartUpload => ({
    key: upload.key,
    uploadId: upload.uploadId,
    uploadPart: async (n: number, value: Parameters<R2MultipartUpload['uploadPart']>[1]) => {
      if (++parts === failOn.part) throw new Error('simulated crash while uploading a part');
      return upload.uploadPart(n, value);
    },
    abort: () => upload.abort(),
    complete: (uploaded: R2UploadedPart[]) => upload.complete(uploaded),
  });
  return new Proxy(env.FILES, {
    get(target, prop) {
      if (prop === 'resumeMultipartUpload')
        return (key: string, id: string) => wrap(target.resumeMultipartUpload(key, id));
      if (prop === 'createMultipartUpload')
        return async (key: string, options?: R2MultipartOptions) =>
          wrap(await target.createMultipartUpload(key, options));
      if (prop === 'put') {
        return async (...args: Parameters<R2Bucket['put']>) => {
          if (++puts === failOn.put) throw new Error('simulated crash while saving the carry');
          return target.put(...args);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Delivers one queue message for the job to the real consumer, with the given bindings replaced. */
export async function deliver(jobId: string, attempts: number, bindings: Partial<typeof env> = {}) {
  const batch = createMessageBatch<{ jobId: string }>('pim-jobs', [
    { id: `msg-${jobId}-${attempts}`, timestamp: new Date(), attempts, body: { jobId } },
  ]);
  await handleJobBatch(batch, { ...env, JOB_QUEUE: env.EXPORT_HOLD_QUEUE, ...bindings });
  return getQueueResult(batch, createExecutionContext());
}

/** SUPPLIER_PIDs (or 1.2 SUPPLIER_AIDs) of a BMEcat document, in file order. */
export function supplierPids(xml: string): string[] {
  return [...xml.matchAll(/<SUPPLIER_[AP]ID>([^<]*)<\/SUPPLIER_[AP]ID>/g)].map((m) => m[1]!);
}
