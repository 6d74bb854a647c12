import { describe, expect, it } from 'vitest';
import { getCatalog } from '../src/catalog/catalogs';
import { newId } from '../src/kernel/ids';
import {
  asActor,
  db,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeDepartment,
  makeProduct,
  makeSession,
  makeUser,
} from './helpers/factories';
import { call, loginAs } from './helpers/http';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function catalogsOf(cookie: string) {
  return (await call('GET', '/api/Catalog/GetCatalogs', { cookie })).json.items as {
    catalogId: string;
    name: string;
  }[];
}

describe('GetStats', () => {
  it('counts catalogs, categories and products (variants included) of the current department only', async () => {
    const session = await makeSession();
    const other = await makeDepartment(session.companyId);
    const a = await makeCatalog(session);
    const b = await makeCatalog(session);
    await makeCatalog({ companyId: session.companyId, departmentId: other });
    await makeCategory(session, a.catalogId);
    const top = await makeCategory(session, b.catalogId);
    await makeCategory(session, b.catalogId, { parentId: top.categoryId });
    const master = await makeProduct(session, a.catalogId);
    await makeProduct(session, a.catalogId, { parentId: master.productId });
    await makeProduct(session, b.catalogId);
    const res = await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ catalogs: 2, categories: 3, products: 3 });
    const byQuery = await call('GET', `/api/Catalog/GetStats?departmentId=${other}`, { cookie: session.cookie });
    expect(byQuery.json).toEqual({ catalogs: 1, categories: 0, products: 0 });
  });

  it('answers zeros for an empty department', async () => {
    const session = await makeSession();
    const res = await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie });
    expect(res.json).toEqual({ catalogs: 0, categories: 0, products: 0 });
  });

  it('answers 401 without a session cookie', async () => {
    const res = await call('GET', '/api/Catalog/GetStats');
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: 'not logged in', code: 'unauthorized' });
  });

  it('answers 403 for a department of another company', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    await makeCatalog(theirs);
    const res = await call('GET', `/api/Catalog/GetStats?departmentId=${theirs.departmentId}`, {
      cookie: session.cookie,
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('departmentId does not name a department of your company');
  });
});

