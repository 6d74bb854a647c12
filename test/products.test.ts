import { describe, expect, it } from 'vitest';
import { getCatalog } from '../src/catalog/catalogs';
import { getProduct } from '../src/catalog/product-queries';
import { newId } from '../src/kernel/ids';
import {
  asActor,
  db,
  type FixtureTenant,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { call } from './helpers/http';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
type Session = Awaited<ReturnType<typeof makeSession>>;

const productCount = async (tenant: FixtureTenant, catalogId: string) =>
  (await getCatalog(db(), asActor(tenant), catalogId)).productCount;
const list = async (session: Session, query: string) =>
  (await call('GET', `/api/Catalog/GetProducts?${query}`, { cookie: session.cookie })).json;

/** What a read of a product adds (docs/languages.md): the language of its texts and what is missing in it. */
const READ = { language: 'deu', missingTranslations: [] };

describe('AddProduct', () => {
  it('returns the stored product with its id, field by field', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId);
    const res = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        name: 'NYM-J 3x1,5 mm² 100 m',
        sku: 'NYM-3x1.5-100',
        description: 'Mantelleitung',
        gtin: '4006209123454',
        manufacturerName: 'Kabelwerk',
        manufacturerPid: 'KW-1',
        unit: 'C62',
        price: '89.90',
        priceQuantity: 1,
        contentUnit: 'MTR',
        contentPerUnit: '100',
        quantityMin: '2',
        quantityInterval: '1',
        keywords: 'kabel',
        deliveryTimeDays: 2,
        status: 'draft',
        categoryIds: [category.categoryId],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      productId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      catalogId: catalog.catalogId,
      departmentId: session.departmentId,
      parentId: null,
      sku: 'NYM-3x1.5-100',
      name: 'NYM-J 3x1,5 mm² 100 m',
      description: 'Mantelleitung',
      gtin: '4006209123454',
      manufacturerName: 'Kabelwerk',
      manufacturerPid: 'KW-1',
      unit: 'C62',
      price: '89.90',
      priceQuantity: 1,
      contentUnit: 'MTR',
      contentPerUnit: '100',
      quantityMin: '2',
      quantityInterval: '1',
      keywords: 'kabel',
      deliveryTimeDays: 2,
      status: 'draft',
      categoryIds: [category.categoryId],
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const stored = await call('GET', `/api/Catalog/GetProduct?productId=${res.json.productId}`, {
      cookie: session.cookie,
    });
    expect(stored.json).toEqual({
      ...res.json,
      ...READ,
      values: [],
      classification: null,
      media: [],
      variants: [],
      prices: [],
      featureBlocks: [],
    });
    expect(await productCount(session, catalog.catalogId)).toBe(1);
  });

  it('creates a product with only the required fields', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const res = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ sku: null, name: null, status: 'active', categoryIds: [], parentId: null });
  });

  it('answers 409 for a SKU already used in the catalog and adds nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, { sku: 'DUP-1' });
    const res = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, sku: 'DUP-1', name: 'second' },
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe('sku "DUP-1" is already used in this catalog');
    expect((await list(session, `catalogId=${catalog.catalogId}`)).items).toHaveLength(1);
    expect(await productCount(session, catalog.catalogId)).toBe(1);
    // The same SKU in another catalog is fine.
    const other = await makeCatalog(session);
    const ok = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: other.catalogId, sku: 'DUP-1' },
    });
    expect(ok.status).toBe(200);
  });

  it("answers 400 (an unusable id, not 409) for another company's productId and leaves its product and counters alone", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const theirs = await makeCompany();
    const theirCatalog = await makeCatalog(theirs);
    const foreign = await makeProduct(theirs, theirCatalog.catalogId);
    const res = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: foreign.productId,
        name: 'clash',
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('productId: this id cannot be used; send a new UUIDv7 or leave it out');
    expect(await productCount(session, catalog.catalogId)).toBe(0);
    const after = await getProduct(db(), asActor(theirs), foreign.productId);
    expect(after).toMatchObject({ ...foreign, updatedAt: foreign.updatedAt, fingerprint: foreign.fingerprint });
  });

  it('takes a price as SetValue does: "12,50" and " 12.5 " are stored as 12.50 and 12.5', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const base = { departmentId: session.departmentId, catalogId: catalog.catalogId };
    const added = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { ...base, price: '12,50' },
    });
    expect(added.status, added.text).toBe(200);
    expect(added.json.price).toBe('12.50');
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: { ...base, productId: added.json.productId, price: ' 12.5 ' },
    });
    expect(updated.json.price).toBe('12.5');
    const viaSetValue = await call('POST', '/api/Catalog/SetValue', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, elementId: added.json.productId, field: 'price', value: '12,50' },
    });
    expect(viaSetValue.json).toEqual({ elementId: added.json.productId, field: 'price', value: '12.50' });
  });

  it.each([
    ['a missing catalogId', { name: 'x' }, 'catalogId is required'],
    ['a price of the wrong type', { price: 12.5 }, 'price: Invalid input: expected string, received number'],
    [
      'a price with too many decimals',
      { price: '1.123456789012345678901' },
      'price: price must be a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50',
    ],
    ['a GTIN with a wrong check digit', { gtin: '4006209123457' }, 'gtin: GTIN check digit is wrong'],
    [
      'an unknown status',
      { status: 'sold' },
      'status: Invalid option: expected one of "active"|"draft"|"discontinued"',
    ],
    ['an unknown field', { colour: 'red' }, 'unknown field(s) colour'],
    ['a negative delivery time', { deliveryTimeDays: -1 }, 'deliveryTimeDays: Too small: expected number to be >=0'],
  ])('answers 400 for %s and adds nothing', async (_what, extra, message) => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const body = { departmentId: session.departmentId, catalogId: catalog.catalogId, ...extra };
    if ('catalogId' in extra === false && message === 'catalogId is required')
      delete (body as Record<string, unknown>).catalogId;
    const res = await call('POST', '/api/Catalog/AddProduct', { cookie: session.cookie, body });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(message);
    expect(await productCount(session, catalog.catalogId)).toBe(0);
    expect((await list(session, `catalogId=${catalog.catalogId}`)).items).toEqual([]);
  });

  it('answers 404 for a catalog of another company, 403 for its department and 401 without a cookie', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeCatalog(theirs);
    const notFound = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: foreign.catalogId },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.json.error).toBe('catalog not found');
    const forbidden = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: theirs.departmentId, catalogId: foreign.catalogId },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('departmentId does not name a department of your company');
    const anonymous = await call('POST', '/api/Catalog/AddProduct', {
      body: { departmentId: theirs.departmentId, catalogId: foreign.catalogId },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('not logged in');
    expect(await productCount(theirs, foreign.catalogId)).toBe(0);
  });

  it('answers 404 for a category of another catalog and adds nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const elsewhere = await makeCategory(session, (await makeCatalog(session)).catalogId);
    const res = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, categoryIds: [elsewhere.categoryId] },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('category not found');
    expect(await productCount(session, catalog.catalogId)).toBe(0);
  });
});

