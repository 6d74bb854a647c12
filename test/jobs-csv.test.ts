import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import worker from '../src/index';
import { createClassification } from '../src/classification/links';
import { jobs } from '../src/db/schema';
import { newId } from '../src/kernel/ids';
import { attachMedia } from '../src/media/media';
import {
  db,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { csvRecords, decodeCsvFile, parseCsv } from './helpers/csv';
import { call, ORIGIN } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function waitForJob(cookie: string, jobId: string, done = ['succeeded', 'failed', 'cancelled']) {
  for (let i = 0; i < 100; i++) {
    const res = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie });
    if (done.includes(res.json.state)) return res.json;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** A job row without a queue message, so only the test drives the consumer. */
async function insertExportJob(
  tenant: { companyId: string; departmentId: string; userId: string },
  params: Record<string, unknown>,
) {
  const jobId = newId();
  await db().insert(jobs).values({
    id: jobId,
    companyId: tenant.companyId,
    departmentId: tenant.departmentId,
    userId: tenant.userId,
    kind: 'export',
    state: 'queued',
    params,
  });
  return jobId;
}

async function runConsumer(jobId: string, attempts = 1) {
  const batch = createMessageBatch<{ jobId: string }>('pim-jobs', [
    { id: `msg-${jobId}`, timestamp: new Date(), attempts, body: { jobId } },
  ]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

const jobRow = async (jobId: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, jobId) }))!;
const listKeys = async (prefix: string) => (await env.FILES.list({ prefix })).objects.map((o) => o.key);

async function richCatalog(session: Session) {
  const catalog = await makeCatalog(session, { name: 'Elektro Ä/2026' });
  const top = await makeCategory(session, catalog.catalogId, { name: 'Kabel' });
  const sub = await makeCategory(session, catalog.catalogId, { name: 'Mantelleitungen', parentId: top.categoryId });
  const colour = await makeAttribute(session, { code: 'colour', type: 'enum', enumValues: ['grey', 'black'] });
  const voltage = await makeAttribute(session, { code: 'max_voltage', type: 'number', unit: 'V' });
  const master = await makeProduct(session, catalog.catalogId, {
    sku: 'NYM-3x1.5',
    name: 'NYM-J 3×1,5 mm² – "Ü" grade',
    description: 'Line one\r\nLine two, with comma',
    gtin: '4006209123454',
    manufacturerName: 'Kabelwerk Süd',
    unit: 'MTR',
    price: '0.89',
    priceQuantity: 100,
    contentUnit: 'MTR',
    contentPerUnit: '100',
    quantityMin: '2',
    quantityInterval: '0.5',
    deliveryTimeDays: 3,
    categoryIds: [sub.categoryId],
  });
  const variant = await makeProduct(session, catalog.catalogId, {
    parentId: master.productId,
    sku: 'NYM-3x1.5-GR',
    name: 'grau',
  });
  const plain = await makeProduct(session, catalog.catalogId, { sku: 'PLAIN', name: 'Plain' });
  const set = (elementId: string, field: string, value: string) =>
    call('POST', '/api/Catalog/SetValue', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, elementId, field, value },
    });
  await set(master.productId, colour.code, 'black');
  await set(variant.productId, colour.code, 'grey');
  await set(master.productId, voltage.code, '500 V');
  await createClassification(db(), session, {
    elementId: master.productId,
    name: 'Power cable',
    classificationGroups: 1,
    classes: [{ group: 'ETIM', code: 'EC000057' }],
    features: [
      { code: 'EF000008', value: '500' },
      { code: 'EF000139', value: 'true' },
    ],
  });
  await attachMedia({ db: db(), files: env.FILES }, session, {
    departmentId: session.departmentId,
    elementId: master.productId,
    fileName: 'nym.png',
    purpose: 'normal',
    contentType: 'image/png',
    bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]),
  });
  return { catalog, master, variant, plain };
}

