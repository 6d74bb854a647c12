import { describe, expect, it } from 'vitest';
import { makeProduct } from './helpers/factories';
import { call } from './helpers/http';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

/**
 * Issue 32: a wholesale shop's channel can require the order details (migration 0091's fields;
 * scored by the view of migration 0092): a product without them is incomplete, with them
 * complete, a variant without its own has its master's, and setting one rescores the product.
 */
type Scores = {
  languages: { score: number; complete: boolean; missing: { requirement: string; field: string }[] }[];
}[];

async function scoreOf(cookie: string, productId: string) {
  const res = await get(cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const [shop] = res.json.channels as Scores;
  const [deu] = shop!.languages;
  return { score: deu!.score, complete: deu!.complete, missing: deu!.missing.map((m) => m.field) };
}

describe('Completeness of order details', () => {
  it('a channel requiring quantityMin and contentUnit scores a product without them incomplete, with them complete, a variant by its master', async () => {
    const { admin, catalog } = await shopSetup();
    const bare = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'BARE-1', unit: 'BX' });
    const full = await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'BOX-6',
      unit: 'BX',
      contentUnit: 'C62',
      contentPerUnit: '6',
      quantityMin: '2.5',
    });
    const inheriting = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'BOX-6-R', parentId: full.productId });
    const bareVariant = await makeProduct(admin.tenant, catalog.catalogId, {
      sku: 'BARE-1-R',
      parentId: bare.productId,
    });

    const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Wholesale',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'quantityMin' },
        { kind: 'field', field: 'contentUnit' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.requirements).toEqual([
      { kind: 'field', field: 'quantityMin' },
      { kind: 'field', field: 'contentUnit' },
    ]);
    expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');

    expect(await scoreOf(admin.cookie, bare.productId)).toEqual({
      score: 0,
      complete: false,
      missing: ['quantityMin', 'contentUnit'],
    });
    expect(await scoreOf(admin.cookie, full.productId)).toEqual({ score: 100, complete: true, missing: [] });
    // A variant without its own values has its master's, as unit and priceQuantity do.
    expect(await scoreOf(admin.cookie, inheriting.productId)).toEqual({ score: 100, complete: true, missing: [] });
    expect((await scoreOf(admin.cookie, bareVariant.productId)).complete).toBe(false);

    // Setting the minimum on the bare master rescores it and its variant at once (the update trigger).
    const update = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: admin.cookie,
      headers: { Origin: 'http://pim.test' },
      body: {
        departmentId: admin.departmentId,
        catalogId: catalog.catalogId,
        productId: bare.productId,
        quantityMin: '10',
      },
    });
    expect(update.status, update.text).toBe(200);
    expect(await scoreOf(admin.cookie, bare.productId)).toEqual({
      score: 50,
      complete: false,
      missing: ['contentUnit'],
    });
    expect(await scoreOf(admin.cookie, bareVariant.productId)).toEqual({
      score: 50,
      complete: false,
      missing: ['contentUnit'],
    });
    // The variant's own content unit completes it; its master stays as it was.
    const own = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: admin.cookie,
      headers: { Origin: 'http://pim.test' },
      body: {
        departmentId: admin.departmentId,
        catalogId: catalog.catalogId,
        productId: bareVariant.productId,
        contentUnit: 'MTR',
      },
    });
    expect(own.status, own.text).toBe(200);
    expect(await scoreOf(admin.cookie, bareVariant.productId)).toEqual({ score: 100, complete: true, missing: [] });
    expect((await scoreOf(admin.cookie, bare.productId)).score).toBe(50);
  });
});
