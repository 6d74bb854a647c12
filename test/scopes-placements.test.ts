import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_SCOPE } from '../src/catalog/upsert/upsert-products';
import {
  type CountRow,
  countedCompletenessCounts,
  scopedCatalogCounts,
  scopedCategoryCounts,
  scopedCompletenessCounts,
} from '../src/db/scope-counts';
import type { ProductScope } from '../src/kernel/caller';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { waitForJob } from './helpers/completeness';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { importJobRow, putImportFile, runImportToEnd } from './helpers/import-fixtures';
import { scopedMember, scopeSetKept } from './helpers/members';
import { slowCatalogCounts, slowCategoryCounts } from './helpers/scope-counts';
import { tenantDigest } from './helpers/tenant-digest';
import { callTool, openSession } from './mcp-helpers';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * A member limited to category subtrees sets the placements inside them; the product's
 * placements outside are kept (docs/teams.md, "Placements outside a member's reach"): through
 * UpdateProduct (REST and /api/ai), UpsertProducts (REST and MCP) and a CSV import. A category
 * outside in the list stays 403 with nothing changed; an unscoped member's list is the whole set.
 * The kept counters of both members' scope sets stay exact.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catalogId: string;
/** A (the agency's brand) with A1 and A2 below it; B (another brand) with B1. */
const c: Record<'A' | 'A1' | 'A2' | 'B' | 'B1', string> = { A: '', A1: '', A2: '', B: '', B1: '' };
let agency: Awaited<ReturnType<typeof scopedMember>>;
let unscoped: Awaited<ReturnType<typeof scopedMember>>;
const scopeA: ProductScope = { catalogIds: [], categoryIds: [] };
const scopeB: ProductScope = { catalogIds: [], categoryIds: [] };

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catalogId = (await makeCatalog(t, { name: 'Agentur' })).catalogId;
  c.A = (await makeCategory(t, catalogId, { name: 'Brand A' })).categoryId;
  c.A1 = (await makeCategory(t, catalogId, { name: 'A lines', parentId: c.A })).categoryId;
  c.A2 = (await makeCategory(t, catalogId, { name: 'A tools', parentId: c.A })).categoryId;
  c.B = (await makeCategory(t, catalogId, { name: 'Brand B' })).categoryId;
  c.B1 = (await makeCategory(t, catalogId, { name: 'B lines', parentId: c.B })).categoryId;
  scopeA.categoryIds = [c.A];
  scopeB.categoryIds = [c.B];
  // a channel requiring a GTIN: every product has score rows the scope sets count too
  const channel = await post(admin.cookie, 'Catalog/AddChannel', {
    name: 'Shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect(channel.status, channel.text).toBe(200);
  expect((await waitForJob(admin.cookie, channel.json.jobId)).state).toBe('succeeded');
  agency = await scopedMember(admin.cookie, company, 'editor', { categoryIds: [c.A] });
  // another brand's member: their set counts the same products from the other side
  await scopedMember(admin.cookie, company, 'editor', { categoryIds: [c.B] });
  unscoped = await scopedMember(admin.cookie, company, 'editor');
  // both sets made and counted (SetMemberRole's background does it too): the writes below keep them
  for (const scope of [scopeA, scopeB]) await scopedCatalogCounts(db(), { ...company, productScope: scope });
}, 90_000);

/** A master placed in A1 (the agency's) and B1 (not theirs), with one variant. */
async function mixedProduct(sku: string) {
  const product = await makeProduct(admin.tenant, catalogId, {
    sku,
    name: `Schalter ${sku}`,
    categoryIds: [c.A1, c.B1],
  });
  await makeProduct(admin.tenant, catalogId, { sku: `${sku}-V`, parentId: product.productId });
  return product.productId;
}

const placementsOf = async (productId: string) =>
  [...(await get(admin.cookie, `Catalog/GetProduct?productId=${productId}`)).json.categoryIds].sort();
const sorted = (ids: string[]) => [...ids].sort();

const update = (cookie: string, productId: string, categoryIds: string[]) =>
  post(cookie, 'Catalog/UpdateProduct', { departmentId: company.departmentId, catalogId, productId, categoryIds });

const scoreRows = (rows: CountRow[]) => rows.map((r) => `${r.channelKey}/${r.lang}/${r.item}=${r.n}`).sort();

