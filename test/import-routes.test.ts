import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { cancelJob } from '../src/jobs/jobs';
import { runImportSlice } from '../src/imports/run-import';
import { db, makeCatalog, makeCompany, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';
import { deliver } from './helpers/export-fixtures';
import { importDeps, importJobRow, insertImportJob, putImportFile } from './helpers/import-fixtures';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';

async function raw(
  method: 'POST' | 'PUT',
  path: string,
  cookie: string,
  body: string,
  contentType = 'application/xml',
) {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { Cookie: cookie, Origin: ORIGIN, 'Content-Type': contentType },
      body,
    }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

describe('Import REST operations', () => {
  it('uploads a file, imports it through the queue consumer, and serves the job and its report', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const upload = await raw('POST', '/api/Import/Upload?fileName=lieferant.xml', session.cookie, SUPPLIER_2005);
    expect(upload).toMatchObject({
      status: 200,
      json: { fileName: 'lieferant.xml', state: 'complete', size: new TextEncoder().encode(SUPPLIER_2005).length },
    });

    const start = await call('POST', '/api/Import/StartImport', {
      cookie: session.cookie,
      headers: { Origin: ORIGIN },
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, fileId: upload.json.fileId },
    });
    expect(start.status).toBe(200);
    const result = await deliver(start.json.jobId, 1);
    expect(result.explicitAcks).toEqual([`msg-${start.json.jobId}-1`]);

    const job = await call('GET', `/api/Job/GetJob?jobId=${start.json.jobId}`, { cookie: session.cookie });
    expect(job.json).toMatchObject({
      kind: 'import',
      state: 'succeeded',
      progress: { done: 4, total: 4 },
      error: null,
      // The product with a wrong GTIN check digit is kept without its GTIN; the summary counts each reason.
      summary: {
        created: 3,
        updated: 0,
        unchanged: 0,
        rejected: 2,
        deleted: 0,
        warnings: 1,
        placements: 1,
        categoriesCreated: 2,
        total: 4,
        'rejected.sku_missing': 1,
        'rejected.map_group_unknown': 1,
        'warnings.field_invalid': 1,
      },
      result: { contentType: 'text/csv; charset=utf-8' },
    });
    const { historyVersions } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    const recorded = await db().select().from(historyVersions).where(eq(historyVersions.jobId, start.json.jobId));
    // Three products created, one version each: the master's placement from the group map is part of its creation.
    expect(recorded.map((v) => [v.action, v.surface, v.userId === session.userId]).sort()).toEqual([
      ['create', 'job', true],
      ['create', 'job', true],
      ['create', 'job', true],
    ]);
    const master = recorded.find((v) => v.elementKind === 'product')!;
    expect(JSON.parse(master.changes).map(([path]: [string]) => path)).toContain('categories');
    // each records the product's catalog and master (migration 0088, docs/history.md)
    for (const v of recorded)
      expect([v.catalogId, v.masterId]).toEqual([
        catalog.catalogId,
        v.elementKind === 'product' ? v.elementId : master.elementId,
      ]);
    const report = await call('GET', `/api/Import/DownloadReport?jobId=${start.json.jobId}`, {
      cookie: session.cookie,
    });
    expect(report.status).toBe(200);
    expect(report.text).toContain('# rejected sku_missing: 1 (no SKU (SUPPLIER_PID / SUPPLIER_AID): product rejected)');
    expect(report.text).toContain('# warning field_invalid: 1 (field value that does not check: not stored)');
    expect(report.text).toContain(
      'warning,BAD-GTIN,line 65: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_DETAILS/INTERNATIONAL_PID,"gtin: GTIN check digit is wrong: ""4006381333932"" is not stored",field_invalid',
    );

    // Other tenants see neither the file, nor the job, nor the report.
    const other = await makeSession();
    const foreignStart = await call('POST', '/api/Import/StartImport', {
      cookie: other.cookie,
      headers: { Origin: ORIGIN },
      body: {
        departmentId: other.departmentId,
        catalogId: (await makeCatalog(other.tenant)).catalogId,
        fileId: upload.json.fileId,
      },
    });
    expect(foreignStart).toMatchObject({ status: 404, json: { error: 'import file not found' } });
    expect(
      (await call('GET', `/api/Import/DownloadReport?jobId=${start.json.jobId}`, { cookie: other.cookie })).status,
    ).toBe(404);
  });

  it('assembles a multipart upload from parts and refuses parts of another company', async () => {
    const session = await makeSession();
    const created = await call('POST', '/api/Import/CreateUpload', {
      cookie: session.cookie,
      headers: { Origin: ORIGIN },
      body: { fileName: 'gross.xml' },
    });
    expect(created.json).toEqual({ fileId: expect.any(String), partSize: 50 * 1024 * 1024 });
    const part = await raw(
      'PUT',
      `/api/Import/UploadPart?fileId=${created.json.fileId}&part=1`,
      session.cookie,
      SUPPLIER_2005,
    );
    expect(part).toMatchObject({ status: 200, json: { part: 1 } });
    const other = await makeSession();
    expect(
      (await raw('PUT', `/api/Import/UploadPart?fileId=${created.json.fileId}&part=2`, other.cookie, 'x')).status,
    ).toBe(404);
    const catalog = await makeCatalog(session.tenant);
    const early = await call('POST', '/api/Import/StartImport', {
      cookie: session.cookie,
      headers: { Origin: ORIGIN },
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, fileId: created.json.fileId },
    });
    expect(early).toMatchObject({
      status: 409,
      json: { error: 'the upload is not complete yet (Import/CompleteUpload)' },
    });
    const done = await call('POST', '/api/Import/CompleteUpload', {
      cookie: session.cookie,
      headers: { Origin: ORIGIN },
      body: { fileId: created.json.fileId },
    });
    expect(done.json).toMatchObject({ state: 'complete', size: new TextEncoder().encode(SUPPLIER_2005).length });
  });

  it('refuses bad requests with their status and queues nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const fileId = await putImportFile(session.tenant, SUPPLIER_2005);
    const start = (body: Record<string, unknown>) =>
      call('POST', '/api/Import/StartImport', {
        cookie: session.cookie,
        headers: { Origin: ORIGIN },
        body: { departmentId: session.departmentId, catalogId: catalog.catalogId, fileId, ...body },
      });
    expect((await start({ format: 'PDF' })).status).toBe(400);
    expect((await start({ mode: 'replace' })).status).toBe(400);
    expect((await start({ catalogId: (await makeCatalog(await makeCompany())).catalogId })).status).toBe(404);
    expect((await raw('POST', '/api/Import/Upload', session.cookie, 'x')).status).toBe(400);
    expect((await call('POST', '/api/Import/Upload?fileName=a.csv', { rawBody: 'sku\r\nA\r\n' })).status).toBe(401);
  });
});