describe('UpdateProduct', () => {
  it('changes the given fields, keeps the others, replaces placements, and returns the stored product', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const a = await makeCategory(session, catalog.catalogId);
    const b = await makeCategory(session, catalog.catalogId);
    const product = await makeProduct(session, catalog.catalogId, {
      name: 'Old',
      description: 'keep',
      price: '1.00',
      categoryIds: [a.categoryId],
    });
    const res = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'New',
        price: null,
        categoryIds: [b.categoryId],
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...product,
      name: 'New',
      price: null,
      categoryIds: [b.categoryId],
      fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.json.fingerprint).not.toBe(product.fingerprint);
    const stored = await getProduct(db(), session, product.productId);
    expect(stored).toMatchObject(res.json);
  });

  it('answers 409 when the new SKU is taken in the catalog and changes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, { sku: 'TAKEN' });
    const product = await makeProduct(session, catalog.catalogId, { sku: 'MINE', name: 'Mine' });
    const res = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        sku: 'TAKEN',
        name: 'changed',
      },
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe('sku "TAKEN" is already used in this catalog');
    expect(await getProduct(db(), session, product.productId)).toMatchObject({
      sku: 'MINE',
      name: 'Mine',
      updatedAt: product.updatedAt,
    });
  });

  it('answers 400 without productId, 404 for a product of another company or catalog, and changes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const otherCatalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId, { name: 'Mine' });
    const theirs = await makeCompany();
    const foreign = await makeProduct(theirs, (await makeCatalog(theirs)).catalogId, { name: 'Theirs' });
    const noId = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, name: 'x' },
    });
    expect(noId.status).toBe(400);
    expect(noId.json.error).toBe('productId is required');
    const foreignRes = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: foreign.productId,
        name: 'hijack',
      },
    });
    expect(foreignRes.status).toBe(404);
    expect(foreignRes.json.error).toBe('product not found');
    const wrongCatalog = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: otherCatalog.catalogId,
        productId: product.productId,
        name: 'moved',
      },
    });
    expect(wrongCatalog.status).toBe(404);
    expect((await getProduct(db(), session, product.productId)).name).toBe('Mine');
    expect((await getProduct(db(), asActor(theirs), foreign.productId)).name).toBe('Theirs');
  });

  it('answers 403 for a department of another company and 400 for a wrong type, changing nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId, { name: 'Mine' });
    const theirs = await makeCompany();
    const forbidden = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: theirs.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'x',
      },
    });
    expect(forbidden.status).toBe(403);
    const wrongType = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'x',
        priceQuantity: '2',
      },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.error).toBe('priceQuantity: Invalid input: expected number, received string');
    expect(await getProduct(db(), session, product.productId)).toMatchObject({
      name: 'Mine',
      updatedAt: product.updatedAt,
    });
  });
});

