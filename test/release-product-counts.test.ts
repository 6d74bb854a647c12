import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { releaseListQuery } from '../src/releases/release-queries';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { loadRelease } from './helpers/release-fixtures';
import { etimIxfFile } from './helpers/release-ixf-fixture';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** Two loaded ETIM IXF releases with random names, loaded by the first session's company. */
async function twoReleases(s: Session) {
  const t = crypto.randomUUID().slice(0, 8);
  const who = { companyId: s.companyId, departmentId: s.departmentId, userId: s.userId };
  for (const v of [`a${t}`, `b${t}`]) {
    const { job } = await loadRelease(who, { system: 'ETIM', version: v, format: 'ETIM_XML', files: etimIxfFile() });
    expect(job!.state, job!.error ?? '').toBe('succeeded');
  }
  return [`ETIM-a${t}`, `ETIM-b${t}`] as const;
}

const classify = async (s: Session, elementId: string, release: string) => {
  const res = await call('POST', '/api/Classification/SetElementClassification', {
    cookie: s.cookie,
    body: {
      departmentId: s.departmentId,
      elementId,
      classes: [{ group: 'ETIM', code: 'EC000905', release }],
      features: [],
    },
  });
  expect(res.status, res.text).toBe(200);
};

/** The release list as the session's company sees it: release name -> products. */
const counts = async (s: Session) => {
  const res = await call('GET', '/api/Classification/GetReleases', { cookie: s.cookie });
  expect(res.status, res.text).toBe(200);
  return Object.fromEntries(
    (res.json.items as { release: string; products: number }[]).map((r) => [r.release, r.products]),
  );
};

describe('per-release product counts in the release list', () => {
  it("counts the caller's company's classified products per release, kept by every classification write", async () => {
    const a = await makeSession({ role: 'admin' });
    const b = await makeSession({ role: 'admin' });
    const [r1, r2] = await twoReleases(a);
    const catalog = await makeCatalog(a.tenant);
    const p1 = await makeProduct(a.tenant, catalog.catalogId);
    const p2 = await makeProduct(a.tenant, catalog.catalogId);
    const p3 = await makeProduct(a.tenant, catalog.catalogId);
    await classify(a, p1.productId, r1);
    await classify(a, p2.productId, r1);
    await classify(a, p3.productId, r2);
    // A category classified on the release is no product: not counted.
    const category = await makeCategory(a.tenant, catalog.catalogId);
    await classify(a, category.categoryId, r1);
    // Another company's product counts for that company only.
    const other = await makeProduct(b.tenant, (await makeCatalog(b.tenant)).catalogId);
    await classify(b, other.productId, r1);
    expect(await counts(a)).toMatchObject({ [r1]: 2, [r2]: 1 });
    expect(await counts(b)).toMatchObject({ [r1]: 1, [r2]: 0 });

    // Moving a product to the other release moves its count.
    await classify(a, p2.productId, r2);
    expect(await counts(a)).toMatchObject({ [r1]: 1, [r2]: 2 });
    // Removing a classification and deleting a product take theirs away.
    const removed = await call('POST', '/api/Classification/DeleteElementClassification', {
      cookie: a.cookie,
      body: { departmentId: a.departmentId, elementId: p1.productId },
    });
    expect(removed.status, removed.text).toBe(200);
    const deleted = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: a.cookie,
      body: { departmentId: a.departmentId, productId: p3.productId },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await counts(a)).toMatchObject({ [r1]: 0, [r2]: 1 });
    expect(await counts(b)).toMatchObject({ [r1]: 1 });
  });

  it('the list reads the counter by its primary key (EXPLAIN QUERY PLAN), not the classifications', async () => {
    const a = await makeSession();
    const query = releaseListQuery(db(), a).toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const details = plan.results.map((p) => p.detail).join('\n');
    expect(details).toMatch(/SEARCH release_product_counts USING PRIMARY KEY \(company_id=\? AND release=\?\)/);
    expect(details).not.toMatch(/classification_link/);
  });
});