describe('AddCatalog', () => {
  it('returns the stored catalog with its id, field by field', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, name: 'Elektro 2026', catalogType: 'full', catalogVersion: '1.0' },
    });
    expect(res.status).toBe(200);
    const body = res.json;
    expect(body.catalogId).toMatch(UUID);
    expect(body).toEqual({
      catalogId: body.catalogId,
      departmentId: session.departmentId,
      name: 'Elektro 2026',
      catalogType: 'full',
      catalogVersion: '1.0',
      description: null,
      language: 'deu',
      languages: ['deu'],
      currency: 'EUR',
      categoryCount: 0,
      productCount: 0,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
    });
    const stored = await call('GET', `/api/Catalog/GetCatalog?catalogId=${body.catalogId}`, { cookie: session.cookie });
    expect(stored.json).toEqual(body);
    const stats = await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie });
    expect(stats.json).toEqual({ catalogs: 1, categories: 0, products: 0 });
  });

  it('uses a catalogId the client chose, and answers 400 (an unusable id) when it is taken', async () => {
    const session = await makeSession();
    const catalogId = newId();
    const first = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId, name: 'One' },
    });
    expect(first.json.catalogId).toBe(catalogId);
    const again = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId, name: 'Two' },
    });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('catalogId: this id cannot be used; send a new UUIDv7 or leave it out');
    expect((await catalogsOf(session.cookie)).map((c) => c.name)).toEqual(['One']);
  });

  it('answers 401 without a cookie and creates nothing', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      body: { departmentId: session.departmentId, name: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('not logged in');
    expect(await catalogsOf(session.cookie)).toEqual([]);
  });

  it('answers 403 for a department of another company and creates nothing there', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const theirUser = await makeUser(theirs);
    const res = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      body: { departmentId: theirs.departmentId, name: 'Intruder' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('departmentId does not name a department of your company');
    expect(await catalogsOf(session.cookie)).toEqual([]);
    expect(await catalogsOf(await loginAs(theirUser.email))).toEqual([]);
  });

  it.each([
    ['a missing name', { departmentId: 'DEPT' }, 'name is required'],
    ['an empty name', { departmentId: 'DEPT', name: '   ' }, 'name: name must not be empty'],
    [
      'a name of the wrong type',
      { departmentId: 'DEPT', name: 42 },
      'name: Invalid input: expected string, received number',
    ],
    ['a missing departmentId', { name: 'x' }, 'departmentId is required'],
    ['a departmentId that is not a uuid', { departmentId: 'sales', name: 'x' }, 'departmentId: Invalid UUID'],
    ['an unknown field', { departmentId: 'DEPT', name: 'x', color: 'red' }, 'unknown field(s) color'],
    [
      'a bad currency',
      { departmentId: 'DEPT', name: 'x', currency: 'euro' },
      'currency: currency must be an ISO 4217 code such as EUR',
    ],
  ])('answers 400 for %s and creates nothing', async (_what, body, message) => {
    const session = await makeSession();
    const payload = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, v === 'DEPT' ? session.departmentId : v]),
    );
    const res = await call('POST', '/api/Catalog/AddCatalog', { cookie: session.cookie, body: payload });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(message);
    expect(await catalogsOf(session.cookie)).toEqual([]);
  });

  it('answers 400 for malformed JSON, 415 for a non-JSON body and 413 for a body over 1 MiB, creating nothing', async () => {
    const session = await makeSession();
    const malformed = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      rawBody: `{"departmentId":"${session.departmentId}","name":`,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error).toMatch(/malformed JSON/i);
    const form = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      rawBody: `departmentId=${session.departmentId}&name=x`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(form.json.error).toBe('Content-Type must be application/json');
    const huge = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, name: 'x', description: 'a'.repeat(1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    expect(huge.json.error).toMatch(/exceeds 1048576 bytes/);
    expect(await catalogsOf(session.cookie)).toEqual([]);
  });
});

describe('UpdateCatalog', () => {
  it('changes the given fields, keeps the others, and returns the stored catalog', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session, { catalogType: 'full', description: 'keep me', currency: 'CHF' });
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        name: 'Renamed',
        catalogVersion: '2.1',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ...catalog,
      name: 'Renamed',
      catalogVersion: '2.1',
      updatedAt: expect.stringMatching(ISO),
    });
    expect(res.json.updatedAt >= catalog.updatedAt).toBe(true);
    const stored = await call('GET', `/api/Catalog/GetCatalog?catalogId=${catalog.catalogId}`, {
      cookie: session.cookie,
    });
    expect(stored.json).toEqual(res.json);
  });

  it('moves the catalog to another department of the company', async () => {
    const session = await makeSession();
    const purchasing = await makeDepartment(session.companyId);
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: { departmentId: purchasing, catalogId: catalog.catalogId, name: catalog.name },
    });
    expect(res.json.departmentId).toBe(purchasing);
    expect((await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie })).json).toEqual({
      catalogs: 0,
      categories: 0,
      products: 0,
    });
    expect(
      (await call('GET', `/api/Catalog/GetStats?departmentId=${purchasing}`, { cookie: session.cookie })).json,
    ).toEqual({ catalogs: 1, categories: 0, products: 1 });
  });

  it('answers 400 without catalogId and changes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, name: 'No id' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('catalogId is required');
    expect(await catalogsOf(session.cookie)).toEqual([
      expect.objectContaining({ catalogId: catalog.catalogId, name: 'Test catalog' }),
    ]);
  });

  it('answers 404 for a catalog of another company and leaves it unchanged', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeCatalog(theirs, { name: 'Theirs' });
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: foreign.catalogId, name: 'hijack' },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
    expect(await getCatalog(db(), asActor(theirs), foreign.catalogId)).toEqual(foreign);
  });

  it('answers 403 when moving to a department of another company and leaves the catalog unchanged', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const catalog = await makeCatalog(session);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: { departmentId: theirs.departmentId, catalogId: catalog.catalogId, name: 'moved' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('departmentId does not name a department of your company');
    expect(await getCatalog(db(), session, catalog.catalogId)).toEqual(catalog);
  });

  it('answers 401 without a cookie and leaves the catalog unchanged', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, name: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('not logged in');
    expect(await getCatalog(db(), session, catalog.catalogId)).toEqual(catalog);
  });

  it('answers 400 for a name of the wrong type and leaves the catalog unchanged', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, name: ['x'] },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^name: /);
    expect(await getCatalog(db(), session, catalog.catalogId)).toEqual(catalog);
  });
});