describe('variants', () => {
  it('adds variants under a master, lists them and shows them on the master', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId, { sku: 'M' });
    const v2 = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        parentId: master.productId,
        sku: 'M-2',
        name: 'Variant 2',
      },
    });
    expect(v2.status).toBe(200);
    expect(v2.json).toMatchObject({ parentId: master.productId, sku: 'M-2', fingerprint: null, categoryIds: [] });
    const v1 = await makeProduct(session, catalog.catalogId, { parentId: master.productId, sku: 'M-1' });
    const variants = await call('GET', `/api/Catalog/GetVariants?productId=${master.productId}`, {
      cookie: session.cookie,
    });
    expect(variants.json.items.map((v: { sku: string }) => v.sku)).toEqual(['M-1', 'M-2']);
    const detail = await call('GET', `/api/Catalog/GetProduct?productId=${master.productId}`, {
      cookie: session.cookie,
    });
    expect(detail.json.variants).toEqual(
      [v1, v2.json].map((v) => ({ ...v, ...READ, updatedAt: expect.stringMatching(ISO) })),
    );
    // Only masters are listed; variants count in the stats.
    expect((await list(session, `catalogId=${catalog.catalogId}`)).items.map((p: { sku: string }) => p.sku)).toEqual([
      'M',
    ]);
    expect((await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie })).json.products).toBe(3);
    const variantDetail = await call('GET', `/api/Catalog/GetProduct?productId=${v1.productId}`, {
      cookie: session.cookie,
    });
    expect(variantDetail.json).toMatchObject({
      productId: v1.productId,
      parentId: master.productId,
      variants: [],
      values: [],
      media: [],
    });
  });

  it('refuses a variant of a variant, a master in another catalog, and categories on a variant', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId);
    const variant = await makeProduct(session, catalog.catalogId, { parentId: master.productId });
    const category = await makeCategory(session, catalog.catalogId);
    const nested = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, parentId: variant.productId },
    });
    expect(nested.status).toBe(400);
    expect(nested.json.error).toBe('parentId: a variant cannot have variants');
    const otherCatalog = await makeCatalog(session);
    const cross = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: otherCatalog.catalogId, parentId: master.productId },
    });
    expect(cross.status).toBe(404);
    expect(cross.json.error).toBe('parent product not found');
    const placed = await call('POST', '/api/Catalog/AddProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        parentId: master.productId,
        categoryIds: [category.categoryId],
      },
    });
    expect(placed.status).toBe(400);
    expect(placed.json.error).toBe('categoryIds: variants are placed through their master product');
    expect(await productCount(session, catalog.catalogId)).toBe(2);
    expect(await productCount(session, otherCatalog.catalogId)).toBe(0);
  });

  it("moves a variant's own updatedAt when it is updated", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId);
    const variant = await makeProduct(session, catalog.catalogId, { parentId: master.productId, name: 'v' });
    await new Promise((r) => setTimeout(r, 5));
    const res = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: variant.productId,
        name: 'v2',
      },
    });
    expect(res.json.name).toBe('v2');
    expect(res.json.updatedAt > variant.updatedAt).toBe(true);
  });
});

