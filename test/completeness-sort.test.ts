import { describe, expect, it } from 'vitest';
import { makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

type Setup = Awaited<ReturnType<typeof shopSetup>>;

/** A shop channel of three rules (name, GTIN, description) in German and English. */
async function shop({ admin }: Setup, languages = ['deu', 'eng']) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
    name: 'Shop',
    languages,
    requirements: [
      { kind: 'field', field: 'name' },
      { kind: 'field', field: 'gtin' },
      { kind: 'field', field: 'description' },
    ],
  });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  return res.json.channelId as string;
}

interface Item {
  productId: string;
  sku: string;
  completeness?: { score: number; missing: string[] } | null;
}

/** Every page of a GetProducts query, following nextCursor with `limit`. */
async function allPages(cookie: string, query: string, limit: number) {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const res = await get(
      cookie,
      `/api/Catalog/GetProducts?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.json.items);
    cursor = res.json.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}

describe('GetProducts sorted by completeness', () => {
  it('lists worst first along the score, pages with a keyset cursor and carries the badge', async () => {
    const setup = await shopSetup();
    const { admin, catalog } = setup;
    const channelId = await shop(setup);
    // scores in German (every product has a name): 33, with a GTIN 66, with a description too 100
    const named = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'S-NAMED' });
    const withGtin = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'S-GTIN', gtin: '4006381333931' });
    const full = await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'S-FULL',
      gtin: '4006381333931',
      description: 'complete',
    });
    const named2 = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'S-NAMED-2' });
    const base = `catalogId=${catalog.catalogId}&sort=completeness&completenessChannel=${channelId}&channelLanguage=deu`;

    const asc = await allPages(admin.cookie, base, 1);
    expect(asc.map((p) => p.completeness?.score)).toEqual([33, 33, 66, 100]);
    expect(
      asc
        .slice(0, 2)
        .map((p) => p.sku)
        .sort(),
    ).toEqual(['S-NAMED', 'S-NAMED-2']);
    expect(asc.slice(2).map((p) => p.productId)).toEqual([withGtin.productId, full.productId]);
    expect(asc[0]!.completeness!.missing.sort()).toEqual(['description', 'gtin']);
    expect(asc[3]!.completeness).toEqual({ score: 100, missing: [] });

    const desc = await allPages(admin.cookie, `${base}&order=desc`, 3);
    expect(desc.map((p) => p.productId)).toEqual(asc.map((p) => p.productId).reverse());

    // the filter and the sort together (a filter naming few products is read and sorted in memory)
    const incomplete = await allPages(admin.cookie, `${base}&incompleteFor=${channelId}`, 2);
    expect(incomplete.map((p) => p.completeness?.score)).toEqual([33, 33, 66]);
    // a fix moves the product at once (the trigger rescored it in the write's transaction)
    const fix = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: named2.productId,
      field: 'description',
      value: 'now described',
    });
    expect(fix.status, fix.text).toBe(200);
    const after = await allPages(admin.cookie, base, 10);
    expect(after.map((p) => p.sku)).toEqual(['S-NAMED', 'S-GTIN', 'S-NAMED-2', 'S-FULL']);
    expect(after.map((p) => p.completeness?.score)).toEqual([33, 66, 66, 100]);
    expect(named.productId).not.toBe(named2.productId);
  });

  it('scores English separately and lists products without a score row last', async () => {
    const setup = await shopSetup();
    const { admin, catalog } = setup;
    const channelId = await shop(setup, ['deu']);
    const a = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'U-A', gtin: '4006381333931' });
    const b = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'U-B' });
    const base = `catalogId=${catalog.catalogId}&sort=completeness&completenessChannel=${channelId}`;
    // default language: the channel's first (deu)
    const byDefault = await allPages(admin.cookie, base, 1);
    expect(byDefault.map((p) => p.productId)).toEqual([b.productId, a.productId]);

    // a channel publishing only German: English is refused, naming the parameter
    const eng = await get(admin.cookie, `/api/Catalog/GetProducts?${base}&channelLanguage=eng`);
    expect(eng.status).toBe(400);
    expect(eng.json.error).toContain('channelLanguage');

    // products the channel has not scored yet (a new channel before its job) come last, both ways
    const update = await post(admin.cookie, '/api/Catalog/UpdateChannel', {
      channelId,
      name: 'Shop',
      languages: ['deu', 'eng'],
      requirements: [{ kind: 'field', field: 'gtin', languages: ['deu'] }],
    });
    expect(update.status, update.text).toBe(200);
    expect((await waitForJob(admin.cookie, update.json.jobId)).state).toBe('succeeded');
    const english = await allPages(admin.cookie, `${base}&channelLanguage=eng`, 1);
    expect(english.map((p) => p.completeness)).toEqual([null, null]);
    expect(english.map((p) => p.productId).sort()).toEqual([a.productId, b.productId].sort());
  });

  it('refuses a sort without channel, a channel of another company and a cursor of another channel', async () => {
    const setup = await shopSetup();
    const other = await shopSetup();
    const { admin, catalog } = setup;
    const channelId = await shop(setup);
    const foreign = await shop(other);
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'R-1' });
    await makeProduct(admin.tenant, catalog.catalogId, { sku: 'R-2' });
    const list = (q: string) => get(admin.cookie, `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&${q}`);

    const none = await list('sort=completeness');
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('completenessChannel');
    const theirs = await list(`sort=completeness&completenessChannel=${foreign}`);
    expect(theirs.status).toBe(400);
    expect(theirs.json.error).toContain('completenessChannel');

    const first = await list(`sort=completeness&completenessChannel=${channelId}&channelLanguage=deu&limit=1`);
    expect(first.status, first.text).toBe(200);
    const cursor = encodeURIComponent(first.json.nextCursor);
    const otherLanguage = await list(
      `sort=completeness&completenessChannel=${channelId}&channelLanguage=eng&limit=1&cursor=${cursor}`,
    );
    expect(otherLanguage.status).toBe(400);
    expect(otherLanguage.json.error).toContain('another channel or language');
    const bySku = await list(`sort=sku&limit=1&cursor=${cursor}`);
    expect(bySku.status).toBe(400);

    // the badge without the sort: every item carries its score in that channel
    const badge = await list(`completenessChannel=${channelId}&channelLanguage=deu`);
    expect(badge.json.items.map((p: Item) => p.completeness?.score)).toEqual([33, 33]);
  });
});
