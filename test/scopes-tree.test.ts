import { beforeAll, describe, expect, it } from 'vitest';
import { makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { type MemberScopes, scopedMember } from './helpers/members';
import { callTool, openSession } from './mcp-helpers';
import { tokensFor } from './oauth-helpers';

/**
 * The category tree of a member limited to category subtrees (docs/teams.md, "The category tree
 * of a scoped member"): GetCategoryTree, GetCategories and SearchCategories list their subtrees
 * and, marked `outsideScope`, the categories above them; nothing else of the catalog. GetCategory
 * of any category of the company still answers (a direct read, as the access summary needs).
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catA: string;
let catB: string;
const ids: Record<string, string> = {};

const get = (cookie: string, path: string) => call('GET', `/api/${path}`, { cookie });
const member = (scopes: MemberScopes) => scopedMember(admin.cookie, company, 'editor', scopes);

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catA = (await makeCatalog(t, { name: 'A' })).catalogId;
  catB = (await makeCatalog(t, { name: 'B' })).catalogId;
  // Brand › Lines › Deep, Brand › Other line, Other brand; B › Kept
  const add = async (catalogId: string, name: string, parent?: string) => {
    ids[name] = (await makeCategory(t, catalogId, { name, parentId: parent ? ids[parent] : undefined })).categoryId;
  };
  await add(catA, 'Brand');
  await add(catA, 'Lines', 'Brand');
  await add(catA, 'Deep', 'Lines');
  await add(catA, 'Other line', 'Brand');
  await add(catA, 'Other brand');
  await add(catB, 'Kept');
  await makeProduct(t, catA, { sku: 'DEEP-1', name: 'Deep one', categoryIds: [ids.Deep!] });
  await makeProduct(t, catA, { sku: 'OTHER-1', name: 'Other one', categoryIds: [ids['Other line']!] });
});

interface TreeNode {
  name: string;
  outsideScope?: true;
  productCount: number;
  subtreeProductCount: number;
  children: TreeNode[];
}

/** The tree as nested names, a context category as "(name)", with its subtree count. */
async function shape(cookie: string, catalogId = catA) {
  const res = await get(cookie, `Catalog/GetCategoryTree?catalogId=${catalogId}`);
  expect(res.status, res.text).toBe(200);
  const walk = (nodes: TreeNode[]): unknown[] =>
    nodes.map((n) => {
      const name = `${n.outsideScope ? `(${n.name})` : n.name} ${n.subtreeProductCount}`;
      return n.children.length ? { [name]: walk(n.children) } : name;
    });
  return walk(res.json.items);
}

const level = async (cookie: string, parent?: string, catalogId = catA) => {
  const res = await get(
    cookie,
    `Catalog/GetCategories?catalogId=${catalogId}${parent ? `&parentId=${ids[parent]}` : ''}`,
  );
  expect(res.status, res.text).toBe(200);
  return res.json.items.map((c: { name: string; outsideScope?: true }) => (c.outsideScope ? `(${c.name})` : c.name));
};

const search = async (cookie: string, q: string) => {
  const res = await get(cookie, `Catalog/SearchCategories?catalogId=${catA}&q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return res.json.items.map((c: { name: string; path: { name: string }[] }) => c.path.map((p) => p.name).join(' › '));
};

describe('the category tree of a member limited to a subtree', () => {
  let agency: Awaited<ReturnType<typeof member>>;
  beforeAll(async () => {
    agency = await member({ categoryIds: [ids.Lines!] });
  });

  it('lists their subtree below the path above it, marked, and nothing else', async () => {
    expect(await shape(admin.cookie)).toEqual([
      { 'Brand 2': [{ 'Lines 1': ['Deep 1'] }, 'Other line 1'] },
      'Other brand 0',
    ]);
    // the brand is context: its other line and the other brand are not listed; counts are the member's
    expect(await shape(agency.cookie)).toEqual([{ '(Brand) 1': [{ 'Lines 1': ['Deep 1'] }] }]);
  });

  it('lists each level the same way, and nothing below a category outside', async () => {
    expect(await level(agency.cookie)).toEqual(['(Brand)']);
    expect(await level(agency.cookie, 'Brand')).toEqual(['Lines']);
    expect(await level(agency.cookie, 'Lines')).toEqual(['Deep']);
    expect(await level(agency.cookie, 'Other brand')).toEqual([]);
    expect(await level(admin.cookie, 'Brand')).toEqual(['Lines', 'Other line']);
  });

  it('finds the categories of their subtree only, each with the path above it', async () => {
    expect(await search(admin.cookie, 'line')).toEqual(['Brand › Lines', 'Brand › Other line']);
    expect(await search(agency.cookie, 'line')).toEqual(['Brand › Lines']);
    expect(await search(agency.cookie, 'deep')).toEqual(['Brand › Lines › Deep']);
    // the context category and the categories outside are no hits
    expect(await search(agency.cookie, 'brand')).toEqual([]);
  });

  it("lists their agent the same levels over MCP's list_categories", async () => {
    const token = (await tokensFor({ session: agency.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(token);
    const names = async (parentId?: string) => {
      const res = await callTool(token, sessionId, 'list_categories', {
        catalogId: catA,
        ...(parentId ? { parentId } : {}),
      });
      expect(res.isError ?? false, res.content[0]?.text).toBe(false);
      return res.structuredContent.items.map((c: { name: string; outsideScope?: true }) =>
        c.outsideScope ? `(${c.name})` : c.name,
      );
    };
    expect(await names()).toEqual(['(Brand)']);
    expect(await names(ids.Brand)).toEqual(['Lines']);
    expect(await names(ids['Other brand'])).toEqual([]);
  }, 60_000);

  it('still answers a direct read of a category outside (GetCategory), its count narrowed', async () => {
    const res = await get(agency.cookie, `Catalog/GetCategory?categoryId=${ids['Other line']}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ name: 'Other line', productCount: 0 });
  });
});

