import { describe, expect, it } from 'vitest';
import { makeCatalog, makeCompany, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';

describe('Catalog controller', () => {
  it('creates a catalog and counts it in GetStats', async () => {
    const company = await makeCompany();
    const user = await makeUser(company);
    const cookie = await loginAs(user.email);
    const add = await call('POST', '/api/Catalog/AddCatalog', { cookie, body: { departmentId: company.departmentId, name: 'Elektro 2026' } });
    expect(add.status).toBe(200);
    expect(add.json).toMatchObject({ name: 'Elektro 2026', departmentId: company.departmentId, productCount: 0 });
    const stats = await call('GET', '/api/Catalog/GetStats', { cookie });
    expect(stats.json).toEqual({ catalogs: 1, categories: 0, products: 0 });
  });

  it('answers 401 without a session cookie', async () => {
    const res = await call('GET', '/api/Catalog/GetStats');
    expect(res.status).toBe(401);
    expect(res.json.error).toMatch(/not logged in/);
  });

  it('answers 404 for a catalog of another company', async () => {
    const mine = await makeCompany();
    const theirs = await makeCompany();
    const user = await makeUser(mine);
    const foreign = await makeCatalog(theirs);
    const cookie = await loginAs(user.email);
    const res = await call('POST', '/api/Catalog/UpdateCatalog', {
      cookie,
      body: { departmentId: mine.departmentId, catalogId: foreign.catalogId, name: 'hijack' },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
  });
});
