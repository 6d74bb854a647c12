import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { addChannel, updateChannel } from '../src/completeness/channels';
import { runBatch } from '../src/db/client';
import { withBulkCounts } from '../src/db/score-counts';
import { completenessCountsDefer } from '../src/db/schema';
import { scoreRefresh } from '../src/db/score-refresh';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { post, waitForJob } from './helpers/completeness';

const GTIN = '4006381333931';
const deps = () => ({ db: db(), queue: env.JOB_QUEUE });

/** A company with masters of every kind (complete, lacking one or two things, with variants) and a channel on the GTIN. */
async function setup() {
  const admin = await makeSession({ role: 'admin' });
  const caller = asActor(admin.tenant);
  const catalog = await makeCatalog(admin.tenant, {});
  const master = await makeProduct(admin.tenant, catalog.catalogId, { name: 'Drill', gtin: GTIN });
  await makeProduct(admin.tenant, catalog.catalogId, { parentId: master.productId });
  await makeProduct(admin.tenant, catalog.catalogId, { parentId: master.productId, gtin: '4006381333948' });
  await makeProduct(admin.tenant, catalog.catalogId, { name: 'No GTIN' });
  await makeProduct(admin.tenant, catalog.catalogId, { name: 'Partial', gtin: '4006381333962', description: 'x' });
  await makeProduct(admin.tenant, catalog.catalogId, {
    name: 'Complete',
    gtin: '4006381333955',
    description: 'y',
    manufacturerName: 'ACME',
  });
  const added = await addChannel(deps(), caller, {
    name: 'Shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect((await waitForJob(admin.cookie, added.jobId)).state).toBe('succeeded');
  const [channel] = await db().all<{ id: number }>(sql`SELECT id FROM channels WHERE channel_id = ${added.channelId}`);
  return { admin, caller, catalog, channelId: added.channelId, channelKey: channel!.id };
}

/** The counters of a channel as stored, and as counting its score rows here gives them (zero items left out). */
async function counters(channelKey: number) {
  const stored = await db().all<{ lang: string; item: string; n: number }>(
    sql`SELECT lang, item, n FROM completeness_counts WHERE channel_key = ${channelKey} AND n <> 0 ORDER BY lang, item`,
  );
  const rows = await db().all<{ variant: number; lang: string; score: number; missing: string | null }>(
    sql`SELECT 0 AS variant, lang, score, missing FROM completeness WHERE channel_key = ${channelKey}
      UNION ALL SELECT 1, lang, score, NULL FROM variant_completeness WHERE channel_key = ${channelKey}`,
  );
  const counts = new Map<string, number>();
  const add = (lang: string, item: string, n: number) =>
    counts.set(`${lang}\t${item}`, (counts.get(`${lang}\t${item}`) ?? 0) + n);
  for (const r of rows) {
    const items = r.variant ? ['#variants'] : ['', ...(JSON.parse(r.missing ?? '[]') as string[])];
    for (const item of items) add(r.lang, item, 1);
    if (!r.variant) add(r.lang, '#score', r.score);
    if (r.score === 100) add(r.lang, r.variant ? '#variantsComplete' : '#complete', 1);
  }
  const counted = [...counts]
    .filter(([, n]) => n !== 0)
    .map(([key, n]) => ({ lang: key.split('\t')[0]!, item: key.split('\t')[1]!, n }))
    .sort((a, b) => (a.lang + a.item < b.lang + b.item ? -1 : 1));
  return { stored, counted };
}

const switchedOff = async () =>
  (await db().all<{ n: number }>(sql`SELECT count(*) AS n FROM completeness_counts_defer`))[0]!.n === 0;

describe('Recompute with the counters kept per page (migration 0045)', () => {
  it('leaves the counters and the day row equal to a count of the rescored rows', async () => {
    const { admin, caller, channelId, channelKey } = await setup();
    const changed = await updateChannel(deps(), caller, {
      channelId,
      name: 'Shop',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'field', field: 'description' },
        { kind: 'field', field: 'manufacturerName' },
      ],
    });
    expect((await waitForJob(admin.cookie, changed.jobId)).state).toBe('succeeded');
    const { stored, counted } = await counters(channelKey);
    expect(stored).toEqual(counted);
    // 4 masters: Complete 100, Partial 66 (no manufacturer), Drill 33 (GTIN only), No GTIN 0; 2 variants.
    expect(stored).toEqual([
      { lang: 'deu', item: '', n: 4 },
      { lang: 'deu', item: '#complete', n: 1 },
      { lang: 'deu', item: '#score', n: 100 + 66 + 33 },
      { lang: 'deu', item: '#variants', n: 2 },
      { lang: 'deu', item: 'description', n: 2 },
      { lang: 'deu', item: 'gtin', n: 1 },
      { lang: 'deu', item: 'manufacturerName', n: 3 },
    ]);
    const [day] = await db().all<{ scored: number; complete: number; score_sum: number }>(
      sql`SELECT scored, complete, score_sum FROM completeness_daily WHERE channel_key = ${channelKey} AND day = date('now')`,
    );
    expect(day).toEqual({ scored: 4, complete: 1, score_sum: 199 });
    expect(await switchedOff()).toBe(true);
  });

  it('keeps counting by the triggers for the writes after it', async () => {
    const { caller, catalog, channelKey } = await setup();
    await makeProduct(caller, catalog.catalogId, { name: 'Later', gtin: '4006381333979' });
    const { stored, counted } = await counters(channelKey);
    expect(stored).toEqual(counted);
    expect(stored.find((r) => r.item === '')?.n).toBe(5);
  });

  it('leaves them right when a page runs twice (redelivery) and unchanged when its batch fails', async () => {
    const { caller, channelKey } = await setup();
    const masters = sql`SELECT rowid FROM products WHERE company_id = ${caller.companyId} AND parent_id IS NULL`;
    const variants = sql`SELECT rowid FROM products WHERE company_id = ${caller.companyId} AND parent_id IS NOT NULL`;
    const page = () =>
      withBulkCounts(db(), channelKey, { masters, variants }, [
        ...scoreRefresh(db(), masters, { channelKey }),
        ...scoreRefresh(db(), variants, { channelKey, variants: true }),
      ]);
    // A rule the stored scores do not know yet (no trigger rescores on a rule row), so a page changes them.
    await db().run(sql`INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label)
      VALUES (${caller.companyId}, ${channelKey}, 'deu', 9, 'field', 'description', 'description')`);
    const before = await counters(channelKey);
    expect(before.stored).toEqual(before.counted);
    // The page's batch fails at its end (the switch row inserted twice): nothing of it stays, switch included.
    await expect(
      runBatch(db(), [...page().slice(0, -1), db().insert(completenessCountsDefer).values({ id: 1 })]),
    ).rejects.toThrow();
    expect((await counters(channelKey)).stored).toEqual(before.stored);
    expect(await switchedOff()).toBe(true);
    await runBatch(db(), page());
    const once = await counters(channelKey);
    expect(once.stored).toEqual(once.counted);
    expect(once.stored).not.toEqual(before.stored);
    expect(once.stored.find((r) => r.item === 'description')?.n).toBe(2);
    // Redelivered: the same page again changes no counter.
    await runBatch(db(), page());
    expect((await counters(channelKey)).stored).toEqual(once.stored);
    expect(await switchedOff()).toBe(true);
  });

  it('removes the rows of a deleted channel with the counters switched off, and leaves the switch off', async () => {
    const { admin, channelId, channelKey } = await setup();
    const del = await post(admin.cookie, '/api/Catalog/DeleteChannel', { channelId });
    expect(del.status, del.text).toBe(200);
    expect((await waitForJob(admin.cookie, del.json.jobId)).state).toBe('succeeded');
    const [left] = await db().all<{
      n: number;
    }>(sql`SELECT (SELECT count(*) FROM completeness WHERE channel_key = ${channelKey})
      + (SELECT count(*) FROM variant_completeness WHERE channel_key = ${channelKey})
      + (SELECT count(*) FROM completeness_counts WHERE channel_key = ${channelKey}) AS n`);
    expect(left!.n).toBe(0);
    expect(await switchedOff()).toBe(true);
  });
});