describe('StartExport through the Worker', () => {
  it('queues a job, the consumer runs it, and Download returns a correct RFC 4180 UTF-8 CSV', async () => {
    const session = await makeSession();
    const { catalog, master, variant, plain } = await richCatalog(session);
    const start = await call('POST', '/api/Export/StartExport', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, exportType: 'CSV' },
    });
    expect(start.status).toBe(200);
    expect(Object.keys(start.json)).toEqual(['jobId']);
    expect(start.json.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const queued = await call('GET', `/api/Job/GetJob?jobId=${start.json.jobId}`, { cookie: session.cookie });
    expect(queued.json).toMatchObject({
      jobId: start.json.jobId,
      kind: 'export',
      progress: { done: 0, total: 3 },
      error: null,
      result: null,
    });
    expect(['queued', 'running']).toContain(queued.json.state);

    // Only the queue message can have started the job: nothing else runs it.
    const job = await waitForJob(session.cookie, start.json.jobId);
    expect(job).toEqual({
      jobId: start.json.jobId,
      kind: 'export',
      state: 'succeeded',
      progress: { done: 3, total: 3 },
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      error: null,
      result: {
        fileName: `Elektro_A_2026-CSV-${start.json.jobId.slice(0, 8)}.csv`,
        contentType: 'text/csv; charset=utf-8',
        size: expect.any(Number),
      },
      warnings: [],
      summary: null,
    });
    expect(job.startedAt >= job.createdAt && job.finishedAt >= job.startedAt).toBe(true);

    const download = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Export/Download?jobId=${start.json.jobId}`, { headers: { Cookie: session.cookie } }),
    );
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(download.headers.get('Content-Disposition')).toBe(`attachment; filename="${job.result.fileName}"`);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(bytes.byteLength).toBe(job.result.size);
    // UTF-8 with a byte order mark, so spreadsheet programs pick the right encoding.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes).slice(1);
    const [header] = parseCsv(text);
    expect(header).toEqual([
      'productId',
      'parentId',
      'parentSku',
      'sku',
      'name',
      'description',
      'gtin',
      'manufacturerName',
      'manufacturerPid',
      'unit',
      'price',
      'currency',
      'priceQuantity',
      'contentUnit',
      'contentPerUnit',
      'quantityMin',
      'quantityInterval',
      'keywords',
      'deliveryTimeDays',
      'status',
      'categories',
      'classes',
      'features',
      'media',
      'prices',
      'references',
      'featureBlocks',
      'categoryMedia',
      'colour',
      'max_voltage',
    ]);
    const rows = csvRecords(text);
    expect(rows).toEqual([
      {
        productId: master.productId,
        parentId: '',
        parentSku: '',
        sku: 'NYM-3x1.5',
        name: 'NYM-J 3×1,5 mm² – "Ü" grade',
        description: 'Line one\r\nLine two, with comma',
        gtin: '4006209123454',
        manufacturerName: 'Kabelwerk Süd',
        manufacturerPid: '',
        unit: 'MTR',
        price: '0.89',
        currency: 'EUR',
        priceQuantity: '100',
        contentUnit: 'MTR',
        contentPerUnit: '100',
        quantityMin: '2',
        quantityInterval: '0.5',
        keywords: '',
        deliveryTimeDays: '3',
        status: 'active',
        categories: 'Kabel > Mantelleitungen',
        classes: 'ETIM-9.0:EC000057',
        features: 'EF000008=500 VLT|EF000139=true',
        media: 'nym.png',
        prices: '',
        references: '',
        featureBlocks: '',
        categoryMedia: '',
        colour: 'black',
        max_voltage: '500',
      },
      {
        productId: variant.productId,
        parentId: master.productId,
        parentSku: 'NYM-3x1.5',
        sku: 'NYM-3x1.5-GR',
        name: 'grau',
        description: '',
        gtin: '',
        manufacturerName: '',
        manufacturerPid: '',
        unit: '',
        price: '',
        currency: '',
        priceQuantity: '',
        contentUnit: '',
        contentPerUnit: '',
        quantityMin: '',
        quantityInterval: '',
        keywords: '',
        deliveryTimeDays: '',
        status: 'active',
        categories: 'Kabel > Mantelleitungen',
        classes: '',
        features: '',
        media: '',
        prices: '',
        references: '',
        featureBlocks: '',
        categoryMedia: '',
        colour: 'grey',
        max_voltage: '',
      },
      expect.objectContaining({
        productId: plain.productId,
        sku: 'PLAIN',
        name: 'Plain',
        parentId: '',
        categories: '',
        colour: '',
      }),
    ]);
    // The quoting itself, byte for byte.
    expect(text).toContain('"NYM-J 3×1,5 mm² – ""Ü"" grade","Line one\r\nLine two, with comma"');
  });

  it('answers 409 for Download before the job has succeeded and 404 for a job of another company', async () => {
    const session = await makeSession();
    const jobId = await insertExportJob(session.tenant, {
      catalogId: (await makeCatalog(session)).catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    const early = await call('GET', `/api/Export/Download?jobId=${jobId}`, { cookie: session.cookie });
    expect(early.status).toBe(409);
    expect(early.json.error).toBe('export is queued; no file to download yet');
    const other = await makeSession();
    for (const path of [`/api/Export/Download?jobId=${jobId}`, `/api/Job/GetJob?jobId=${jobId}`]) {
      const res = await call('GET', path, { cookie: other.cookie });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe('job not found');
    }
  });

  it('refuses bad StartExport requests with their status and queues nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const theirs = await makeCompany();
    const foreign = await makeCatalog(theirs);
    const cases: [Record<string, unknown> | undefined, string | undefined, number, string | RegExp][] = [
      [{ departmentId: session.departmentId, catalogId: catalog.catalogId }, undefined, 401, 'not logged in'],
      [
        { departmentId: session.departmentId, catalogId: foreign.catalogId, exportType: 'CSV' },
        session.cookie,
        404,
        'catalog not found',
      ],
      [
        { departmentId: theirs.departmentId, catalogId: foreign.catalogId, exportType: 'CSV' },
        session.cookie,
        403,
        'departmentId does not name a department of your company',
      ],
      [
        { departmentId: session.departmentId, catalogId: catalog.catalogId, exportType: 'PDF' },
        session.cookie,
        400,
        /^exportType: "PDF" is not supported; use one of .*CSV/,
      ],
      [{ departmentId: session.departmentId }, session.cookie, 400, 'catalogId is required'],
      [
        { departmentId: session.departmentId, catalogId: catalog.catalogId, templateId: newId(), exportType: 'CSV' },
        session.cookie,
        404,
        'export template not found',
      ],
      [
        { departmentId: session.departmentId, catalogId: catalog.catalogId, exportType: 7 },
        session.cookie,
        400,
        'exportType: Invalid input: expected string, received number',
      ],
    ];
    for (const [body, cookie, status, error] of cases) {
      const res = await call('POST', '/api/Export/StartExport', { cookie, body });
      expect(res.status).toBe(status);
      if (typeof error === 'string') expect(res.json.error).toBe(error);
      else expect(res.json.error).toMatch(error);
    }
    const list = await call('GET', '/api/Job/GetJobs', { cookie: session.cookie });
    expect(list.json).toEqual({ items: [], nextCursor: null });
    expect(await db().$count(jobs, eq(jobs.companyId, theirs.companyId))).toBe(0);
  });
});

describe('the queue consumer', () => {
  it('runs a job from a message batch, acknowledges it and stores the file', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId, { sku: 'A-1' });
    const jobId = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    const result = await runConsumer(jobId);
    expect(result.explicitAcks).toEqual([`msg-${jobId}`]);
    expect(result.retryMessages).toEqual([]);
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.json).toMatchObject({ state: 'succeeded', progress: { done: 1, total: 1 }, error: null });
    const row = await jobRow(jobId);
    expect(row.checkpoint).toBeNull();
    const object = await env.FILES.get(row.resultKey!);
    expect(csvRecords(decodeCsvFile(await object!.arrayBuffer())).map((r) => [r.productId, r.sku])).toEqual([
      [product.productId, product.sku],
    ]);
    expect(await listKeys(`tmp/${jobId}/`)).toEqual([]);
  });

  it('fails a job whose catalog was deleted, with a message and no file', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const jobId = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    await call('POST', '/api/Catalog/DeleteCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId },
    });
    const result = await runConsumer(jobId);
    expect(result.explicitAcks).toEqual([`msg-${jobId}`]);
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.json).toMatchObject({
      state: 'failed',
      error: 'catalog not found',
      result: null,
      finishedAt: expect.any(String),
    });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    const download = await call('GET', `/api/Export/Download?jobId=${jobId}`, { cookie: session.cookie });
    expect(download.status).toBe(409);
    expect(download.json.error).toBe('export is failed; no file to download yet');
  });

  it('fails a job of an export type that is not available', async () => {
    const session = await makeSession();
    const jobId = await insertExportJob(session.tenant, {
      catalogId: (await makeCatalog(session)).catalogId,
      exportType: 'Nope',
      templateId: null,
    });
    await runConsumer(jobId);
    expect(await jobRow(jobId)).toMatchObject({
      state: 'failed',
      error: 'export type Nope is not available',
      resultKey: null,
    });
  });

  it('retries an unexpected failure, then fails the job after 3 attempts without internals', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId);
    const jobId = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    // A checkpoint naming an upload R2 does not know: every part upload fails inside R2.
    const checkpoint = {
      seq: 0,
      key: `exports/${session.companyId}/${jobId}/x.csv`,
      fileName: 'x.csv',
      uploadId: 'no-such-upload',
      parts: [],
      carryKey: null,
      phase: 0,
      cursor: null,
      done: 0,
      plan: { attributeCodes: [], categoryPaths: {} },
      total: 1,
      warnings: {},
    };
    await db().update(jobs).set({ state: 'running', checkpoint }).where(eq(jobs.id, jobId));
    const first = await runConsumer(jobId, 1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([expect.objectContaining({ msgId: `msg-${jobId}` })]);
    expect((await jobRow(jobId)).state).toBe('running');
    const last = await runConsumer(jobId, 3);
    expect(last.explicitAcks).toEqual([`msg-${jobId}`]);
    const job = await jobRow(jobId);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/^job failed after 3 attempts \(internal error, reference [0-9a-f-]{36}\)$/);
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
  });

  it('acknowledges and ignores a message for a job that does not exist', async () => {
    const result = await runConsumer(newId());
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
  });
});

describe('cancellation', () => {
  it('cancels a queued job; the consumer then writes nothing; a second cancel is 409', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId);
    const jobId = await insertExportJob(session.tenant, {
      catalogId: catalog.catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    const cancel = await call('POST', '/api/Job/CancelJob', { cookie: session.cookie, body: { jobId } });
    expect(cancel.status).toBe(200);
    expect(cancel.json).toMatchObject({ jobId, state: 'cancelled', finishedAt: expect.any(String), result: null });
    await runConsumer(jobId);
    expect(await jobRow(jobId)).toMatchObject({ state: 'cancelled', resultKey: null, startedAt: null });
    expect(await listKeys(`exports/${session.companyId}/${jobId}/`)).toEqual([]);
    const again = await call('POST', '/api/Job/CancelJob', { cookie: session.cookie, body: { jobId } });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe('job is already cancelled');
  });

  it('answers 404 when cancelling a job of another company and leaves it alone', async () => {
    const session = await makeSession();
    const jobId = await insertExportJob(session.tenant, {
      catalogId: (await makeCatalog(session)).catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    const other = await makeSession();
    const res = await call('POST', '/api/Job/CancelJob', { cookie: other.cookie, body: { jobId } });
    expect(res.status).toBe(404);
    expect((await jobRow(jobId)).state).toBe('queued');
  });
});

describe('GetJobs', () => {
  it("lists the company's jobs newest first with a cursor", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        await insertExportJob(session.tenant, { catalogId: catalog.catalogId, exportType: 'CSV', templateId: null }),
      );
    await insertExportJob((await makeSession()).tenant, {
      catalogId: catalog.catalogId,
      exportType: 'CSV',
      templateId: null,
    });
    const first = await call('GET', '/api/Job/GetJobs?limit=2', { cookie: session.cookie });
    expect(first.json.items.map((j: { jobId: string }) => j.jobId)).toEqual([ids[2], ids[1]]);
    const second = await call('GET', `/api/Job/GetJobs?limit=2&cursor=${first.json.nextCursor}`, {
      cookie: session.cookie,
    });
    expect(second.json).toEqual({
      items: [expect.objectContaining({ jobId: ids[0], state: 'queued' })],
      nextCursor: null,
    });
  });
});
