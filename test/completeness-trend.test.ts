import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { db, makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';
import { pruneCompletenessDaily } from '../src/completeness/completeness-trend';

type Setup = Awaited<ReturnType<typeof shopSetup>>;

async function gtinChannel({ admin }: Setup, name = 'Shop') {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
    name,
    languages: ['deu', 'eng'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  return res.json.channelId as string;
}

/** YYYY-MM-DD of `days` ago (UTC). */
const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** A past day's state, written below the API (the triggers date rows with today). */
async function pastDay(
  channelId: string,
  lang: string,
  daysAgo: number,
  scored: number,
  complete: number,
  sum: number,
) {
  await db().run(sql`INSERT INTO completeness_daily (channel_key, lang, day, scored, complete, score_sum)
    SELECT id, ${lang}, ${ago(daysAgo)}, ${scored}, ${complete}, ${sum} FROM channels WHERE channel_id = ${channelId}`);
}

interface Point {
  day: string;
  products: number;
  complete: number;
  averageScore: number;
}

describe('Completeness over the last 30 days', () => {
  it("keeps today's state in the write's transaction and carries a day without writes forward", async () => {
    const setup = await shopSetup();
    const { admin, catalog } = setup;
    const channelId = await gtinChannel(setup);
    await makeProduct(admin.tenant, catalog.catalogId, { gtin: '4006381333931' });
    const lacking = await makeProduct(admin.tenant, catalog.catalogId);

    const today = await get(admin.cookie, `/api/Catalog/GetCompletenessTrend?channel=shop&language=deu`);
    expect(today.status, today.text).toBe(200);
    expect(today.json.to).toBe(ago(0));
    expect(today.json.from).toBe(ago(29));
    expect(today.json.items).toEqual([
      {
        channelId,
        name: 'Shop',
        language: 'deu',
        points: [{ day: ago(0), products: 2, complete: 1, averageScore: 50 }],
      },
    ]);

    // 40 days ago (before the window: the state the window opens with) and 10 days ago
    await pastDay(channelId, 'deu', 40, 1, 0, 0);
    await pastDay(channelId, 'deu', 10, 4, 1, 150);
    const fix = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: lacking.productId,
      field: 'gtin',
      value: '4006381333931',
    });
    expect(fix.status, fix.text).toBe(200);
    const month = await get(admin.cookie, `/api/Catalog/GetCompletenessTrend?channel=${channelId}&language=deu`);
    const points = month.json.items[0].points as Point[];
    expect(points).toHaveLength(30);
    expect(points[0]).toEqual({ day: ago(29), products: 1, complete: 0, averageScore: 0 });
    expect(points[18]).toEqual({ day: ago(11), products: 1, complete: 0, averageScore: 0 });
    expect(points[19]).toEqual({ day: ago(10), products: 4, complete: 1, averageScore: 38 });
    expect(points[28]).toEqual({ day: ago(1), products: 4, complete: 1, averageScore: 38 });
    expect(points[29]).toEqual({ day: ago(0), products: 2, complete: 2, averageScore: 100 });

    // a shorter window opens with the state before it; English has its own series
    const week = await get(admin.cookie, `/api/Catalog/GetCompletenessTrend?days=7`);
    expect(week.status, week.text).toBe(200);
    expect(week.json.items.map((i: { language: string }) => i.language)).toEqual(['deu', 'eng']);
    expect(week.json.items[0].points.map((p: Point) => p.products)).toEqual([4, 4, 4, 4, 4, 4, 2]);
    expect(week.json.items[1].points).toEqual([{ day: ago(0), products: 2, complete: 2, averageScore: 100 }]);

    // a deleted channel's history goes with its scores
    const [key] = await db().all<{ id: number }>(sql`SELECT id FROM channels WHERE channel_id = ${channelId}`);
    const del = await post(admin.cookie, '/api/Catalog/DeleteChannel', { channelId });
    expect((await waitForJob(admin.cookie, del.json.jobId)).state).toBe('succeeded');
    const gone = await db().all<{ n: number }>(
      sql`SELECT count(*) AS n FROM completeness_daily WHERE channel_key = ${key!.id}`,
    );
    expect(gone[0]!.n).toBe(0);
    const after = await get(admin.cookie, '/api/Catalog/GetCompletenessTrend');
    expect(after.json.items).toEqual([]);
  });

  it('prunes the days no window reads, keeping the state the longest window opens with', async () => {
    const setup = await shopSetup();
    const { admin, catalog } = setup;
    const channelId = await gtinChannel(setup);
    await makeProduct(admin.tenant, catalog.catalogId, { gtin: '4006381333931' });
    for (const [daysAgo, scored] of [
      [200, 1],
      [150, 2],
      [100, 3],
      [10, 4],
    ] as const)
      await pastDay(channelId, 'deu', daysAgo, scored, 0, 0);
    await pastDay(channelId, 'eng', 120, 5, 0, 0);
    const days = async (lang: string) =>
      (
        await db().all<{
          day: string;
        }>(sql`SELECT d.day FROM completeness_daily d JOIN channels c ON c.id = d.channel_key
          WHERE c.channel_id = ${channelId} AND d.lang = ${lang} ORDER BY d.day`)
      ).map((r) => r.day);
    const window = async () => {
      const res = await get(admin.cookie, `/api/Catalog/GetCompletenessTrend?channel=${channelId}&days=90`);
      expect(res.status, res.text).toBe(200);
      return res.json.items.map((i: { points: Point[] }) => i.points);
    };
    const before = await window();

    expect(await pruneCompletenessDaily(db())).toBe(2);
    expect(await days('deu')).toEqual([ago(100), ago(10), ago(0)]);
    expect(await days('eng')).toEqual([ago(120), ago(0)]);
    // Every 90-day window reads as before: it opens with the state of 100 (English: 120) days ago.
    expect(await window()).toEqual(before);
    expect(before[0][0]).toEqual({ day: ago(89), products: 3, complete: 0, averageScore: 0 });
    expect(await pruneCompletenessDaily(db())).toBe(0);
  });

  it('refuses a window out of range, an unknown channel and a language the channel does not publish', async () => {
    const setup = await shopSetup();
    await gtinChannel(setup);
    const other = await shopSetup();
    const theirs = await gtinChannel(other, 'Theirs');
    const ask = (q: string) => get(setup.admin.cookie, `/api/Catalog/GetCompletenessTrend?${q}`);
    const long = await ask('days=91');
    expect(long.status).toBe(400);
    expect(long.json.error).toContain('days');
    const foreign = await ask(`channel=${theirs}`);
    expect(foreign.status).toBe(404);
    const fra = await ask('channel=Shop&language=fra');
    expect(fra.status).toBe(400);
    expect(fra.json.error).toContain('language');
  });
});