/**
 * The kept counters of both members' sets (read as kept: made, counted and not stale, so no
 * recount hides a wrong one) equal the counts made from the products, and the categories' own
 * placement counters equal their placements.
 */
async function expectCountsKept() {
  for (const scope of [scopeA, scopeB]) {
    expect(await scopeSetKept(company.companyId, scope.categoryIds)).toBe(true);
    const caller = { companyId: company.companyId, productScope: scope };
    const kept = Object.fromEntries(
      [...((await scopedCatalogCounts(db(), caller)) ?? new Map())].filter(([, n]) => n > 0),
    );
    expect(kept).toEqual(await slowCatalogCounts(company.companyId, scope.categoryIds));
    expect(Object.fromEntries((await scopedCategoryCounts(db(), caller, catalogId)) ?? new Map())).toEqual(
      await slowCategoryCounts(company.companyId, scope.categoryIds, catalogId),
    );
    expect(scoreRows((await scopedCompletenessCounts(db(), caller)) ?? [])).toEqual(
      scoreRows(await countedCompletenessCounts(db(), company.companyId, scope)),
    );
  }
  const stored = await db().all<{ id: string; kept: number; placed: number }>(sql`
    SELECT c.id, c.product_count AS kept, (SELECT count(*) FROM product_categories pc WHERE pc.category_id = c.id) AS placed
    FROM categories c WHERE c.catalog_id = ${catalogId}`);
  for (const row of stored) expect({ id: row.id, n: Number(row.kept) }).toEqual({ id: row.id, n: Number(row.placed) });
}

/** The agency's count of masters and variants in the catalog, from their kept counters. */
const agencyCount = async () =>
  (await scopedCatalogCounts(db(), { companyId: company.companyId, productScope: scopeA }))?.get(catalogId) ?? 0;

