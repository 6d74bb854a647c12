import { beforeAll, describe, expect, it } from 'vitest';
import { makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { type MemberScopes, scopedMember } from './helpers/members';
import { waitForJob } from './helpers/completeness';

/**
 * Counts narrowed to a member's product scope (docs/teams.md, "Counts"): catalogs, the category
 * tree, GetStats and the completeness overview, trend and summary count only the member's
 * products; the admin's counts are the company's counters.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catA: string;
let catB: string;
let brand: string;
let sub: string;
let other: string;
let channelId: string;

const member = (role: string, scopes: MemberScopes) => scopedMember(admin.cookie, company, role, scopes);

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catA = (await makeCatalog(t, { name: 'A' })).catalogId;
  catB = (await makeCatalog(t, { name: 'B' })).catalogId;
  brand = (await makeCategory(t, catA, { name: 'Brand' })).categoryId;
  sub = (await makeCategory(t, catA, { name: 'Brand lines', parentId: brand })).categoryId;
  other = (await makeCategory(t, catA, { name: 'Other brand' })).categoryId;
  // IN-1 (with a variant) in the subcategory; IN-2 in the brand and in the other category; OUT-1, OUT-2 and B-1 outside
  const in1 = (await makeProduct(t, catA, { sku: 'IN-1', name: 'In one', categoryIds: [sub] })).productId;
  await makeProduct(t, catA, { sku: 'IN-1-V', name: 'In one variant', parentId: in1 });
  await makeProduct(t, catA, { sku: 'IN-2', name: 'In two', categoryIds: [brand, other], gtin: '4006381333931' });
  await makeProduct(t, catA, { sku: 'OUT-1', name: 'Out one', categoryIds: [other], gtin: '4006381333948' });
  await makeProduct(t, catA, { sku: 'OUT-2', name: 'Out two' });
  await makeProduct(t, catB, { sku: 'B-1', name: 'B one' });
  const added = await post(admin.cookie, 'Catalog/AddChannel', {
    name: 'Gtin shop',
    languages: ['deu'],
    requirements: [{ kind: 'field', field: 'gtin' }],
  });
  expect(added.status, added.text).toBe(200);
  channelId = added.json.channelId;
  expect((await waitForJob(admin.cookie, added.json.jobId)).state).toBe('succeeded');
}, 60_000);

const catalogCounts = async (cookie: string) =>
  Object.fromEntries(
    (await get(cookie, 'Catalog/GetCatalogs')).json.items.map((c: { name: string; productCount: number }) => [
      c.name,
      c.productCount,
    ]),
  );

/** name -> [productCount, subtreeProductCount] over the whole tree. */
async function treeCounts(cookie: string) {
  const tree = await get(cookie, `Catalog/GetCategoryTree?catalogId=${catA}`);
  expect(tree.status, tree.text).toBe(200);
  type Node = { name: string; productCount: number; subtreeProductCount: number; children: Node[] };
  const out: Record<string, number[]> = {};
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      out[n.name] = [n.productCount, n.subtreeProductCount];
      walk(n.children);
    }
  };
  walk(tree.json.items);
  return out;
}