describe('GetCatalogs, GetCatalog and DeleteCatalog', () => {
  it('pages through the catalogs of the company with a stable cursor', async () => {
    const session = await makeSession();
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await makeCatalog(session, { name: `C${i}` }));
    await makeCatalog(await makeCompany());
    const first = await call('GET', '/api/Catalog/GetCatalogs?limit=2', { cookie: session.cookie });
    expect(first.json.items.map((c: { name: string }) => c.name)).toEqual(['C0', 'C1']);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const second = await call('GET', `/api/Catalog/GetCatalogs?limit=2&cursor=${first.json.nextCursor}`, {
      cookie: session.cookie,
    });
    expect(second.json.items.map((c: { name: string }) => c.name)).toEqual(['C2', 'C3']);
    const third = await call('GET', `/api/Catalog/GetCatalogs?limit=2&cursor=${second.json.nextCursor}`, {
      cookie: session.cookie,
    });
    expect(third.json).toEqual({ items: [created[4]], nextCursor: null });
  });

  it('filters by department and answers 403 for a department of another company', async () => {
    const session = await makeSession();
    const purchasing = await makeDepartment(session.companyId);
    await makeCatalog(session, { name: 'Sales catalog' });
    const theirs = await makeCatalog(
      { companyId: session.companyId, departmentId: purchasing },
      { name: 'Purchasing catalog' },
    );
    const res = await call('GET', `/api/Catalog/GetCatalogs?departmentId=${purchasing}`, { cookie: session.cookie });
    expect(res.json).toEqual({ items: [theirs], nextCursor: null });
    const foreign = await call('GET', `/api/Catalog/GetCatalogs?departmentId=${(await makeCompany()).departmentId}`, {
      cookie: session.cookie,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error).toBe('departmentId does not name a department of your company');
  });

  it('answers 404 for GetCatalog of another company', async () => {
    const session = await makeSession();
    const foreign = await makeCatalog(await makeCompany());
    const res = await call('GET', `/api/Catalog/GetCatalog?catalogId=${foreign.catalogId}`, { cookie: session.cookie });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
  });

  it('deletes a catalog with its categories and products and updates the stats', async () => {
    const session = await makeSession();
    const keep = await makeCatalog(session, { name: 'Keep' });
    const doomed = await makeCatalog(session, { name: 'Doomed' });
    await makeCategory(session, doomed.catalogId);
    const product = await makeProduct(session, doomed.catalogId);
    await makeProduct(session, keep.catalogId);
    const res = await call('POST', '/api/Catalog/DeleteCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: doomed.catalogId },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ catalogId: doomed.catalogId, deleted: true });
    expect(
      (await call('GET', `/api/Catalog/GetCatalog?catalogId=${doomed.catalogId}`, { cookie: session.cookie })).status,
    ).toBe(404);
    expect(
      (await call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: session.cookie })).status,
    ).toBe(404);
    expect((await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie })).json).toEqual({
      catalogs: 1,
      categories: 0,
      products: 1,
    });
  });

  it('answers 404 when deleting a catalog of another company and keeps it', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeCatalog(theirs);
    const res = await call('POST', '/api/Catalog/DeleteCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: foreign.catalogId },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
    expect(await getCatalog(db(), asActor(theirs), foreign.catalogId)).toEqual(foreign);
  });
});