describe('UpdateProduct by a member limited to a category subtree', () => {
  it('sets the placements inside the subtree and keeps the one outside; recorded whole, counted right', async () => {
    const productId = await mixedProduct('MIX-1');
    await expectCountsKept();
    const res = await update(agency.cookie, productId, [c.A2]);
    expect(res.status, res.text).toBe(200);
    // the answer lists every placement, as the member's GetProduct does (a category is readable by id)
    expect(sorted(res.json.categoryIds)).toEqual(sorted([c.A2, c.B1]));
    const read = await get(agency.cookie, `Catalog/GetProduct?productId=${productId}`);
    expect(sorted(read.json.categoryIds)).toEqual(sorted([c.A2, c.B1]));
    expect(await placementsOf(productId)).toEqual(sorted([c.A2, c.B1]));
    // the version records the whole placements before and after
    const history = await get(admin.cookie, `Catalog/GetHistory?elementId=${productId}`);
    expect(history.json.items[0].changes).toEqual([
      { path: 'categories', before: sorted([c.A1, c.B1]), after: sorted([c.A2, c.B1]) },
    ]);
    await expectCountsKept();
    // the same list again changes nothing and records nothing
    const again = await update(agency.cookie, productId, [c.A2]);
    expect(again.status, again.text).toBe(200);
    const versions = (await get(admin.cookie, `Catalog/GetHistory?elementId=${productId}`)).json.items.length;
    expect(versions).toBe(history.json.items.length);
  });

  it('takes the product out of their reach with an empty list: only the placement outside remains', async () => {
    const productId = await mixedProduct('MIX-2');
    const before = await agencyCount();
    const res = await update(agency.cookie, productId, []);
    expect(res.status, res.text).toBe(200);
    expect(res.json.categoryIds).toEqual([c.B1]);
    expect(await placementsOf(productId)).toEqual([c.B1]);
    // no longer theirs: read as one that does not exist, counted out with its variant
    expect((await get(agency.cookie, `Catalog/GetProduct?productId=${productId}`)).status).toBe(404);
    expect(await agencyCount()).toBe(before - 2);
    await expectCountsKept();
  });

  it('refuses a list naming a category outside (403, naming nothing) and changes nothing', async () => {
    const productId = await mixedProduct('MIX-3');
    const digest = await tenantDigest([company.companyId]);
    // outside, outside beside one inside, and an id of nothing (answered alike: nothing is named)
    for (const categoryIds of [[c.B1], [c.A2, c.B1], [crypto.randomUUID()]]) {
      const res = await update(agency.cookie, productId, categoryIds);
      expect({ categoryIds, status: res.status, json: res.json }).toEqual({
        categoryIds,
        status: 403,
        json: { error: NOT_PERMITTED, code: 'forbidden' },
      });
    }
    expect(await tenantDigest([company.companyId])).toBe(digest);
    expect(await placementsOf(productId)).toEqual(sorted([c.A1, c.B1]));
  });

  it("replaces an unscoped member's placements whole, as ever", async () => {
    const productId = await mixedProduct('MIX-4');
    const res = await update(unscoped.cookie, productId, [c.A2]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.categoryIds).toEqual([c.A2]);
    expect(await placementsOf(productId)).toEqual([c.A2]);
    await expectCountsKept();
  });

  it('keeps the placement outside through /api/ai too', async () => {
    const productId = await mixedProduct('MIX-5');
    const token = (await tokensFor({ session: agency.cookie })).access_token;
    const res = await sendAgent('POST', '/api/ai/UpdateProduct', {
      token,
      json: { catalogId, productId, categoryIds: [c.A, c.A2] },
    });
    expect(res.status, res.text).toBe(200);
    expect(sorted(res.json.categoryIds)).toEqual(sorted([c.A, c.A2, c.B1]));
    expect(await placementsOf(productId)).toEqual(sorted([c.A, c.A2, c.B1]));
    const refused = await sendAgent('POST', '/api/ai/UpdateProduct', {
      token,
      json: { catalogId, productId, categoryIds: [c.B1] },
    });
    expect([refused.status, refused.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    expect(await placementsOf(productId)).toEqual(sorted([c.A, c.A2, c.B1]));
    await expectCountsKept();
  }, 60_000);
});

describe('upserts and imports by a member limited to a category subtree', () => {
  it("set a stored product's placements inside the subtree and keep the one outside (REST and MCP)", async () => {
    const rest = await mixedProduct('MIX-6');
    const mcp = await mixedProduct('MIX-7');
    const res = await post(agency.cookie, 'Catalog/UpsertProducts', {
      departmentId: company.departmentId,
      catalogId,
      items: [
        { sku: 'MIX-6', categoryIds: [c.A2] },
        // an empty list would take the master out of the subtree: an upsert item refuses it, as before
        { sku: 'MIX-7', categoryIds: [] },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.items.map((i: { status: string; error: string | null }) => [i.status, i.error])).toEqual([
      ['updated', null],
      ['error', OUTSIDE_SCOPE],
    ]);
    expect(await placementsOf(rest)).toEqual(sorted([c.A2, c.B1]));
    expect(await placementsOf(mcp)).toEqual(sorted([c.A1, c.B1]));
    const history = await get(admin.cookie, `Catalog/GetHistory?elementId=${rest}`);
    expect(history.json.items[0].changes).toEqual([
      { path: 'categories', before: sorted([c.A1, c.B1]), after: sorted([c.A2, c.B1]) },
    ]);

    const token = (await tokensFor({ session: agency.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(token);
    const tool = await callTool(token, sessionId, 'upsert_products', {
      departmentId: company.departmentId,
      catalogId,
      items: [{ sku: 'MIX-7', categoryIds: [c.A1, c.A2] }],
    });
    expect(tool.isError ?? false, tool.content[0]?.text).toBe(false);
    expect(tool.structuredContent.items[0].status).toBe('updated');
    expect(await placementsOf(mcp)).toEqual(sorted([c.A1, c.A2, c.B1]));
    await expectCountsKept();
  }, 60_000);

  it("set a stored product's placements inside the subtree from a CSV row, keeping the one outside", async () => {
    const productId = await mixedProduct('MIX-8');
    const fileId = await putImportFile(
      { ...company, userId: agency.userId },
      'sku,name,categories\r\nMIX-8,Schalter neu,Brand A > A tools\r\n',
      'agentur.csv',
    );
    const start = await post(agency.cookie, 'Import/StartImport', {
      departmentId: company.departmentId,
      catalogId,
      fileId,
    });
    expect(start.status, start.text).toBe(200);
    await runImportToEnd(start.json.jobId);
    const job = await importJobRow(start.json.jobId);
    expect(job.state).toBe('succeeded');
    // the row's own placement is the one counted as written
    expect(job.summary).toMatchObject({ updated: 1, rejected: 0, placements: 1 });
    expect(await placementsOf(productId)).toEqual(sorted([c.A2, c.B1]));
    await expectCountsKept();
  });
});
