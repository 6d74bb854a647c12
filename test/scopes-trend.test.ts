import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { pruneScopeSetDaily } from '../src/completeness/completeness-trend';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { scopedMember, scopeSetKept } from './helpers/members';
import { waitForJob } from './helpers/completeness';

/**
 * The trend of a category-scoped member day by day (docs/teams.md "The trend of a scoped
 * member", migration 0090): their scope set's daily rows, kept by triggers on the set's counters
 * in each write's transaction, read like the company's (a day without a row reads as the day
 * before it) from the day the set was first counted. The triggers date rows with today: a past
 * day is made by moving a set's rows back, as test/completeness-trend.test.ts does the company's.
 */
interface Point {
  day: string;
  products: number;
  complete: number;
  averageScore: number;
}

/** YYYY-MM-DD of `days` ago (UTC). */
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const GTIN = ['4006381333931', '4006381333948', '4006381333955', '4006381333962', '4006381333979'];

/**
 * A company with two brands (two scope sets), a product outside both and a channel on the GTIN:
 * brand A holds A-1 (GTIN) and A-2 (none, in the subcategory), brand B holds B-1 (GTIN).
 */
async function setup() {
  const admin = await makeSession({ role: 'admin' });
  const company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  const catalogId = (await makeCatalog(t, { name: 'Main' })).catalogId;
  const brandA = (await makeCategory(t, catalogId, { name: 'Brand A' })).categoryId;
  const lines = (await makeCategory(t, catalogId, { name: 'A lines', parentId: brandA })).categoryId;
  const brandB = (await makeCategory(t, catalogId, { name: 'Brand B' })).categoryId;
  await makeProduct(t, catalogId, { sku: 'A-1', name: 'A one', categoryIds: [brandA], gtin: GTIN[0] });
  const a2 = (await makeProduct(t, catalogId, { sku: 'A-2', name: 'A two', categoryIds: [lines] })).productId;
  await makeProduct(t, catalogId, { sku: 'B-1', name: 'B one', categoryIds: [brandB], gtin: GTIN[1] });
  await makeProduct(t, catalogId, { sku: 'OUT', name: 'Outside' });
  const added = await post(admin.cookie, 'Catalog/AddChannel', {
    name: 'Gtin shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect(added.status, added.text).toBe(200);
  expect((await waitForJob(admin.cookie, added.json.jobId)).state).toBe('succeeded');
  const channelId = added.json.channelId as string;
  const memberA = await scopedMember(admin.cookie, company, 'editor', { categoryIds: [brandA] });
  const memberB = await scopedMember(admin.cookie, company, 'editor', { categoryIds: [brandB] });
  const trend = async (cookie: string, days = 7) => {
    const res = await get(cookie, `Catalog/GetCompletenessTrend?channel=${channelId}&days=${days}`);
    expect(res.status, res.text).toBe(200);
    return res.json.items[0].points as Point[];
  };
  // the first count of each set (made after SetMemberRole's answer, or here by the read)
  await trend(memberA.cookie);
  await trend(memberB.cookie);
  expect(await scopeSetKept(admin.companyId, [brandA])).toBe(true);
  expect(await scopeSetKept(admin.companyId, [brandB])).toBe(true);
  const setOf = async (root: string) =>
    (
      await db().all<{ id: number }>(
        sql`SELECT id FROM scope_sets WHERE company_id = ${admin.companyId} AND key = ${root}`,
      )
    )[0]!.id;
  return {
    admin,
    catalogId,
    brandA,
    a2,
    channelId,
    memberA,
    memberB,
    trend,
    setA: await setOf(brandA),
    setB: await setOf(brandB),
  };
}

/** The set's rows dated `from` (today, the triggers' day) moved to `to`. */
const moveDay = (setId: number, from: string, to: string) =>
  db().run(sql`UPDATE scope_set_completeness_daily SET day = ${to} WHERE set_id = ${setId} AND day = ${from}`);

const setDays = async (setId: number) =>
  db().all<{ day: string; scored: number; complete: number; score_sum: number }>(
    sql`SELECT day, scored, complete, score_sum FROM scope_set_completeness_daily WHERE set_id = ${setId} ORDER BY day`,
  );

describe("a category-scoped member's trend", () => {
  it('shows their products day by day from the set’s first day, a write’s day, and carries quiet days forward', async () => {
    const s = await setup();
    // the set was first counted 5 days ago: A-1 complete, A-2 not
    await moveDay(s.setA, ago(0), ago(5));
    // 2 days ago A-2 got its GTIN
    const fix = await post(s.admin.cookie, 'Catalog/SetValue', {
      departmentId: s.admin.departmentId,
      elementId: s.a2,
      field: 'gtin',
      value: GTIN[2],
    });
    expect(fix.status, fix.text).toBe(200);
    await moveDay(s.setA, ago(0), ago(2));
    // today a third product of theirs, without a GTIN, and one outside their scope
    await makeProduct(s.admin.tenant, s.catalogId, { sku: 'A-3', name: 'A three', categoryIds: [s.brandA] });
    await makeProduct(s.admin.tenant, s.catalogId, { sku: 'OUT-2', name: 'Outside two', gtin: GTIN[3] });

    expect(await s.trend(s.memberA.cookie)).toEqual([
      { day: ago(5), products: 2, complete: 1, averageScore: 50 },
      { day: ago(4), products: 2, complete: 1, averageScore: 50 },
      { day: ago(3), products: 2, complete: 1, averageScore: 50 },
      { day: ago(2), products: 2, complete: 2, averageScore: 100 },
      { day: ago(1), products: 2, complete: 2, averageScore: 100 },
      { day: ago(0), products: 3, complete: 2, averageScore: 67 },
    ]);
    // a shorter window opens with the state before it
    expect((await s.trend(s.memberA.cookie, 3)).map((p) => p.complete)).toEqual([2, 2, 2]);
    // today's point is the overview's count of their products
    const overview = (await get(s.memberA.cookie, 'Catalog/GetCompletenessOverview')).json.items.find(
      (i: { channelId: string }) => i.channelId === s.channelId,
    );
    expect(overview).toMatchObject({ products: 3, complete: 2, averageScore: 67 });

    // the admin's trend is the company's, unchanged: its rows are all of today
    expect(await s.trend(s.admin.cookie)).toEqual([{ day: ago(0), products: 6, complete: 4, averageScore: 67 }]);
    // the member of the other brand sees their set's series: B-1 alone, since today
    expect(await s.trend(s.memberB.cookie)).toEqual([{ day: ago(0), products: 1, complete: 1, averageScore: 100 }]);
  });

  it("keeps the set's day row through the recompute job's bulk pages", async () => {
    const s = await setup();
    await moveDay(s.setA, ago(0), ago(3));
    const changed = await post(s.admin.cookie, 'Catalog/UpdateChannel', {
      channelId: s.channelId,
      name: 'Gtin shop',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'field', field: 'description' },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await waitForJob(s.admin.cookie, changed.json.jobId)).state).toBe('succeeded');
    // A-1 has its GTIN only (50), A-2 nothing (0): the rescore's day row is today's, theirs only
    expect(await setDays(s.setA)).toEqual([
      { day: ago(3), scored: 2, complete: 1, score_sum: 100 },
      { day: ago(0), scored: 2, complete: 0, score_sum: 50 },
    ]);
    expect((await s.trend(s.memberA.cookie, 4)).map((p) => [p.day, p.complete, p.averageScore])).toEqual([
      [ago(3), 1, 50],
      [ago(2), 1, 50],
      [ago(1), 1, 50],
      [ago(0), 0, 25],
    ]);
    expect(await s.trend(s.memberB.cookie, 1)).toEqual([{ day: ago(0), products: 1, complete: 0, averageScore: 50 }]);
  });

  it('writes today’s row when a set is counted again, and drops its rows with the set', async () => {
    const s = await setup();
    await moveDay(s.setA, ago(0), ago(4));
    await db().run(sql`UPDATE scope_sets SET stale = 1 WHERE id = ${s.setA}`);
    expect(await setDays(s.setA)).toEqual([
      { day: ago(4), scored: 2, complete: 1, score_sum: 100 },
      { day: ago(0), scored: 2, complete: 1, score_sum: 100 },
    ]);
    // a set no member names any more goes with its rows (its counters' deletes write none)
    await db().run(sql`DELETE FROM scope_sets WHERE id = ${s.setB}`);
    expect(await setDays(s.setB)).toEqual([]);
    // the member's next read makes a new set, whose series starts today
    expect(await s.trend(s.memberB.cookie)).toEqual([{ day: ago(0), products: 1, complete: 1, averageScore: 100 }]);
  });

  it("deletes a deleted channel's rows of every set", async () => {
    const s = await setup();
    const del = await post(s.admin.cookie, 'Catalog/DeleteChannel', { channelId: s.channelId });
    expect(del.status, del.text).toBe(200);
    expect((await waitForJob(s.admin.cookie, del.json.jobId)).state).toBe('succeeded');
    expect(await setDays(s.setA)).toEqual([]);
    expect(await setDays(s.setB)).toEqual([]);
  });

  it('prunes the days no window reads, keeping the state the longest window opens with', async () => {
    const s = await setup();
    for (const [daysAgo, scored] of [
      [200, 1],
      [150, 2],
      [100, 3],
      [10, 4],
    ] as const)
      await db().run(sql`INSERT INTO scope_set_completeness_daily (set_id, channel_key, lang, day, scored, complete, score_sum)
        SELECT ${s.setA}, id, 'deu', ${ago(daysAgo)}, ${scored}, 0, 0 FROM channels WHERE channel_id = ${s.channelId}`);
    const before = await s.trend(s.memberA.cookie, 90);
    expect(before[0]).toEqual({ day: ago(89), products: 3, complete: 0, averageScore: 0 });

    expect(await pruneScopeSetDaily(db())).toBeGreaterThanOrEqual(2);
    expect((await setDays(s.setA)).map((r) => r.day)).toEqual([ago(100), ago(10), ago(0)]);
    expect(await s.trend(s.memberA.cookie, 90)).toEqual(before);
    expect(await pruneScopeSetDaily(db())).toBe(0);
  });
});

describe("a catalog-scoped member's trend", () => {
  // their past days are counted once a day (migration 0094): test/scopes-trend-catalog.test.ts
  it("starts with today's point of their catalog only, on the day their scope is first counted", async () => {
    const s = await setup();
    const other = await makeCatalog(s.admin.tenant, { name: 'Other' });
    await makeProduct(s.admin.tenant, other.catalogId, { sku: 'O-1', name: 'Other one', gtin: GTIN[4] });
    const member = await scopedMember(
      s.admin.cookie,
      { companyId: s.admin.companyId, departmentId: s.admin.departmentId },
      'viewer',
      { catalogIds: [other.catalogId] },
    );
    await db().run(sql`UPDATE completeness_daily SET day = ${ago(3)}
      WHERE channel_key = (SELECT id FROM channels WHERE channel_id = ${s.channelId}) AND day = ${ago(0)}`);
    await makeProduct(s.admin.tenant, s.catalogId, { sku: 'LATE', name: 'Late' });
    expect((await s.trend(s.admin.cookie, 4)).map((p) => p.products)).toEqual([5, 5, 5, 6]);
    expect(await s.trend(member.cookie, 4)).toEqual([{ day: ago(0), products: 1, complete: 1, averageScore: 100 }]);
  });
});
