import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { completenessDefer, completenessDirty, products } from '../src/db/schema';
import { db, makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';
import { importDeps, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

/** The product's [score, missing labels] for its first channel in German. */
async function scoreOf(admin: Admin, productId: string) {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const entry = res.json.channels[0].languages.find((l: { language: string }) => l.language === 'deu');
  return [entry.score, entry.missing.map((m: { requirement: string }) => m.requirement).sort()] as [number, string[]];
}

async function importCsv(admin: Admin, catalogId: string, csv: string) {
  const fileId = await putImportFile(admin.tenant, csv, 'catalog.csv');
  const jobId = await insertImportJob(admin.tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps());
  const idOf = async (sku: string) =>
    (await db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)) }))!.id;
  return idOf;
}

describe('Completeness of imported products (scored once per batch, migration 0030)', () => {
  it('scores prices, media links and GTINs as the row triggers do, and rescores the other holder of a GTIN', async () => {
    const { admin, catalog } = await shopSetup();
    const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu'],
      requirements: [
        { kind: 'price', priceType: 'nrp' },
        { kind: 'media', purpose: 'data_sheet' },
        { kind: 'quality', rule: 'gtinUnique' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
    // Written through REST: its score comes from the triggers.
    const holder = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'HOLDER', gtin: '4006381333931' });
    expect(await scoreOf(admin, holder.productId)).toEqual([33, ['media.data_sheet>=1', 'prices.nrp']]);

    const idOf = await importCsv(
      admin,
      catalog.catalogId,
      [
        'sku,name,gtin,media,prices',
        'FULL,Complete,,https://files.example/full.pdf,type=nrp;amount=9.90;currency=EUR',
        'DUP,Duplicate,4006381333931,,type=net_list;amount=5.00;currency=EUR',
        '',
      ].join('\n'),
    );
    const full = await idOf('FULL');
    const dup = await idOf('DUP');
    // A CSV link's purpose is `normal`: the price and the unique (absent) GTIN count, the data sheet is missing.
    expect(await scoreOf(admin, full)).toEqual([66, ['media.data_sheet>=1']]);
    expect(await scoreOf(admin, dup)).toEqual([0, ['media.data_sheet>=1', 'prices.nrp', 'quality.gtinUnique']]);
    // The holder was not written by the import, yet its GTIN is now held twice.
    expect(await scoreOf(admin, holder.productId)).toEqual([
      0,
      ['media.data_sheet>=1', 'prices.nrp', 'quality.gtinUnique'],
    ]);
    // The deferral switch and its marks live only inside the import's transactions.
    expect(await db().select().from(completenessDefer)).toEqual([]);
    expect(await db().select().from(completenessDirty)).toEqual([]);

    // An update through the import changes DUP's GTIN: both products are unique again.
    await importCsv(admin, catalog.catalogId, 'sku,gtin\nDUP,4006381333948\n');
    expect(await scoreOf(admin, dup)).toEqual([33, ['media.data_sheet>=1', 'prices.nrp']]);
    expect(await scoreOf(admin, holder.productId)).toEqual([33, ['media.data_sheet>=1', 'prices.nrp']]);

    // After the import, a REST write is scored by its triggers again (they are not left off).
    const prices = await post(admin.cookie, '/api/Catalog/SetPrices', {
      departmentId: admin.departmentId,
      productId: dup,
      prices: [{ type: 'nrp', amount: '7.00' }],
    });
    expect(prices.status, prices.text).toBe(200);
    expect(await scoreOf(admin, dup)).toEqual([66, ['media.data_sheet>=1']]);
  });
});
