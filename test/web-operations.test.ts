import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { productCategories, products } from '../src/db/schema';
import { attachMedia } from '../src/media/media';
import { env } from 'cloudflare:workers';
import { db, makeCatalog, makeCategory, makeDepartment, makeProduct, makeSession, makeUser } from './helpers/factories';
import { call } from './helpers/http';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const row = async (id: string) => (await db().query.products.findFirst({ where: eq(products.id, id) }))!;

describe('Account/GetUsers', () => {
  it("lists the admin's company users with role and AI switch, never another company's", async () => {
    const admin = await makeSession({ role: 'admin' });
    const editor = await makeUser(
      { companyId: admin.companyId, departmentId: admin.departmentId },
      { aiSwitch: true, email: `a-editor-${admin.userId}@test.example` },
    );
    const stranger = await makeSession();
    const res = await call('GET', '/api/Account/GetUsers', { cookie: admin.cookie });
    expect(res.status).toBe(200);
    // Ordered by email.
    expect(res.json.items).toEqual([
      {
        userId: editor.userId,
        email: editor.email,
        name: 'Test User',
        role: 'editor',
        languages: [],
        catalogIds: [],
        categoryIds: [],
        channelIds: [],
        aiMayEditClassifications: true,
        status: 'active',
        ssoMappedRole: null,
      },
      {
        userId: admin.userId,
        email: admin.email,
        name: 'Test User',
        role: 'admin',
        languages: [],
        catalogIds: [],
        categoryIds: [],
        channelIds: [],
        aiMayEditClassifications: false,
        status: 'active',
        ssoMappedRole: null,
      },
    ]);
    expect(res.json.items.map((u: { userId: string }) => u.userId)).not.toContain(stranger.userId);
  });

  it('answers 403 to an editor and 401 without a session', async () => {
    const editor = await makeSession();
    const forbidden = await call('GET', '/api/Account/GetUsers', { cookie: editor.cookie });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('only a company admin may do this');
    expect((await call('GET', '/api/Account/GetUsers')).status).toBe(401);
  });
});

describe('category product counts', () => {
  it('counts direct placements and the subtree, and follows placements, moves and deletes', async () => {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const top = await makeCategory(s, catalog.catalogId, { name: 'Top' });
    const child = await makeCategory(s, catalog.catalogId, { name: 'Child', parentId: top.categoryId });
    const grandchild = await makeCategory(s, catalog.catalogId, { name: 'Grandchild', parentId: child.categoryId });
    await makeProduct(s, catalog.catalogId, { categoryIds: [top.categoryId] });
    const p2 = await makeProduct(s, catalog.catalogId, { categoryIds: [child.categoryId] });
    await makeProduct(s, catalog.catalogId, { categoryIds: [grandchild.categoryId] });
    const p4 = await makeProduct(s, catalog.catalogId, { categoryIds: [grandchild.categoryId] });

    const topLevel = await call('GET', `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}`, {
      cookie: s.cookie,
    });
    expect(topLevel.json.items).toEqual([
      expect.objectContaining({ categoryId: top.categoryId, productCount: 1, subtreeProductCount: 4 }),
    ]);
    const children = await call(
      'GET',
      `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}&parentId=${top.categoryId}`,
      { cookie: s.cookie },
    );
    expect(children.json.items).toEqual([
      expect.objectContaining({ categoryId: child.categoryId, productCount: 1, subtreeProductCount: 3 }),
    ]);

    // Re-placing, deleting a product and deleting a subtree all move the counters.
    await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: s.cookie,
      body: {
        departmentId: s.departmentId,
        catalogId: catalog.catalogId,
        productId: p2.productId,
        categoryIds: [top.categoryId],
      },
    });
    await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, productId: p4.productId },
    });
    const tree = await call('GET', `/api/Catalog/GetCategoryTree?catalogId=${catalog.catalogId}`, { cookie: s.cookie });
    const [t] = tree.json.items;
    expect(t).toMatchObject({
      productCount: 2,
      subtreeProductCount: 3,
      children: [{ productCount: 0, subtreeProductCount: 1, children: [{ productCount: 1, subtreeProductCount: 1 }] }],
    });
    await call('POST', '/api/Catalog/DeleteCategory', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, categoryId: child.categoryId },
    });
    const after = await call('GET', `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}`, { cookie: s.cookie });
    expect(after.json.items[0]).toMatchObject({ productCount: 2, subtreeProductCount: 2 });
    expect(await db().$count(productCategories, eq(productCategories.categoryId, top.categoryId))).toBe(2);
  });
});

