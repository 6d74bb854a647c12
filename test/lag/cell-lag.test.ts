/**
 * Read-your-writes for a company placed in cell-2, whose database has its own lagging copy
 * (vitest.lag.config.ts binds CELL_2_REPLICA_SIM). As in read-your-writes.test.ts, each test
 * first shows the read without the bookmark is stale, then that the bookmark (which names the
 * cell: `cell-2:sim-...`) makes it fresh.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { makeCompany, makeUser } from '../helpers/factories';
import { call, loginAs } from '../helpers/http';
import { allInSync, placeLagging } from './lag-cells';

const BOOKMARK = 'x-d1-bookmark';

/** A web user of a fresh company in cell-2 with one product named 'before', replicas in sync. */
async function cell2Tenant() {
  const company = await makeCompany();
  const user = await makeUser(company, { aiSwitch: true });
  await placeLagging(company.companyId, 'cell-2');
  await allInSync();
  const cookie = await loginAs(user.email);
  const catalog = await call('POST', '/api/Catalog/AddCatalog', {
    cookie,
    body: { departmentId: company.departmentId, name: 'Lagging cell-2 catalog' },
  });
  expect(catalog.status, catalog.text).toBe(200);
  const product = await call('POST', '/api/Catalog/AddProduct', {
    cookie,
    headers: { [BOOKMARK]: catalog.headers.get(BOOKMARK)! },
    body: { departmentId: company.departmentId, catalogId: catalog.json.catalogId, sku: 'LAG-C2', name: 'before' },
  });
  expect(product.status, product.text).toBe(200);
  await allInSync();
  return {
    cookie,
    departmentId: company.departmentId,
    catalogId: catalog.json.catalogId,
    productId: product.json.productId,
  };
}

const getName = async (cookie: string, productId: string, bookmark?: string) => {
  const res = await call('GET', `/api/Catalog/GetProduct?productId=${productId}`, {
    cookie,
    headers: bookmark ? { [BOOKMARK]: bookmark } : {},
  });
  expect(res.status, res.text).toBe(200);
  return res.json.name as string;
};

describe('a company in cell-2 under lag', () => {
  it('REST: the write answers a cell-2 bookmark; without it the read is stale, with it fresh', async () => {
    const t = await cell2Tenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { departmentId: t.departmentId, catalogId: t.catalogId, productId: t.productId, name: 'after' },
    });
    expect(updated.status, updated.text).toBe(200);
    const bookmark = updated.headers.get(BOOKMARK)!;
    expect(bookmark).toMatch(/^cell-2:sim-[0-9a-f]{12}$/);

    expect(await getName(t.cookie, t.productId)).toBe('before');
    expect(await getName(t.cookie, t.productId, bookmark)).toBe('after');
    // The write went to cell-2's primary and never to cell-1.
    const inCell2 = await env.CELL_2.prepare('SELECT name FROM products WHERE id = ?').bind(t.productId).first();
    expect(inCell2).toEqual({ name: 'after' });
    expect(await env.DB.prepare('SELECT 1 FROM products WHERE id = ?').bind(t.productId).first()).toBeNull();
  });

  it('a list of bookmarks, one per database (the web app after a company switch), makes each cell fresh', async () => {
    const t = await cell2Tenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { departmentId: t.departmentId, catalogId: t.catalogId, productId: t.productId, name: 'after' },
    });
    const cell2 = updated.headers.get(BOOKMARK)!;
    const cell1 = (await call('GET', '/api/Account/Me', { cookie: t.cookie })).headers.get(BOOKMARK)!;
    expect(cell1).toMatch(/^sim-/);
    expect(await getName(t.cookie, t.productId, `${cell1}, garbage`)).toBe('before');
    expect(await getName(t.cookie, t.productId, `${cell1}, ${cell2}`)).toBe('after');
  });

  it("a bookmark of cell-1 does not make cell-2's read fresh (it names another database)", async () => {
    const t = await cell2Tenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { departmentId: t.departmentId, catalogId: t.catalogId, productId: t.productId, name: 'after' },
    });
    const bookmark = updated.headers.get(BOOKMARK)!;
    const bare = bookmark.slice('cell-2:'.length);
    expect(await getName(t.cookie, t.productId, bare)).toBe('before');
    expect(await getName(t.cookie, t.productId, bookmark)).toBe('after');
  });

  it('a job started with the bookmark finds its job row and data in cell-2', async () => {
    const t = await cell2Tenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: t.cookie,
      body: { departmentId: t.departmentId, catalogId: t.catalogId, productId: t.productId, name: 'x' },
    });
    const started = await call('POST', '/api/Catalog/StartMassEdit', {
      cookie: t.cookie,
      headers: { [BOOKMARK]: updated.headers.get(BOOKMARK)! },
      body: {
        departmentId: t.departmentId,
        catalogId: t.catalogId,
        productIds: [t.productId],
        field: 'status',
        value: 'discontinued',
      },
    });
    expect(started.status, started.text).toBe(200);
    // Watched on cell-2's primary itself, so the test never brings the replica forward for the job.
    let state = 'queued';
    for (let i = 0; i < 100 && (state === 'queued' || state === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await env.CELL_2.prepare('SELECT state FROM jobs WHERE id = ?')
        .bind(started.json.jobId)
        .first<{ state: string }>();
      state = row!.state;
    }
    expect(state).toBe('succeeded');
    const final = await env.CELL_2.prepare('SELECT status, name FROM products WHERE id = ?').bind(t.productId).first();
    expect(final).toEqual({ status: 'discontinued', name: 'x' });
  });
});