describe('an import job delivered twice or cancelled', () => {
  it('commits a batch only on the checkpoint it loaded: a stale duplicate delivery stops without writing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const fileId = await putImportFile(session.tenant, SUPPLIER_2005);
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
    const deps = importDeps({ sliceMs: -1, batchSize: 1 });
    // First slice: validate, groups and one product batch, then it continues.
    expect(await runImportSlice(deps, await importJobRow(jobId))).toBe('continued');
    const stale = await importJobRow(jobId);
    expect(await runImportSlice(deps, stale)).toBe('continued');
    const after = await importJobRow(jobId);
    // The same message delivered again with the old checkpoint: its batch's guard fails the whole transaction.
    expect(await runImportSlice(deps, stale)).toBe('stopped');
    expect((await importJobRow(jobId)).checkpoint).toEqual(after.checkpoint);
    expect((after.checkpoint as { counts: { created: number } }).counts.created).toBe(2);
  });

  it('stops a cancelled import and drops its staging', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const fileId = await putImportFile(session.tenant, SUPPLIER_2005);
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
    expect(await runImportSlice(importDeps({ sliceMs: -1, batchSize: 1 }), await importJobRow(jobId))).toBe(
      'continued',
    );
    await cancelJob(db(), session.tenant, jobId);
    expect(await runImportSlice(importDeps(), await importJobRow(jobId))).toBe('stopped');
    const { importGroups } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    expect(await db().select().from(importGroups).where(eq(importGroups.jobId, jobId))).toEqual([]);
  });
});
