import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { historyVersions, media, products } from '../src/db/schema';
import { decodeChanges } from '../src/records/history-record';
import { addMediaLink, updateMediaLink } from '../src/media/media-links';
import { fingerprintsOf } from '../src/records/sync-record';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { countingDb } from './helpers/round-trips';

/**
 * AddLink and UpdateLink as guarded writes (docs/history.md "Concurrency"): one read round
 * trip and one guarded batch holding the master's new revision and fingerprint. Parallel
 * writes of one product keep the history chain unbroken and the fingerprint fresh; parallel
 * adds of one URL to a category end with one link.
 */
const RETRY = {
  error: 'the element was changed by other writes at the same time; read it and send the change again',
  code: 'conflict',
};

async function expectFreshFingerprint(companyId: string, masterId: string) {
  const row = await db().query.products.findFirst({ where: eq(products.id, masterId) });
  const [aggregate] = await loadProductAggregates(db(), companyId, [masterId]);
  const fresh = (await fingerprintsOf(db(), companyId, [aggregate!])).get(masterId);
  expect({ fingerprint: row!.fingerprint, revision: row!.fingerprintRevision }).toEqual({
    fingerprint: fresh,
    revision: row!.revision,
  });
}

async function setup() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant);
  const post = (path: string, body: Record<string, unknown>) =>
    call('POST', `/api/Media/${path}`, { cookie: s.cookie, body: { departmentId: s.departmentId, ...body } });
  return { s, catalog, post };
}

describe('AddLink / UpdateLink under concurrency', () => {
  it('take one read round trip and one write batch, with the fingerprint in it', async () => {
    const { s, catalog } = await setup();
    const product = await makeProduct(s.tenant, catalog.catalogId);
    const counting = countingDb();
    const link = await addMediaLink(counting.db, asActor(s), {
      departmentId: s.departmentId,
      elementId: product.productId,
      url: 'https://cdn.example.com/a.pdf',
      purpose: 'data_sheet',
    });
    expect(counting.trips()).toBe(2);
    expect(link).toMatchObject({ kind: 'link', fileName: 'a.pdf', contentType: 'application/pdf', size: 0 });
    await expectFreshFingerprint(s.companyId, product.productId);
    counting.reset();
    const changed = await updateMediaLink(counting.db, asActor(s), {
      departmentId: s.departmentId,
      mediaId: link.mediaId,
      mimeCode: 'MD02',
    });
    expect(counting.trips()).toBe(2);
    expect(changed).toMatchObject({ mediaId: link.mediaId, mimeCode: 'MD02', purpose: 'data_sheet' });
    await expectFreshFingerprint(s.companyId, product.productId);
  });

  it('parallel updates and adds of one product: every before is the previous after, the fingerprint is fresh', async () => {
    const { s, catalog, post } = await setup();
    const product = await makeProduct(s.tenant, catalog.catalogId);
    const first = await post('AddLink', { elementId: product.productId, url: 'https://cdn.example.com/a.jpg' });
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) =>
        post('UpdateLink', { mediaId: first.json.mediaId, description: `d${i}` }),
      ),
      ...Array.from({ length: 6 }, (_, i) =>
        post('AddLink', { elementId: product.productId, url: `https://cdn.example.com/p${i}.jpg` }),
      ),
    ]);
    for (const a of answers)
      if (a.status !== 200) expect({ status: a.status, body: a.json }).toEqual({ status: 409, body: RETRY });
    const rows = await db()
      .select()
      .from(media)
      .where(eq(media.elementId, product.productId))
      .orderBy(asc(media.sortOrder));
    const added = answers.slice(12).filter((a) => a.status === 200).length;
    expect(rows).toHaveLength(1 + added);
    // Every added link got its own place at the end of the order.
    expect(rows.map((r) => r.sortOrder)).toEqual(rows.map((_, i) => i));

    const versions = await db()
      .select()
      .from(historyVersions)
      .where(eq(historyVersions.elementId, product.productId))
      .orderBy(asc(historyVersions.id));
    const path = `media.${first.json.mediaId}`;
    const chain = versions.flatMap((v) => decodeChanges(v.changes).filter((c) => c.path === path));
    const broken = chain.filter(
      (link, i) => i > 0 && JSON.stringify(link.before) !== JSON.stringify(chain[i - 1]!.after),
    );
    expect(broken).toEqual([]);
    const stored = rows.find((r) => r.id === first.json.mediaId)!;
    expect((chain.at(-1)!.after as { description: string }).description).toBe(stored.description);
    expect(chain.length).toBe(1 + answers.slice(0, 12).filter((a) => a.status === 200).length);
    await expectFreshFingerprint(s.companyId, product.productId);
  });

  it('parallel adds of one URL to a category end with one link; the others are refused as twins', async () => {
    const { s, catalog, post } = await setup();
    const category = await makeCategory(s.tenant, catalog.catalogId, { name: 'Kabel' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post('AddLink', { elementId: category.categoryId, url: 'https://cdn.example.com/k.png' }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200))
      expect([a.status, a.json.error]).toEqual([400, 'url: the element already has a link to this URL']);
    const rows = await db().select().from(media).where(eq(media.elementId, category.categoryId));
    expect(rows).toHaveLength(1);
  });
});