describe('counts of a member limited to a category subtree', () => {
  let agency: Awaited<ReturnType<typeof member>>;
  beforeAll(async () => {
    agency = await member('editor', { categoryIds: [brand] });
  });

  it('counts the products of catalogs and GetStats: only theirs (variants with their master)', async () => {
    expect(await catalogCounts(admin.cookie)).toEqual({ A: 5, B: 1 });
    expect(await catalogCounts(agency.cookie)).toEqual({ A: 3, B: 0 });
    expect((await get(agency.cookie, `Catalog/GetCatalog?catalogId=${catA}`)).json.productCount).toBe(3);
    expect((await get(agency.cookie, `Catalog/GetCatalog?catalogId=${catB}`)).json.productCount).toBe(0);
    expect((await get(admin.cookie, 'Catalog/GetStats')).json).toMatchObject({ catalogs: 2, products: 6 });
    expect((await get(agency.cookie, 'Catalog/GetStats')).json).toMatchObject({ catalogs: 2, products: 3 });
  });

  it('counts placements in the tree of their products only, in every category', async () => {
    expect(await treeCounts(admin.cookie)).toEqual({
      Brand: [1, 2],
      'Brand lines': [1, 1],
      'Other brand': [2, 2],
    });
    // the tree lists their subtree only (scopes-tree.test.ts); IN-2 is placed in the other
    // category too: it counts there (GetCategory below), OUT-1 does not
    expect(await treeCounts(agency.cookie)).toEqual({
      Brand: [1, 2],
      'Brand lines': [1, 1],
    });
    const top = await get(agency.cookie, `Catalog/GetCategories?catalogId=${catA}`);
    const byName = Object.fromEntries(
      top.json.items.map((c: { name: string; productCount: number; subtreeProductCount: number }) => [
        c.name,
        [c.productCount, c.subtreeProductCount],
      ]),
    );
    expect(byName).toEqual({ Brand: [1, 2] });
    expect((await get(admin.cookie, `Catalog/GetCategory?categoryId=${other}`)).json.productCount).toBe(2);
    expect((await get(agency.cookie, `Catalog/GetCategory?categoryId=${other}`)).json.productCount).toBe(1);
    expect((await get(agency.cookie, `Catalog/GetCategory?categoryId=${sub}`)).json.productCount).toBe(1);
  });

  it('counts completeness (overview, summary, trend) over their products only', async () => {
    const overview = async (cookie: string) => {
      const res = await get(cookie, 'Catalog/GetCompletenessOverview');
      expect(res.status, res.text).toBe(200);
      return res.json.items.find((i: { channelId: string }) => i.channelId === channelId);
    };
    // the company: 5 masters scored (IN-1, IN-2, OUT-1, OUT-2, B-1), 2 with a GTIN; one variant
    expect(await overview(admin.cookie)).toMatchObject({
      products: 5,
      complete: 2,
      missing: [{ requirement: 'gtin', products: 3 }],
      variants: 1,
    });
    // the member: IN-1 (no GTIN) and IN-2 (complete), IN-1's variant
    expect(await overview(agency.cookie)).toMatchObject({
      products: 2,
      complete: 1,
      averageScore: 50,
      missing: [{ requirement: 'gtin', products: 1 }],
      variants: 1,
    });
    const incomplete = await get(agency.cookie, `Catalog/GetIncompleteProducts?channel=${channelId}`);
    expect(incomplete.json.summary).toEqual([expect.objectContaining({ products: 2, complete: 1 })]);
    const trend = async (cookie: string) =>
      (await get(cookie, `Catalog/GetCompletenessTrend?channel=${channelId}&days=7`)).json.items[0].points;
    const adminPoints = await trend(admin.cookie);
    expect(adminPoints.at(-1)).toMatchObject({ products: 5, complete: 2 });
    // their scope set's series (migration 0090) starts the day the set was first counted, today
    // here: one point, their products only (past days: test/scopes-trend.test.ts)
    const points = await trend(agency.cookie);
    expect(points).toHaveLength(1);
    expect(points[0]).toMatchObject({ products: 2, complete: 1, averageScore: 50 });
  });
});

describe('counts of a member limited to a catalog', () => {
  it('are the catalog counters for their catalog and nothing for another', async () => {
    const scoped = await member('viewer', { catalogIds: [catB] });
    expect(await catalogCounts(scoped.cookie)).toEqual({ A: 0, B: 1 });
    expect((await get(scoped.cookie, 'Catalog/GetStats')).json).toMatchObject({ products: 1 });
    // no category of a catalog outside their scope is listed (scopes-tree.test.ts)
    expect(await treeCounts(scoped.cookie)).toEqual({});
    const overview = (await get(scoped.cookie, 'Catalog/GetCompletenessOverview')).json.items.find(
      (i: { channelId: string }) => i.channelId === channelId,
    );
    expect(overview).toMatchObject({ products: 1, complete: 0, variants: 0 });
  });
});