describe('GetProducts', () => {
  it('searches words by prefix (docs/search.md); LIKE wildcards are plain text', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, { sku: 'CAB-100', name: 'Power cable' });
    await makeProduct(session, catalog.catalogId, { sku: 'XCAB-1', name: 'Switch' });
    await makeProduct(session, catalog.catalogId, { sku: 'LMP-1', name: 'LED lamp 100% bright' });
    await makeProduct(session, catalog.catalogId, { sku: 'LMP-2', name: 'LED lamp 1000 lm' });
    const skus = async (q: string) =>
      (await list(session, `catalogId=${catalog.catalogId}&q=${encodeURIComponent(q)}`)).items.map(
        (p: { sku: string }) => p.sku,
      );
    expect(await skus('CAB')).toEqual(['CAB-100']);
    expect(await skus('cable')).toEqual(['CAB-100']);
    expect(await skus('lamp')).toEqual(['LMP-1', 'LMP-2']);
    expect((await skus('100%')).sort()).toEqual(['CAB-100', 'LMP-1', 'LMP-2']);
    expect(await skus('LMP_')).toEqual(['LMP-1', 'LMP-2']);
    expect(await skus('%')).toEqual([]);
    expect(await skus('nothing')).toEqual([]);
  });

  it('filters by category', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId);
    const placed = await makeProduct(session, catalog.catalogId, { categoryIds: [category.categoryId] });
    await makeProduct(session, catalog.catalogId);
    const res = await list(session, `catalogId=${catalog.catalogId}&categoryId=${category.categoryId}`);
    expect(res).toEqual({ items: [{ ...placed, ...READ, categoryIds: [] }], nextCursor: null });
  });

  it('pages with a keyset cursor that stays stable when products are added and deleted between pages', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await makeProduct(session, catalog.catalogId, { sku: `P${i}` }));
    const first = await list(session, `catalogId=${catalog.catalogId}&limit=3`);
    expect(first.items.map((p: { sku: string }) => p.sku)).toEqual(['P0', 'P1', 'P2']);
    // A product deleted from the first page and one added at the end do not shift the next page.
    await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: made[0]!.productId },
    });
    await makeProduct(session, catalog.catalogId, { sku: 'P7' });
    const second = await list(session, `catalogId=${catalog.catalogId}&limit=3&cursor=${first.nextCursor}`);
    expect(second.items.map((p: { sku: string }) => p.sku)).toEqual(['P3', 'P4', 'P5']);
    const third = await list(session, `catalogId=${catalog.catalogId}&limit=3&cursor=${second.nextCursor}`);
    expect(third.items.map((p: { sku: string }) => p.sku)).toEqual(['P6', 'P7']);
    expect(third.nextCursor).toBeNull();
    // The same cursor gives the same page again.
    const again = await list(session, `catalogId=${catalog.catalogId}&limit=3&cursor=${first.nextCursor}`);
    expect(again).toEqual(second);
  });

  it('defaults to 50 per page, accepts 500 and refuses more than 500 or a broken cursor', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId);
    expect((await list(session, `catalogId=${catalog.catalogId}&limit=500`)).items).toHaveLength(1);
    const tooMany = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&limit=501`, {
      cookie: session.cookie,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error).toBe('limit: Too big: expected number to be <=500');
    const zero = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&limit=0`, {
      cookie: session.cookie,
    });
    expect(zero.status).toBe(400);
    const broken = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&cursor=%%%`, {
      cookie: session.cookie,
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toBe('cursor is not valid');
  });

  it('answers 404 for a catalog of another company', async () => {
    const session = await makeSession();
    const foreign = await makeCatalog(await makeCompany());
    const res = await call('GET', `/api/Catalog/GetProducts?catalogId=${foreign.catalogId}`, {
      cookie: session.cookie,
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
  });
});

describe('GetProduct and DeleteProduct', () => {
  it('answers 404 for a product of another company', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeProduct(theirs, (await makeCatalog(theirs)).catalogId);
    const res = await call('GET', `/api/Catalog/GetProduct?productId=${foreign.productId}`, { cookie: session.cookie });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('product not found');
  });

  it('deletes a master with its variants and values and updates the counters', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const keep = await makeProduct(session, catalog.catalogId);
    const master = await makeProduct(session, catalog.catalogId);
    const variant = await makeProduct(session, catalog.catalogId, { parentId: master.productId });
    await makeProduct(session, catalog.catalogId, { parentId: master.productId });
    const colour = await makeAttribute(session, { type: 'text' });
    await call('POST', '/api/Catalog/SetValue', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, elementId: variant.productId, field: colour.code, value: 'red' },
    });
    expect(await productCount(session, catalog.catalogId)).toBe(4);
    const res = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: master.productId },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ productId: master.productId, deleted: 3 });
    for (const id of [master.productId, variant.productId]) {
      const gone = await call('GET', `/api/Catalog/GetProduct?productId=${id}`, { cookie: session.cookie });
      expect(gone.status).toBe(404);
    }
    expect(await productCount(session, catalog.catalogId)).toBe(1);
    expect(
      (await list(session, `catalogId=${catalog.catalogId}`)).items.map((p: { productId: string }) => p.productId),
    ).toEqual([keep.productId]);
    const orphanValues = await db().query.attributeValues.findMany({
      where: (v, { eq }) => eq(v.elementId, variant.productId),
    });
    expect(orphanValues).toEqual([]);
  });

  it('deletes a single variant and keeps its master', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId);
    const variant = await makeProduct(session, catalog.catalogId, { parentId: master.productId });
    const res = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: variant.productId },
    });
    expect(res.json).toEqual({ productId: variant.productId, deleted: 1 });
    expect((await getProduct(db(), session, master.productId)).variants).toEqual([]);
    expect(await productCount(session, catalog.catalogId)).toBe(1);
  });

  it('answers 404 when deleting a product of another company and keeps it', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const theirCatalog = await makeCatalog(theirs);
    const foreign = await makeProduct(theirs, theirCatalog.catalogId);
    const res = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: foreign.productId },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('product not found');
    expect((await getProduct(db(), asActor(theirs), foreign.productId)).productId).toBe(foreign.productId);
    expect(await productCount(theirs, theirCatalog.catalogId)).toBe(1);
  });

  it('answers 404 for an unknown product id', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: newId() },
    });
    expect(res.status).toBe(404);
  });
});

describe('attributes', () => {
  it('defines, lists and renames attributes', async () => {
    const session = await makeSession();
    const add = await call('POST', '/api/Catalog/AddAttribute', {
      cookie: session.cookie,
      body: { code: 'colour', name: 'Colour', type: 'enum', enumValues: ['red', 'blue'] },
    });
    expect(add.status).toBe(200);
    expect(add.json).toEqual({
      attributeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: 'colour',
      name: 'Colour',
      type: 'enum',
      unit: null,
      enumValues: ['red', 'blue'],
      localizable: false,
    });
    const voltage = await call('POST', '/api/Catalog/AddAttribute', {
      cookie: session.cookie,
      body: { code: 'voltage', name: 'Voltage', type: 'number', unit: 'V' },
    });
    expect(voltage.json).toMatchObject({ code: 'voltage', type: 'number', unit: 'V', enumValues: null });
    const update = await call('POST', '/api/Catalog/UpdateAttribute', {
      cookie: session.cookie,
      body: {
        attributeId: add.json.attributeId,
        code: 'colour',
        name: 'Farbe',
        type: 'enum',
        enumValues: ['red', 'blue', 'green'],
      },
    });
    expect(update.json).toEqual({ ...add.json, name: 'Farbe', enumValues: ['red', 'blue', 'green'] });
    const listRes = await call('GET', '/api/Catalog/GetAttributes', { cookie: session.cookie });
    expect(listRes.json).toEqual({ items: [update.json, voltage.json] });
    // Another company does not see them.
    const other = await makeSession();
    expect((await call('GET', '/api/Catalog/GetAttributes', { cookie: other.cookie })).json).toEqual({ items: [] });
  });

  it('refuses duplicate codes, built-in names, feature codes, removed enum values and type changes', async () => {
    const session = await makeSession();
    const colour = await makeAttribute(session, { code: 'colour', type: 'enum', enumValues: ['red', 'blue'] });
    const cases: [unknown, number, string][] = [
      [{ code: 'colour', name: 'x', type: 'text' }, 409, 'attribute code "colour" is already in use'],
      [{ code: 'price', name: 'x', type: 'text' }, 400, 'code: "price" is a built-in field'],
      [
        { code: 'EF000008', name: 'x', type: 'number' },
        400,
        'code: "EF000008" looks like a classification feature code',
      ],
      [{ code: 'size', name: 'x', type: 'enum' }, 400, 'enumValues: required for type enum'],
      [{ code: 'length', name: 'x', type: 'text', unit: 'm' }, 400, 'unit: only for number and range attributes'],
    ];
    for (const [body, status, error] of cases) {
      const res = await call('POST', '/api/Catalog/AddAttribute', { cookie: session.cookie, body });
      expect(res.status).toBe(status);
      expect(res.json.error).toBe(error);
    }
    const removed = await call('POST', '/api/Catalog/UpdateAttribute', {
      cookie: session.cookie,
      body: { attributeId: colour.attributeId, code: 'colour', name: 'Colour', type: 'enum', enumValues: ['red'] },
    });
    expect(removed.status).toBe(400);
    expect(removed.json.error).toBe('enumValues: values cannot be removed (blue)');
    const retyped = await call('POST', '/api/Catalog/UpdateAttribute', {
      cookie: session.cookie,
      body: { attributeId: colour.attributeId, code: 'colour', name: 'Colour', type: 'text' },
    });
    expect(retyped.status).toBe(400);
    expect(retyped.json.error).toBe('code and type of an attribute cannot change');
    expect((await call('GET', '/api/Catalog/GetAttributes', { cookie: session.cookie })).json).toEqual({
      items: [colour],
    });
  });

  it('answers 404 when updating an attribute of another company', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeAttribute(theirs, { code: 'colour', type: 'text' });
    const res = await call('POST', '/api/Catalog/UpdateAttribute', {
      cookie: session.cookie,
      body: { attributeId: foreign.attributeId, code: 'colour', name: 'hijack', type: 'text' },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('attribute not found');
  });
});
