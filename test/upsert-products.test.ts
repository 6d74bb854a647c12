import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import {
  db,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { call } from './helpers/http';

const v0Paths = (changes: string) => (JSON.parse(changes) as [string][]).map(([path]) => path);

const MCB = {
  classes: [{ group: 'ETIM', code: 'EC000042' }],
  features: [
    { code: 'EF000008', value: '230 VLT' },
    { code: 'EF000001', value: '-25..55' },
  ],
};

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant);
  const category = await makeCategory(session.tenant, catalog.catalogId, { name: 'LS' });
  const weight = await makeAttribute(session.tenant, { type: 'number', unit: 'kg' });
  const upsert = (items: unknown[], extra: Record<string, unknown> = {}) =>
    call('POST', '/api/Catalog/UpsertProducts', {
      cookie: session.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, items, ...extra },
    });
  return { session, catalog, category, weight, upsert };
}

describe('POST /api/Catalog/UpsertProducts', () => {
  it('creates masters with variants, values, classification, placements and media references; answers each item in order', async () => {
    const { session, category, weight, upsert } = await setup();
    const items = [
      {
        sku: 'LS-B16',
        name: 'LS B16',
        price: '4,95',
        priceQuantity: 1,
        gtin: '4006381333931',
        categoryIds: [category.categoryId],
        values: { [weight.code]: '0,12' },
        classification: MCB,
        media: [{ fileName: 'b16.jpg' }, { fileName: 'b16.pdf', purpose: 'data_sheet' }],
        variants: [{ sku: 'LS-B16-3P', name: 'LS B16 3-polig', price: '14.90' }],
      },
      { sku: 'NYM', name: 'NYM-J', unit: 'MTR', status: 'draft' },
    ];
    const first = await upsert(items);
    expect(first.status).toBe(200);
    expect(first.json.counts).toEqual({ created: 3, updated: 0, unchanged: 0, error: 0 });
    expect(first.json.items.map((i: any) => [i.sku, i.status, i.variants.map((v: any) => [v.sku, v.status])])).toEqual([
      ['LS-B16', 'created', [['LS-B16-3P', 'created']]],
      ['NYM', 'created', []],
    ]);
    const product = await getProduct(db(), session.tenant, first.json.items[0].productId);
    expect(product).toMatchObject({
      price: '4.95',
      gtin: '4006381333931',
      categoryIds: [category.categoryId],
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(product.values).toEqual([{ code: weight.code, type: 'number', value: '0.12', unit: 'kg' }]);
    expect(product.classification!.features.map((f) => `${f.code}=${f.value}`)).toEqual([
      'EF000001=-25..55',
      'EF000008=230',
    ]);
    expect(product.media.map((m) => [m.fileName, m.purpose, m.contentType])).toEqual([
      ['b16.jpg', 'normal', 'image/jpeg'],
      ['b16.pdf', 'data_sheet', 'application/pdf'],
    ]);
    expect(product.variants.map((v) => [v.sku, v.productId])).toEqual([
      ['LS-B16-3P', first.json.items[0].variants[0].productId],
    ]);

    const { historyVersions } = await import('../src/db/schema');
    const { eq } = await import('drizzle-orm');
    const versions = await db().select().from(historyVersions).where(eq(historyVersions.elementId, product.productId));
    expect(versions.map((v) => [v.action, v.surface])).toEqual([['create', 'web']]);
    expect(v0Paths(versions[0]!.changes)).toEqual(
      expect.arrayContaining([
        'sku',
        'price',
        `values.${weight.code}`,
        'classification.class.ETIM',
        'categories',
        'variants',
      ]),
    );

    const again = await upsert(items);
    expect(again.json.counts).toEqual({ created: 0, updated: 0, unchanged: 3, error: 0 });
    expect((await getProduct(db(), session.tenant, product.productId)).fingerprint).toBe(product.fingerprint);

    const changed = await upsert([
      { sku: 'LS-B16', price: '5.10', variants: [{ sku: 'LS-B16-3P', name: 'LS B16 dreipolig' }] },
    ]);
    expect(changed.json.items[0]).toMatchObject({
      status: 'updated',
      productId: product.productId,
      variants: [{ status: 'updated' }],
    });
    const after = await getProduct(db(), session.tenant, product.productId);
    expect(after).toMatchObject({ price: '5.10', name: 'LS B16', categoryIds: [category.categoryId] });
    expect(after.values).toHaveLength(1);
    expect(after.fingerprint).not.toBe(product.fingerprint);
    const updates = await db().select().from(historyVersions).where(eq(historyVersions.elementId, product.productId));
    // Unchanged upserts record nothing; the update records exactly the price.
    expect(updates.map((v) => v.action)).toEqual(['create', 'update']);
    expect(JSON.parse(updates[1]!.changes)).toEqual([['price', '4.95', '5.10']]);
  });

  it('answers a bad item with its field and writes the good ones', async () => {
    const { session, catalog, upsert } = await setup();
    await makeProduct(session.tenant, catalog.catalogId, { sku: 'EXISTING' });
    const res = await upsert([
      { sku: 'OK-1', name: 'fine' },
      { sku: 'BAD-PRICE', price: 'abc' },
      { sku: 'BAD-ATTR', values: { nope_attribute: '1' } },
      { sku: 'BAD-CLASS', classification: { classes: [{ group: 'ETIM', code: 'EC999999' }] } },
      {
        sku: 'BAD-FEATURE',
        classification: {
          classes: [{ group: 'ETIM', code: 'EC000042' }],
          features: [{ code: 'EF000008', value: 'viel' }],
        },
      },
      { sku: 'BAD-CAT', categoryIds: ['0190a000-0000-7000-8000-000000000999'] },
      { sku: 'OK-1', name: 'twice' },
      { sku: 'BAD-GTIN', gtin: '4006381333932' },
      { sku: 'MASTER', variants: [{ sku: 'EXISTING' }] },
    ]);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: any) => [i.sku, i.status, i.field])).toEqual([
      ['OK-1', 'created', null],
      ['BAD-PRICE', 'error', 'price'],
      ['BAD-ATTR', 'error', 'values.nope_attribute'],
      ['BAD-CLASS', 'error', 'classification.classes'],
      ['BAD-FEATURE', 'error', 'classification.features.EF000008'],
      ['BAD-CAT', 'error', 'categoryIds'],
      ['OK-1', 'error', 'sku'],
      ['BAD-GTIN', 'error', 'gtin'],
      ['MASTER', 'created', null],
    ]);
    expect(res.json.items[1].error).toBe(
      'price: "abc" is not a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    );
    expect(res.json.items[8].variants[0]).toMatchObject({
      sku: 'EXISTING',
      status: 'error',
      field: 'parentSku',
      error: 'sku "EXISTING" is a master product, not a variant',
    });
    expect(res.json.counts).toEqual({ created: 2, updated: 0, unchanged: 0, error: 8 });
    const list = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}`, {
      cookie: session.cookie,
    });
    expect(list.json.items.map((p: any) => p.sku).sort()).toEqual(['EXISTING', 'MASTER', 'OK-1']);
  });

  it('leaves existing products untouched in createOnly mode', async () => {
    const { session, catalog, upsert } = await setup();
    const existing = await makeProduct(session.tenant, catalog.catalogId, { sku: 'KEEP', name: 'old' });
    const res = await upsert([{ sku: 'KEEP', name: 'new' }, { sku: 'FRESH' }], { mode: 'createOnly' });
    expect(res.json.items.map((i: any) => i.status)).toEqual(['unchanged', 'created']);
    expect((await getProduct(db(), session.tenant, existing.productId)).name).toBe('old');
  });

  it('refuses another company: its catalog is 404, its department 403, its categories an item error', async () => {
    const { session, upsert } = await setup();
    const other = await makeCompany();
    const otherCatalog = await makeCatalog(other, { name: 'Fremd' });
    const otherCategory = await makeCategory(other, otherCatalog.catalogId);
    const foreignCatalog = await upsert([{ sku: 'X' }], { catalogId: otherCatalog.catalogId });
    expect(foreignCatalog).toMatchObject({ status: 404, json: { error: 'catalog not found' } });
    const foreignDepartment = await upsert([{ sku: 'X' }], { departmentId: other.departmentId });
    expect(foreignDepartment.status).toBe(403);
    const foreignCategory = await upsert([{ sku: 'X', categoryIds: [otherCategory.categoryId] }]);
    expect(foreignCategory.json.items[0]).toMatchObject({ status: 'error', field: 'categoryIds' });
    const anonymous = await call('POST', '/api/Catalog/UpsertProducts', { body: { items: [] } });
    expect(anonymous.status).toBe(401);
    void session;
  });

  it('refuses more than 1000 items and malformed items with 400 naming the field', async () => {
    const { upsert } = await setup();
    const tooMany = await upsert(Array.from({ length: 1001 }, (_, i) => ({ sku: `S-${i}` })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toMatch(/^items: /);
    const unknownField = await upsert([{ sku: 'A', colour: 'red' }]);
    expect(unknownField).toMatchObject({ status: 400, json: { error: 'items.0: unknown field(s) colour' } });
  });
});