describe('the tree of other scopes', () => {
  it('lists two subtrees side by side, and a subtree inside another as one', async () => {
    const two = await member({ categoryIds: [ids.Lines!, ids['Other brand']!] });
    expect(await shape(two.cookie)).toEqual([{ '(Brand) 1': [{ 'Lines 1': ['Deep 1'] }] }, 'Other brand 0']);
    const nested = await member({ categoryIds: [ids.Brand!, ids.Deep!] });
    expect(await shape(nested.cookie)).toEqual([{ 'Brand 2': [{ 'Lines 1': ['Deep 1'] }, 'Other line 1'] }]);
  });

  it('lists no category of another catalog to a member limited to catalogs, every category of theirs', async () => {
    const scoped = await member({ catalogIds: [catB] });
    expect(await shape(scoped.cookie)).toEqual([]);
    expect(await level(scoped.cookie)).toEqual([]);
    expect(await search(scoped.cookie, 'line')).toEqual([]);
    expect(await shape(scoped.cookie, catB)).toEqual(['Kept 0']);
  });

  it('lists a catalog named by the scope whole, even with subtrees of another catalog', async () => {
    const both = await member({ catalogIds: [catB], categoryIds: [ids.Deep!] });
    expect(await shape(both.cookie, catB)).toEqual(['Kept 0']);
    expect(await shape(both.cookie)).toEqual([{ '(Brand) 1': [{ '(Lines) 1': ['Deep 1'] }] }]);
  });
});

describe("a scoped member's reach made from the loaded tree (GetCategoryTree)", () => {
  it('is the reach the statement finds, for random trees and scopes', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const other = await makeCatalog(session);
    const tree: { id: string; parentId: string | null }[] = [];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 40; i++) {
      const parent = tree.length > 0 && random(4) > 0 ? tree[random(tree.length)]!.id : undefined;
      const { categoryId } = await makeCategory(session, catalog.catalogId, { name: `C${i}`, parentId: parent });
      tree.push({ id: categoryId, parentId: parent ?? null });
    }
    const elsewhere = (await makeCategory(session, other.catalogId, { name: 'Elsewhere' })).categoryId;
    const { categoryReach, categoryReachIn } = await import('../src/catalog/category-reach');
    const { db } = await import('./helpers/factories');
    const sorted = (reach: { inside: ReadonlySet<string>; context: ReadonlySet<string> } | null) =>
      reach && { inside: [...reach.inside].sort(), context: [...reach.context].sort() };
    for (let round = 0; round < 25; round++) {
      const roots = Array.from({ length: 1 + random(3) }, () => tree[random(tree.length)]!.id);
      if (round % 5 === 0) roots.push(elsewhere);
      const caller = { companyId: session.companyId, productScope: { catalogIds: [], categoryIds: roots } };
      expect(sorted(categoryReachIn(caller, catalog.catalogId, tree))).toEqual(
        sorted(await categoryReach(db(), caller, catalog.catalogId)),
      );
    }
    const whole = { companyId: session.companyId, productScope: { catalogIds: [catalog.catalogId], categoryIds: [] } };
    expect(categoryReachIn(whole, catalog.catalogId, tree)).toBeNull();
  });
});
