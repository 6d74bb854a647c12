import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MASS_EDIT_PAGE, runMassEditSlice, type MassEditDeps } from '../src/catalog/mass-edit-runner';
import { historyVersions, jobs, products } from '../src/db/schema';
import type { JobMessage } from '../src/env';
import { cancelJob } from '../src/jobs/jobs';
import { bulkCatalog } from './helpers/export-fixtures';
import { classifyAsMcb, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** Polls the job until it ends, for up to 30 s (a loaded machine runs the queue slowly). */
async function waitForJob(cookie: string, jobId: string) {
  for (const end = Date.now() + 30_000; Date.now() < end; ) {
    const res = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie });
    if (['succeeded', 'failed', 'cancelled'].includes(res.json.state)) return res.json;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not finish`);
}

const row = async (id: string) => (await db().query.products.findFirst({ where: eq(products.id, id) }))!;
const jobRow = async (id: string) => (await db().query.jobs.findFirst({ where: eq(jobs.id, id) }))!;
const companyJobs = async (companyId: string) => db().$count(jobs, eq(jobs.companyId, companyId));

function start(session: Session, body: Record<string, unknown>) {
  return call('POST', '/api/Catalog/StartMassEdit', {
    cookie: session.cookie,
    body: { departmentId: session.departmentId, ...body },
  });
}

/** Runner dependencies whose continuations are only recorded: the test plays every slice itself. */
function slicing() {
  const sent: JobMessage[] = [];
  const deps: MassEditDeps = {
    db: db(),
    queue: { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage>,
    sliceMs: -1,
  };
  return { deps, sent };
}

describe('Catalog/StartMassEdit', () => {
  it('sets a field on the selected products as a job, reports unchanged ones and keeps fingerprints current', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const a = await makeProduct(session, catalog.catalogId, { sku: 'A-1' });
    const b = await makeProduct(session, catalog.catalogId, { sku: 'B-1' });
    const c = await makeProduct(session, catalog.catalogId, { sku: 'C-1', status: 'discontinued' });
    const variant = await makeProduct(session, catalog.catalogId, { sku: 'A-1-V', parentId: a.productId });
    const before = await row(a.productId);
    const untouched = await row(c.productId);

    const res = await start(session, {
      catalogId: catalog.catalogId,
      productIds: [a.productId, b.productId, c.productId, variant.productId],
      field: 'status',
      value: 'discontinued',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['jobId']);
    const job = await waitForJob(session.cookie, res.json.jobId);
    expect(job).toMatchObject({ kind: 'massEdit', state: 'succeeded', progress: { done: 4, total: 4 }, error: null });
    expect(job.result).toEqual({ report: { updated: 3, unchanged: 1, failed: [], failedCount: 0 } });

    for (const id of [a.productId, b.productId, variant.productId]) expect((await row(id)).status).toBe('discontinued');
    const after = await row(a.productId);
    expect(after.revision).toBeGreaterThan(before.revision);
    expect(after.fingerprintRevision).toBe(after.revision);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    // Each changed product has a version by the job, as SetValue would have written it.
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${b.productId}`, { cookie: session.cookie });
    expect(history.json.items[0]).toMatchObject({
      surface: 'job',
      jobId: res.json.jobId,
      changes: [expect.objectContaining({ path: 'status', before: 'active', after: 'discontinued' })],
    });
    // Each version records the product's catalog and master (migration 0088, docs/history.md).
    const places = await db()
      .select({
        elementId: historyVersions.elementId,
        catalogId: historyVersions.catalogId,
        masterId: historyVersions.masterId,
      })
      .from(historyVersions)
      .where(eq(historyVersions.jobId, res.json.jobId));
    expect(places.sort((x, y) => x.elementId.localeCompare(y.elementId))).toEqual(
      [a.productId, b.productId, variant.productId]
        .map((elementId) => ({
          elementId,
          catalogId: catalog.catalogId,
          masterId: elementId === variant.productId ? a.productId : elementId,
        }))
        .sort((x, y) => x.elementId.localeCompare(y.elementId)),
    );
    // The unchanged product keeps its revision: nothing for the sync to send.
    expect((await row(c.productId)).revision).toBe(untouched.revision);
  });

  it('edits everything a filter matches and nothing else', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId);
    const inside = await makeProduct(session, catalog.catalogId, {
      status: 'draft',
      categoryIds: [category.categoryId],
    });
    const outsideDraft = await makeProduct(session, catalog.catalogId, { status: 'draft' });
    const insideActive = await makeProduct(session, catalog.catalogId, {
      status: 'active',
      categoryIds: [category.categoryId],
    });

    const res = await start(session, {
      catalogId: catalog.catalogId,
      filter: { categoryId: category.categoryId, status: 'draft' },
      field: 'price',
      value: '12,5',
    });
    expect(res.status).toBe(200);
    const job = await waitForJob(session.cookie, res.json.jobId);
    expect(job.result.report).toMatchObject({ updated: 1, unchanged: 0, failedCount: 0 });
    expect((await row(inside.productId)).price).toBe('12.5');
    expect((await row(outsideDraft.productId)).price).toBeNull();
    expect((await row(insideActive.productId)).price).toBeNull();
  });

  it("sets a classification feature and lists products without that feature as failed with SetValue's reason", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const mcb = await makeProduct(session, catalog.catalogId, { sku: 'MCB-1' });
    await classifyAsMcb(session, mcb.productId);
    const plain = await makeProduct(session, catalog.catalogId, { sku: 'PLAIN-1' });

    const res = await start(session, {
      catalogId: catalog.catalogId,
      productIds: [mcb.productId, plain.productId],
      field: 'EF000008',
      value: '230 VLT',
    });
    expect(res.status).toBe(200);
    const job = await waitForJob(session.cookie, res.json.jobId);
    expect(job.state).toBe('succeeded');
    expect(job.result.report).toEqual({
      updated: 1,
      unchanged: 0,
      failedCount: 1,
      failed: [{ productId: plain.productId, sku: 'PLAIN-1', error: expect.stringContaining('EF000008') }],
    });
    const detail = await call('GET', `/api/Catalog/GetProduct?productId=${mcb.productId}`, { cookie: session.cookie });
    expect(detail.json.classification.features).toEqual([
      { group: 'ETIM', code: 'EF000008', value: '230', unit: 'VLT' },
    ]);
  });

  it('refuses bad requests before queuing anything, naming the field', async () => {
    const session = await makeSession();
    const other = await makeSession();
    const catalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId);
    const foreignCatalog = await makeCatalog(other);
    const foreignProduct = await makeProduct(other, foreignCatalog.catalogId);
    const base = { catalogId: catalog.catalogId, productIds: [product.productId] };

    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ ...base, field: 'nonsense', value: 'x' }, 400, /^field: "nonsense" is not/],
      [{ ...base, field: 'price', value: 'cheap' }, 400, /^price: "cheap" is not/],
      [{ ...base, field: 'status', value: '' }, 400, /^value: status must not be empty/],
      [{ ...base, field: 'EF000073', value: 'EV999999' }, 400, /EF000073/],
      [{ ...base, field: 'sku', value: 'X' }, 400, /^field: sku must be unique/],
      [
        { catalogId: catalog.catalogId, field: 'status', value: 'active' },
        400,
        /^give exactly one of productIds or filter$/,
      ],
      [{ ...base, filter: {}, field: 'status', value: 'active' }, 400, /^give exactly one of productIds or filter$/],
      [{ ...base, filter: undefined, productIds: ['nope'], field: 'status', value: 'active' }, 400, /^productIds\.0:/],
      [
        { catalogId: catalog.catalogId, filter: { status: 'gone' }, field: 'status', value: 'active' },
        400,
        /^filter\.status:/,
      ],
      [
        { ...base, productIds: [product.productId, foreignProduct.productId], field: 'status', value: 'active' },
        404,
        /^product not found/,
      ],
      [
        {
          catalogId: foreignCatalog.catalogId,
          productIds: [foreignProduct.productId],
          field: 'status',
          value: 'active',
        },
        404,
        /^catalog not found/,
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await start(session, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.json.error).toMatch(message);
    }
    const foreignDepartment = await call('POST', '/api/Catalog/StartMassEdit', {
      cookie: session.cookie,
      body: { departmentId: other.departmentId, ...base, field: 'status', value: 'active' },
    });
    expect(foreignDepartment.status).toBe(403);
    const anonymous = await call('POST', '/api/Catalog/StartMassEdit', {
      body: { departmentId: session.departmentId, ...base, field: 'status', value: 'active' },
    });
    expect(anonymous.status).toBe(401);
    const crossSite = await call('POST', '/api/Catalog/StartMassEdit', {
      cookie: session.cookie,
      headers: { Origin: 'https://evil.example' },
      body: { departmentId: session.departmentId, ...base, field: 'status', value: 'active' },
    });
    expect(crossSite.status).toBe(403);
    expect(await companyJobs(session.companyId)).toBe(0);
    expect((await row(product.productId)).status).toBe('active');
  });

  it('runs in slices from a keyset checkpoint; a stale duplicate delivery changes nothing', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session.tenant, MASS_EDIT_PAGE + 20);
    const res = await call('POST', '/api/Catalog/StartMassEdit', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        filter: {},
        field: 'deliveryTimeDays',
        value: '3',
      },
    });
    expect(res.status).toBe(200);
    const jobId = res.json.jobId;
    // The real queue may already run it; hold it by taking over the row as a fresh queued job.
    await db().update(jobs).set({ state: 'queued', checkpoint: null, progressDone: 0 }).where(eq(jobs.id, jobId));
    await db().update(products).set({ deliveryTimeDays: null }).where(eq(products.catalogId, catalog.catalogId));

    const { deps, sent } = slicing();
    const first = await jobRow(jobId);
    expect(await runMassEditSlice(deps, first)).toBe('continued');
    expect(sent).toEqual([{ jobId, bookmark: expect.any(String) }]);
    const afterFirst = await jobRow(jobId);
    expect(afterFirst).toMatchObject({
      state: 'running',
      progressDone: MASS_EDIT_PAGE,
      progressTotal: MASS_EDIT_PAGE + 20,
    });

    // The first message delivered again, with the row as it was: its checkpoint save is refused.
    expect(
      await runMassEditSlice(deps, {
        ...first,
        state: 'running',
        checkpoint: afterFirst.checkpoint ? { ...(afterFirst.checkpoint as object), seq: 0 } : null,
      }),
    ).toBe('stopped');

    expect(await runMassEditSlice(deps, await jobRow(jobId))).toBe('continued');
    expect(await runMassEditSlice(deps, await jobRow(jobId))).toBe('finished');
    const done = await jobRow(jobId);
    expect(done).toMatchObject({ state: 'succeeded', progressDone: MASS_EDIT_PAGE + 20, checkpoint: null });
    expect(done.report).toEqual({ updated: MASS_EDIT_PAGE + 20, unchanged: 0, failed: [], failedCount: 0 });
    const masters = await db().select().from(products).where(eq(products.catalogId, catalog.catalogId));
    for (const p of masters.filter((m) => m.parentId === null)) {
      expect(p.deliveryTimeDays).toBe(3);
      expect(p.fingerprintRevision).toBe(p.revision);
    }
    // The filter selects master products; variants keep their own value.
    expect(masters.filter((m) => m.parentId !== null).every((v) => v.deliveryTimeDays === null)).toBe(true);
  });

  it('stops between pages when cancelled and keeps the report of what it changed', async () => {
    const session = await makeSession();
    const { catalog } = await bulkCatalog(session.tenant, MASS_EDIT_PAGE + 5);
    const res = await start(session, {
      catalogId: catalog.catalogId,
      filter: {},
      field: 'keywords',
      value: 'Sonderposten',
    });
    const jobId = res.json.jobId;
    await db().update(jobs).set({ state: 'queued', checkpoint: null, progressDone: 0 }).where(eq(jobs.id, jobId));
    await db().update(products).set({ keywords: null }).where(eq(products.catalogId, catalog.catalogId));
    const { deps } = slicing();
    expect(await runMassEditSlice(deps, await jobRow(jobId))).toBe('continued');
    await cancelJob(db(), session, jobId);
    expect(await runMassEditSlice(deps, await jobRow(jobId))).toBe('stopped');
    const job = await call('GET', `/api/Job/GetJob?jobId=${jobId}`, { cookie: session.cookie });
    expect(job.json.state).toBe('cancelled');
    expect(job.json.result).toEqual({ report: { updated: MASS_EDIT_PAGE, unchanged: 0, failed: [], failedCount: 0 } });
  });
});
