import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { moveCategory } from '../src/catalog/categories';
import { jobs } from '../src/db/schema';
import { asActor, db, makeCategory, makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

/** [score, missing labels] in the company's first channel in German, or null when no rule applies. */
async function scoreOf(admin: Admin, productId: string) {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const entry = res.json.channels[0]?.languages.find((l: { language: string }) => l.language === 'deu');
  if (!entry) return null;
  return [entry.score, entry.missing.map((m: { requirement: string }) => m.requirement).sort()] as [number, string[]];
}

/** A channel requiring a name everywhere and a GTIN below `tools`; C (with a product and its variant) sits below B. */
async function setup() {
  const { admin, catalog } = await shopSetup();
  const tools = await makeCategory(admin.tenant, catalog.catalogId, { name: 'A tools' });
  const other = await makeCategory(admin.tenant, catalog.catalogId, { name: 'B other' });
  const moved = await makeCategory(admin.tenant, catalog.catalogId, { name: 'C moved', parentId: other.categoryId });
  const below = await makeCategory(admin.tenant, catalog.catalogId, { name: 'C1', parentId: moved.categoryId });
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
    name: 'Shop',
    languages: ['deu'],
    requirements: [
      { kind: 'field', field: 'name' },
      { kind: 'field', field: 'gtin', categoryId: tools.categoryId },
    ],
  });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  const master = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [moved.categoryId] });
  const deep = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [below.categoryId] });
  const variant = await makeProduct(admin.tenant, catalog.catalogId, { parentId: master.productId });
  const outside = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [other.categoryId] });
  return { admin, catalog, tools, other, moved, products: [master, deep, variant], outside };
}

describe('Moving a category rescores rules limited to a subtree', () => {
  it('in the move itself: below A the GTIN is missing, moved back it is not', async () => {
    const { admin, tools, other, moved, products, outside } = await setup();
    for (const p of products) expect(await scoreOf(admin, p.productId)).toEqual([100, []]);
    const res = await post(admin.cookie, '/api/Catalog/MoveCategory', {
      departmentId: admin.departmentId,
      categoryId: moved.categoryId,
      parentId: tools.categoryId,
    });
    expect(res.status, res.text).toBe(200);
    for (const p of products) expect(await scoreOf(admin, p.productId)).toEqual([50, ['gtin']]);
    expect(await scoreOf(admin, outside.productId)).toEqual([100, []]);
    const overview = await get(admin.cookie, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items[0]).toMatchObject({ products: 3, complete: 1 });
    // Back below B, through UpdateCategory's parentId this time.
    const back = await post(admin.cookie, '/api/Catalog/UpdateCategory', {
      departmentId: admin.departmentId,
      catalogId: moved.catalogId,
      categoryId: moved.categoryId,
      name: 'C moved',
      parentId: other.categoryId,
    });
    expect(back.status, back.text).toBe(200);
    for (const p of products) expect(await scoreOf(admin, p.productId)).toEqual([100, []]);
  });

  it('by a scoped job with progress when the subtree has more masters than the inline bound', async () => {
    const { admin, catalog, tools, other, moved, products, outside } = await setup();
    const caller = asActor(admin.tenant);
    const move = (parentId: string) =>
      moveCategory(
        db(),
        caller,
        { departmentId: admin.departmentId, categoryId: moved.categoryId, parentId },
        {},
        {},
        env.JOB_QUEUE,
        1,
      );
    const lastJob = async () =>
      (await db().select().from(jobs).where(eq(jobs.companyId, admin.companyId)).orderBy(desc(jobs.createdAt)))[0]!;
    const before = (await lastJob()).id;
    await move(tools.categoryId);
    const job = await lastJob();
    expect(job.id).not.toBe(before);
    expect(job.params).toEqual({ scope: { catalogId: catalog.catalogId, categoryId: moved.categoryId } });
    const done = await waitForJob(admin.cookie, job.id);
    expect(done.state).toBe('succeeded');
    expect(done.progress.done).toBe(3);
    for (const p of products) expect(await scoreOf(admin, p.productId)).toEqual([50, ['gtin']]);
    expect(await scoreOf(admin, outside.productId)).toEqual([100, []]);
    await move(other.categoryId);
    expect((await waitForJob(admin.cookie, (await lastJob()).id)).state).toBe('succeeded');
    for (const p of products) expect(await scoreOf(admin, p.productId)).toEqual([100, []]);
  });
});
