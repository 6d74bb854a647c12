import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { compareBinary } from '../src/kernel/compare-binary';
import { media, products } from '../src/db/schema';
import { refreshFingerprints } from '../src/records/sync-record';
import { db, makeAttribute, makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { expectFingerprintsCurrent } from './helpers/fingerprints';
import { call } from './helpers/http';

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant);
  const ls = await makeCategory(session.tenant, catalog.catalogId, { name: 'LS' });
  const fi = await makeCategory(session.tenant, catalog.catalogId, { name: 'FI' });
  // Codes in an order where insertion order, UTF-16 and byte order would disagree if mixed up.
  const weight = await makeAttribute(session.tenant, { code: `zweight_${ls.categoryId.slice(-6)}`, type: 'number' });
  const colour = await makeAttribute(session.tenant, { code: `Acolour_${ls.categoryId.slice(-6)}`, type: 'text' });
  const upsert = async (items: unknown[]) => {
    const res = await call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, items },
    });
    expect(res.status).toBe(200);
    expect(res.json.counts.error).toBe(0);
    return res.json;
  };
  const check = () => expectFingerprintsCurrent(session.tenant.companyId, catalog.catalogId);
  return { session, catalog, ls, fi, weight, colour, upsert, check };
}

const MCB = {
  classes: [{ group: 'ETIM', code: 'EC000042' }],
  features: [
    { code: 'EF000008', value: '230 VLT' },
    { code: 'EF000001', value: '-25..55' },
  ],
};

describe('fingerprints computed from the records an upsert writes', () => {
  it('orders text as SQLite does (code points, not UTF-16 units)', () => {
    const skus = ['V-\u{1F600}', 'V-\uFFFD', 'V-b', 'V-A', 'V-'];
    expect([...skus].sort(compareBinary)).toEqual(['V-', 'V-A', 'V-b', 'V-\uFFFD', 'V-\u{1F600}']);
  });

  it('equal what refreshFingerprints computes: created, updated in part, variants added alone, media kept', async () => {
    const { ls, fi, weight, colour, upsert, check } = await setup();
    const first = await upsert([
      {
        sku: 'M-1',
        name: 'Master 1',
        price: '4,95',
        deliveryTimeDays: '3',
        categoryIds: [fi.categoryId, ls.categoryId],
        values: { [weight.code]: '0,12', [colour.code]: 'grau' },
        classification: MCB,
        media: [{ fileName: 'b.jpg' }, { fileName: 'a.pdf', purpose: 'data_sheet', description: 'Datenblatt' }],
        variants: [
          { sku: 'V-\u{1F600}', name: 'emoji' },
          { sku: 'V-\uFFFD', name: 'replacement' },
          { sku: 'V-b', values: { [weight.code]: '1' } },
          { sku: 'V-A', classification: MCB },
        ],
      },
      { sku: 'M-2', name: 'Master 2', status: 'draft' },
    ]);
    expect(first.counts.created).toBe(6);
    await check();

    // Only some fields; values, classification and media replaced; placements moved.
    await upsert([
      {
        sku: 'M-1',
        name: 'Master 1 neu',
        categoryIds: [ls.categoryId],
        values: { [colour.code]: 'rot' },
        classification: null,
        media: [{ fileName: 'a.pdf', purpose: 'data_sheet' }, { fileName: 'c.png' }],
      },
    ]);
    await check();

    // A variant added and one changed, the master itself left as it is.
    await upsert([{ sku: 'M-2', variants: [{ sku: 'M-2-A', name: 'neu' }] }]);
    await upsert([{ sku: 'M-1', variants: [{ sku: 'V-b', name: 'geändert', price: '2' }] }]);
    await check();

    // An uploaded file keeps its own size and type when the reference is given again.
    const masterId = first.items[0].productId as string;
    await db().update(media).set({ size: 123, contentType: 'image/webp' }).where(eq(media.elementId, masterId));
    await db().update(products).set({ revision: 10 }).where(eq(products.id, masterId));
    await refreshFingerprints(
      db(),
      (await db().query.products.findFirst({ where: eq(products.id, masterId) }))!.companyId,
      [masterId],
    );
    await upsert([{ sku: 'M-1', media: [{ fileName: 'c.png', description: 'Foto' }] }]);
    await check();
    const master = await db().query.products.findFirst({ where: eq(products.id, masterId) });
    expect(master!.revision).toBe(11);
  });

  it('cover the order details (migration 0091), and a product without them keeps the fingerprint it had', async () => {
    const { upsert, check } = await setup();
    const plain = await upsert([{ sku: 'OD-1', name: 'Karton', unit: 'BX' }]);
    await check();
    const before = await db().query.products.findFirst({ where: eq(products.id, plain.items[0].productId) });
    await upsert([{ sku: 'OD-1', contentUnit: 'C62', contentPerUnit: '6', quantityMin: '10', quantityInterval: '5' }]);
    await check();
    const set = await db().query.products.findFirst({ where: eq(products.id, plain.items[0].productId) });
    expect(set!.fingerprint).not.toBe(before!.fingerprint);
    await upsert([{ sku: 'OD-1', contentUnit: null, contentPerUnit: null, quantityMin: null, quantityInterval: null }]);
    await check();
    const cleared = await db().query.products.findFirst({ where: eq(products.id, plain.items[0].productId) });
    expect(cleared!.fingerprint).toBe(before!.fingerprint);
  });

  it('cover the class version and DYNAMIC date a record gives (issue 32), as refreshFingerprints does', async () => {
    const { upsert, check } = await setup();
    const versioned = (classVersion: number) => ({
      ...MCB,
      classes: [{ group: 'ETIM', code: 'EC000042', classVersion, dynamicReleaseDate: '2026-01-31' }],
    });
    await upsert([{ sku: 'CV-1', name: 'Versioned', classification: versioned(3) }]);
    await check();
    await upsert([{ sku: 'CV-1', classification: versioned(4) }]);
    await check();
  });
});