describe('Classification controller (session)', () => {
  it('finds classes by code prefix or by name', async () => {
    const s = await makeSession();
    const byCode = await call('GET', '/api/Classification/SearchClasses?group=ETIM&q=EC00004', { cookie: s.cookie });
    expect(byCode.status).toBe(200);
    expect(byCode.json.items.map((c: { code: string }) => c.code)).toEqual(['EC000042', 'EC000044']);
    const byName = await call('GET', '/api/Classification/SearchClasses?q=circuit%20breaker', { cookie: s.cookie });
    expect(byName.json.items).toEqual([
      { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Miniature circuit breaker (MCB)' },
      { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000044', name: 'Residual current circuit breaker (RCCB)' },
    ]);
    const literal = await call('GET', '/api/Classification/SearchClasses?q=%25', { cookie: s.cookie });
    expect(literal.json.items).toEqual([]);
    const bad = await call('GET', '/api/Classification/SearchClasses?group=UNSPSC', { cookie: s.cookie });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^group:/);
    expect((await call('GET', '/api/Classification/SearchClasses?q=EC')).status).toBe(401);
  });

  it('lists the features of a class with type, unit and, for alphanumeric ones, the allowed values', async () => {
    const s = await makeSession();
    const res = await call('GET', '/api/Classification/GetClassFeatures?group=ETIM&classCode=EC000042', {
      cookie: s.cookie,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      group: 'ETIM',
      system: 'ETIM-9.0',
      code: 'EC000042',
      name: 'Miniature circuit breaker (MCB)',
    });
    expect(res.json.features.map((f: { code: string }) => f.code)).toEqual([
      'EF000008',
      'EF000010',
      'EF000133',
      'EF000073',
      'EF000049',
      'EF000001',
    ]);
    expect(res.json.features[0]).toEqual({
      code: 'EF000008',
      name: 'Rated voltage',
      type: 'N',
      unit: 'VLT',
      values: [],
    });
    expect(res.json.features[3]).toEqual({
      code: 'EF000073',
      name: 'Release characteristic',
      type: 'A',
      unit: null,
      values: [
        { code: 'EV000040', name: 'B' },
        { code: 'EV000041', name: 'C' },
        { code: 'EV000042', name: 'D' },
        { code: 'EV000043', name: 'K' },
      ],
    });
    const missing = await call('GET', '/api/Classification/GetClassFeatures?group=ETIM&classCode=EC999999', {
      cookie: s.cookie,
    });
    expect(missing.status).toBe(404);
  });

  it("classifies, replaces and removes an element's classification with the agent surface's rules", async () => {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const product = await makeProduct(s, catalog.catalogId);
    const set = (body: Record<string, unknown>) =>
      call('POST', '/api/Classification/SetElementClassification', {
        cookie: s.cookie,
        body: { departmentId: s.departmentId, elementId: product.productId, ...body },
      });

    const none = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: s.cookie,
    });
    expect(none.json).toEqual({ elementId: product.productId, classification: null });
    const created = await set({
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [
        { code: 'EF000008', value: '230' },
        { code: 'EF000073', value: 'EV000041' },
      ],
    });
    expect(created.status).toBe(200);
    expect(created.json.classification).toMatchObject({
      name: 'Miniature circuit breaker (MCB)',
      classificationGroups: 1,
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Miniature circuit breaker (MCB)' }],
      features: [
        { group: 'ETIM', code: 'EF000008', name: 'Rated voltage', value: '230', unit: 'VLT' },
        { group: 'ETIM', code: 'EF000073', name: 'Release characteristic', value: 'EV000041', unit: null },
      ],
    });
    const fingerprint = (await row(product.productId)).fingerprint;

    // A value the reference data refuses: 400 naming the feature, and nothing changes.
    const refused = await set({
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000073', value: 'EV999' }],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/EF000073/);
    const foreignFeature = await set({
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000040', value: '5' }],
    });
    expect(foreignFeature.status).toBe(400);
    expect(foreignFeature.json.error).toMatch(/^features: EF000040 is not a feature/);
    const still = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: s.cookie,
    });
    expect(still.json.classification.features).toHaveLength(2);

    const replaced = await set({
      classes: [
        { group: 'ETIM', code: 'EC000125' },
        { group: 'ECLASS', code: '27141190' },
      ],
      features: [{ code: 'EF000005', value: '1' }],
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.classification).toMatchObject({
      linkId: created.json.classification.linkId,
      classificationGroups: 3,
      features: [{ code: 'EF000005', value: 'true' }],
    });
    expect((await row(product.productId)).fingerprint).not.toBe(fingerprint);

    // What GetElementClassification returned goes back as it is, one value changed.
    const read = (
      await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
        cookie: s.cookie,
      })
    ).json.classification;
    const features = [{ ...read.features[0], value: '0' }];
    const roundTrip = await set({ ...read, features });
    expect(roundTrip.status, roundTrip.json.error).toBe(200);
    expect(roundTrip.json.classification).toEqual({ ...read, features: [{ ...read.features[0], value: 'false' }] });

    // An empty class list never removes anything: 400 naming the field, classification intact.
    const empty = await set({ classes: [], features: [], name: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatch(/^classes: /);
    const kept = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: s.cookie,
    });
    expect(kept.json.classification).toEqual(roundTrip.json.classification);

    const remove = () =>
      call('POST', '/api/Classification/DeleteElementClassification', {
        cookie: s.cookie,
        body: { departmentId: s.departmentId, elementId: product.productId },
      });
    const removed = await remove();
    expect(removed.json).toEqual({ elementId: product.productId, classification: null });
    const detail = await call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: s.cookie });
    expect(detail.json.classification).toBeNull();
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${product.productId}&limit=1`, {
      cookie: s.cookie,
    });
    expect(history.json.items[0].changes).toContainEqual({
      path: 'classification.class.ETIM',
      before: 'EC000125',
      after: null,
    });
    const again = await remove();
    expect(again.status).toBe(404);
    expect(again.json.error).toBe('classification not found');
  });

  it("answers 404 for another company's element, 403 for its department, 400 naming the field", async () => {
    const s = await makeSession();
    const other = await makeSession();
    const foreign = await makeProduct(other, (await makeCatalog(other)).catalogId);
    const own = await makeProduct(s, (await makeCatalog(s)).catalogId);
    const classes = [{ group: 'ETIM', code: 'EC000042' }];
    const get = await call('GET', `/api/Classification/GetElementClassification?elementId=${foreign.productId}`, {
      cookie: s.cookie,
    });
    expect(get.status).toBe(404);
    const post = (body: Record<string, unknown>) =>
      call('POST', '/api/Classification/SetElementClassification', { cookie: s.cookie, body });
    expect((await post({ departmentId: s.departmentId, elementId: foreign.productId, classes })).status).toBe(404);
    expect((await post({ departmentId: other.departmentId, elementId: own.productId, classes })).status).toBe(403);
    // An element of another department of the same company is not in the named department.
    const second = await makeDepartment(s.companyId);
    expect((await post({ departmentId: second, elementId: own.productId, classes })).status).toBe(404);
    const missingClasses = await post({ departmentId: s.departmentId, elementId: own.productId });
    expect(missingClasses.status).toBe(400);
    expect(missingClasses.json.error).toBe('classes is required');
    const unknownClass = await post({
      departmentId: s.departmentId,
      elementId: own.productId,
      classes: [{ group: 'ETIM', code: 'EC424242' }],
    });
    expect(unknownClass.status).toBe(400);
    expect(unknownClass.json.error).toMatch(/^classes: EC424242 is not a known ETIM class/);
    const crossSite = await call('POST', '/api/Classification/SetElementClassification', {
      cookie: s.cookie,
      headers: { Origin: 'https://evil.example' },
      body: { departmentId: s.departmentId, elementId: own.productId, classes },
    });
    expect(crossSite.status).toBe(403);
    expect(
      (
        await call('GET', `/api/Classification/GetElementClassification?elementId=${own.productId}`, {
          cookie: s.cookie,
        })
      ).json.classification,
    ).toBeNull();
  });
});

describe('Media/Reorder', () => {
  async function withFiles(names: string[]) {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const product = await makeProduct(s, catalog.catalogId);
    const files = [];
    for (const fileName of names) {
      files.push(
        await attachMedia({ db: db(), files: env.FILES }, s, {
          departmentId: s.departmentId,
          elementId: product.productId,
          fileName,
          purpose: 'normal',
          contentType: 'image/png',
          bytes: PNG,
        }),
      );
    }
    return { s, product, ids: files.map((f) => f.mediaId) };
  }

  it('puts the files in the given order and updates the fingerprint', async () => {
    const { s, product, ids } = await withFiles(['a.png', 'b.png', 'c.png']);
    const before = await row(product.productId);
    const res = await call('POST', '/api/Media/Reorder', {
      cookie: s.cookie,
      body: { departmentId: s.departmentId, elementId: product.productId, mediaIds: [ids[2], ids[0], ids[1]] },
    });
    expect(res.status).toBe(200);
    expect(res.json.items.map((m: { fileName: string }) => m.fileName)).toEqual(['c.png', 'a.png', 'b.png']);
    const detail = await call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: s.cookie });
    expect(detail.json.media.map((m: { fileName: string }) => m.fileName)).toEqual(['c.png', 'a.png', 'b.png']);
    const after = await row(product.productId);
    expect(after.fingerprint).not.toBe(before.fingerprint);
    expect(after.fingerprintRevision).toBe(after.revision);
  });

  it('refuses an incomplete or foreign list and changes nothing', async () => {
    const { s, product, ids } = await withFiles(['a.png', 'b.png']);
    const other = await withFiles(['x.png']);
    const reorder = (body: Record<string, unknown>, cookie = s.cookie) =>
      call('POST', '/api/Media/Reorder', {
        cookie,
        body: { departmentId: s.departmentId, elementId: product.productId, ...body },
      });
    const partial = await reorder({ mediaIds: [ids[1]] });
    expect(partial.status).toBe(400);
    expect(partial.json.error).toBe("mediaIds: must list each of the element's 2 files exactly once");
    expect((await reorder({ mediaIds: [ids[1], ids[1]] })).json.error).toBe('mediaIds: a file is listed twice');
    expect((await reorder({ mediaIds: [ids[1], other.ids[0]] })).status).toBe(400);
    expect((await reorder({ mediaIds: ['x'] })).json.error).toMatch(/^mediaIds\.0:/);
    expect((await reorder({ elementId: other.product.productId, mediaIds: other.ids })).status).toBe(404);
    expect((await reorder({ departmentId: other.s.departmentId, mediaIds: [ids[1], ids[0]] })).status).toBe(403);
    expect(
      (
        await call('POST', '/api/Media/Reorder', {
          body: { departmentId: s.departmentId, elementId: product.productId, mediaIds: ids },
        })
      ).status,
    ).toBe(401);
    const detail = await call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: s.cookie });
    expect(detail.json.media.map((m: { fileName: string }) => m.fileName)).toEqual(['a.png', 'b.png']);
  });
});
