import { beforeAll, describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { REFERENCE_TYPES } from '../src/catalog/references/reference-rules';
import type { Caller } from '../src/kernel/caller';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { EXPORT_CATEGORY_OUTSIDE } from '../src/db/product-scope';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession, makeUser } from './helpers/factories';
import { loginAs, getApi as get, postApi as post } from './helpers/http';
import { type MemberScopes, scopedMember } from './helpers/members';
import { tenantDigest } from './helpers/tenant-digest';
import { waitForJob } from './helpers/completeness';
import { parseCsv } from './helpers/csv';
import { callTool, openSession, toolError } from './mcp-helpers';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * Catalog, category-subtree and channel scopes (docs/teams.md): an agency editor limited to one
 * brand's subtree sees, finds and writes only its products, on the web, through `/api/ai` and
 * over MCP; a catalog scope; a reviewer and a publisher limited to one channel.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catA: string;
let catB: string;
let brand: string;
let other: string;
/** IN-1 in the brand's subcategory; OUT-1 in another category; OUT-2 unplaced; B-1 in catalog B. */
const ids: Record<string, string> = {};
let channels: { first: string; second: string };

const skus = (res: { json: { items: { sku: string }[] } }) => res.json.items.map((p) => p.sku).sort();

/** A member of the company, given `role` and `scopes` by the admin; their session cookie. */
const member = (role: string, scopes: MemberScopes, options: { aiSwitch?: boolean } = {}) =>
  scopedMember(admin.cookie, company, role, scopes, { aiSwitch: options.aiSwitch ?? false });

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catA = (await makeCatalog(t, { name: 'A' })).catalogId;
  catB = (await makeCatalog(t, { name: 'B' })).catalogId;
  brand = (await makeCategory(t, catA, { name: 'Brand' })).categoryId;
  const sub = (await makeCategory(t, catA, { name: 'Brand lines', parentId: brand })).categoryId;
  other = (await makeCategory(t, catA, { name: 'Other brand' })).categoryId;
  const product = async (catalogId: string, sku: string, categoryIds: string[] = []) =>
    (ids[sku] = (await makeProduct(t, catalogId, { sku, name: `Schalter ${sku}`, categoryIds })).productId);
  await product(catA, 'IN-1', [sub]);
  await product(catA, 'OUT-1', [other]);
  await product(catA, 'OUT-2');
  await product(catB, 'B-1');
  const channel = async (name: string) =>
    (await post(admin.cookie, 'Catalog/AddChannel', { name, languages: ['deu'], requirements: [] })).json.channelId;
  channels = { first: await channel('Shop'), second: await channel('Marketplace') };
}, 60_000);

describe('setting scopes', () => {
  it('sets catalog, category and channel scopes, records them, and lists them', async () => {
    const user = await makeUser(company);
    const body = { userId: user.userId, role: 'editor', categoryIds: [brand], channelIds: [channels.first] };
    const set = await post(admin.cookie, 'Account/SetMemberRole', body);
    expect(set.json).toMatchObject({
      categoryIds: [brand],
      catalogIds: [],
      channelIds: [channels.first],
      changed: true,
    });
    expect((await post(admin.cookie, 'Account/SetMemberRole', body)).json.changed).toBe(false);
    const log = await get(admin.cookie, `Account/GetMemberChanges?userId=${user.userId}`);
    expect(log.json.items).toHaveLength(1);
    expect(log.json.items[0].changes).toContainEqual({ path: 'categoryIds', before: [], after: [brand] });
    expect(log.json.items[0].changes).toContainEqual({ path: 'channelIds', before: [], after: [channels.first] });
    const users = await get(admin.cookie, 'Account/GetUsers');
    expect(users.json.items.find((u: { userId: string }) => u.userId === user.userId)).toMatchObject({
      categoryIds: [brand],
      channelIds: [channels.first],
    });
    const me = await get(await loginAs(user.email), 'Account/Me');
    expect(me.json).toMatchObject({ catalogIds: [], categoryIds: [brand], channelIds: [channels.first] });
    // a role change that names no scope (the Administration screen's) keeps them; [] clears one; an admin keeps none
    const kept = await post(admin.cookie, 'Account/SetMemberRole', { userId: user.userId, role: 'publisher' });
    expect(kept.json).toMatchObject({ role: 'publisher', categoryIds: [brand], channelIds: [channels.first] });
    const cleared = await post(admin.cookie, 'Account/SetMemberRole', {
      userId: user.userId,
      role: 'publisher',
      categoryIds: [],
    });
    expect(cleared.json).toMatchObject({ categoryIds: [], channelIds: [channels.first] });
    const promoted = await post(admin.cookie, 'Account/SetMemberRole', { userId: user.userId, role: 'admin' });
    expect(promoted.json).toMatchObject({ role: 'admin', categoryIds: [], channelIds: [] });
  });

  it("refuses ids that are not the company's, and a scope for an admin, with nothing changed", async () => {
    const user = await makeUser(company);
    const stranger = await makeSession({ role: 'admin' });
    const foreign = (await makeCategory(stranger.tenant, (await makeCatalog(stranger.tenant)).catalogId)).categoryId;
    const before = await tenantDigest([company.companyId]);
    const cases = [
      [{ categoryIds: [foreign] }, 404, 'categoryIds[0]: category not found'],
      [{ catalogIds: [catA, crypto.randomUUID()] }, 404, 'catalogIds[1]: catalog not found'],
      [{ channelIds: [crypto.randomUUID()] }, 404, 'channelIds[0]: channel not found'],
      [{ role: 'admin', catalogIds: [catA] }, 400, 'catalogIds: a company admin acts on the whole company'],
      [{ categoryIds: ['not-an-id'] }, 400, 'categoryIds'],
    ] as const;
    for (const [scopes, status, message] of cases) {
      const res = await post(admin.cookie, 'Account/SetMemberRole', { userId: user.userId, role: 'editor', ...scopes });
      expect({ status: res.status, scopes }).toEqual({ status, scopes });
      expect(res.json.error).toContain(message);
    }
    expect(await tenantDigest([company.companyId])).toBe(before);
  });
});

describe('an agency editor limited to one category subtree', () => {
  let agency: Awaited<ReturnType<typeof member>>;
  beforeAll(async () => {
    agency = await member('editor', { categoryIds: [brand] }, { aiSwitch: true });
  });

  it('lists, searches and walks only the products placed in the subtree', async () => {
    expect(skus(await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}`))).toEqual(['IN-1']);
    expect(skus(await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}&q=Schalter`))).toEqual(['IN-1']);
    expect(skus(await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}&q=OUT`))).toEqual([]);
    expect(skus(await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}&categoryId=${other}`))).toEqual([]);
    expect(skus(await get(agency.cookie, `Catalog/GetProducts?catalogId=${catB}`))).toEqual([]);
    // the admin sees every product of the catalog
    expect(skus(await get(admin.cookie, `Catalog/GetProducts?catalogId=${catA}`))).toEqual(['IN-1', 'OUT-1', 'OUT-2']);
  });

  it('leaves the rest out of every plan of the list: the table walked, the search broad or selective, each order', async () => {
    const caller: Caller = {
      ...asActor(company),
      userId: agency.userId,
      productScope: { catalogIds: [], categoryIds: [brand] },
    };
    const plans = [
      { options: { driveLimit: 0 }, input: {} },
      { options: { driveLimit: 0 }, input: { sort: 'name' as const } },
      { options: { rankLimit: 0, driveLimit: 0 }, input: { q: 'Schalter' } },
      { options: { rankLimit: 0, driveLimit: 0 }, input: { q: 'Schalter', sort: 'name' as const } },
      { options: { rankLimit: 0 }, input: { q: 'Schalter', sort: 'sku' as const } },
      { options: {}, input: { q: 'Schalter' } },
      { options: {}, input: { sort: 'updatedAt' as const, order: 'desc' as const } },
    ];
    for (const { options, input } of plans) {
      const page = await listProducts(db(), caller, { catalogId: catA, limit: 50, ...input }, options);
      expect({ input, options, skus: page.items.map((p) => p.sku) }).toEqual({ input, options, skus: ['IN-1'] });
    }
  });

  it('reads a product outside as one that does not exist (404), inside as before', async () => {
    const outside = await get(agency.cookie, `Catalog/GetProduct?productId=${ids['OUT-1']}`);
    const unknown = await get(agency.cookie, `Catalog/GetProduct?productId=${crypto.randomUUID()}`);
    expect([outside.status, outside.json]).toEqual([unknown.status, unknown.json]);
    expect(outside.status).toBe(404);
    expect((await get(agency.cookie, `Catalog/GetProduct?productId=${ids['IN-1']}`)).status).toBe(200);
    expect((await get(agency.cookie, `Catalog/GetProduct?productId=${ids['B-1']}`)).status).toBe(404);
  });

  it('is refused every write outside the scope before validation, with nothing changed, and writes inside', async () => {
    const before = await tenantDigest([company.companyId]);
    const refused = [
      ['Catalog/UpdateProduct', { productId: ids['OUT-1'], unknownField: true }],
      ['Catalog/SetValue', { elementId: ids['OUT-2'], field: 'name', value: 'x', departmentId: company.departmentId }],
      ['Catalog/SetValue', { elementId: crypto.randomUUID(), field: 'name', value: 'x' }],
      ['Catalog/AddProduct', { catalogId: catA, sku: 'NEW-1', name: 'x', departmentId: company.departmentId }],
      ['Catalog/UpdateProduct', { productId: ids['IN-1'], categoryIds: [other] }],
    ] as const;
    for (const [path, body] of refused) {
      const res = await post(agency.cookie, path, body);
      expect({ path, body, status: res.status, json: res.json }).toEqual({
        path,
        body,
        status: 403,
        json: { error: NOT_PERMITTED, code: 'forbidden' },
      });
    }
    expect(await tenantDigest([company.companyId])).toBe(before);
    const inside = await post(agency.cookie, 'Catalog/SetValue', {
      elementId: ids['IN-1'],
      field: 'name',
      value: 'Schalter neu',
      departmentId: company.departmentId,
    });
    expect(inside.status, inside.text).toBe(200);
    const read = await get(agency.cookie, `Catalog/GetProduct?productId=${ids['IN-1']}`);
    expect(read.json.name).toBe('Schalter neu');
    // UpdateProduct names the product's catalog too: judged by the product
    const update = await post(agency.cookie, 'Catalog/UpdateProduct', {
      departmentId: company.departmentId,
      catalogId: catA,
      productId: ids['IN-1'],
      name: 'Schalter neu',
      sku: 'IN-1',
    });
    expect(update.status, update.text).toBe(200);
  });

  it('finds only its products in a review inbox and in the changes feed', async () => {
    const channelId = (
      await post(admin.cookie, 'Catalog/AddChannel', { name: 'Review', languages: ['deu'], requirements: [] })
    ).json.channelId;
    const on = await post(admin.cookie, 'Catalog/SetChannelReview', {
      channelId,
      enabled: true,
      rule: { kind: 'any' },
    });
    expect(on.status, on.text).toBe(200);
    const submit = await post(admin.cookie, 'Catalog/SubmitForReview', {
      channelId,
      productIds: [ids['IN-1'], ids['OUT-1']],
    });
    expect(submit.status, submit.text).toBe(200);
    const mixed = await post(agency.cookie, 'Catalog/SubmitForReview', {
      channelId,
      productIds: [ids['IN-1'], ids['OUT-2']],
    });
    expect([mixed.status, mixed.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    expect(skus(await get(admin.cookie, `Catalog/GetReviewInbox?channelId=${channelId}`))).toEqual(['IN-1', 'OUT-1']);
    expect(skus(await get(agency.cookie, `Catalog/GetReviewInbox?channelId=${channelId}`))).toEqual(['IN-1']);
    // the changes feed lists only its products' changes (test/scopes-feed.test.ts)
    const feed = await get(agency.cookie, 'Changes/GetChanges?limit=100');
    expect(feed.status, feed.text).toBe(200);
    const changed = feed.json.items.map((c: { elementId: string }) => c.elementId);
    expect(changed).toContain(ids['IN-1']);
    for (const sku of ['OUT-1', 'OUT-2', 'B-1']) expect(changed).not.toContain(ids[sku]);
    const all = (await get(admin.cookie, 'Changes/GetChanges?limit=100')).json.items;
    expect(all.map((c: { elementId: string }) => c.elementId)).toContain(ids['OUT-1']);
  });

  it('lists only its incomplete products for a channel', async () => {
    const added = await post(admin.cookie, 'Catalog/AddChannel', {
      name: 'Gtin shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'gtin' }],
    });
    expect(added.status, added.text).toBe(200);
    expect((await waitForJob(admin.cookie, added.json.jobId)).state).toBe('succeeded');
    const listed = (cookie: string) => get(cookie, 'Catalog/GetIncompleteProducts?channel=Gtin%20shop');
    expect(skus(await listed(admin.cookie))).toEqual(['B-1', 'IN-1', 'OUT-1', 'OUT-2']);
    expect(skus(await listed(agency.cookie))).toEqual(['IN-1']);
  });

  it('sees no product outside the scope among references, as target or referrer', async () => {
    const refer = async (from: string, to: string) => {
      const res = await post(admin.cookie, 'Catalog/SetReferences', {
        departmentId: company.departmentId,
        productId: ids[from],
        references: [{ type: REFERENCE_TYPES[0], targetSku: to }],
      });
      expect(res.status, res.text).toBe(200);
    };
    await refer('IN-1', 'OUT-1');
    await refer('OUT-2', 'IN-1');
    const all = (await get(admin.cookie, `Catalog/GetReferences?productId=${ids['IN-1']}`)).json;
    expect([all.outgoing[0].targetProductId, all.incoming.map((r: { sku: string }) => r.sku)]).toEqual([
      ids['OUT-1'],
      ['OUT-2'],
    ]);
    const scoped = (await get(agency.cookie, `Catalog/GetReferences?productId=${ids['IN-1']}`)).json;
    expect(scoped.outgoing[0]).toMatchObject({
      targetSku: 'OUT-1',
      targetProductId: null,
      targetName: null,
      pending: true,
    });
    expect(scoped.incoming).toEqual([]);
  });

  it('is held to the same scope through /api/ai and MCP', async () => {
    const token = (await tokensFor({ session: agency.cookie })).access_token;
    const list = await sendAgent('GET', `/api/ai/GetProducts?catalogId=${catA}&q=Schalter`, { token });
    expect(list.status, list.text).toBe(200);
    expect(skus(list as never)).toEqual(['IN-1']);
    const read = await sendAgent('GET', `/api/ai/GetProduct?productId=${ids['OUT-1']}`, { token });
    expect(read.status).toBe(404);
    const write = await sendAgent('POST', '/api/ai/SetValue', {
      token,
      json: { elementId: ids['OUT-1'], field: 'name', value: 'x' },
    });
    expect([write.status, write.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);

    const mcpToken = (await tokensFor({ session: agency.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(mcpToken);
    const found = await callTool(mcpToken, sessionId, 'search_products', { catalogId: catA, query: 'Schalter' });
    expect(found.isError ?? false, found.content[0]?.text).toBe(false);
    expect(found.structuredContent.items.map((p: { sku: string }) => p.sku)).toEqual(['IN-1']);
    const hidden = await callTool(mcpToken, sessionId, 'get_product', { productId: ids['OUT-1'] });
    expect(toolError(hidden)).toMatchObject({ error: 'product not found' });
    const shown = await callTool(mcpToken, sessionId, 'get_product', { productId: ids['IN-1'] });
    expect(shown.isError ?? false).toBe(false);
  }, 60_000);
});

describe('a catalog scope', () => {
  it('shows and lets write the whole catalog, and nothing of another', async () => {
    const scoped = await member('editor', { catalogIds: [catB] });
    expect(skus(await get(scoped.cookie, `Catalog/GetProducts?catalogId=${catB}`))).toEqual(['B-1']);
    expect(skus(await get(scoped.cookie, `Catalog/GetProducts?catalogId=${catA}&q=Schalter`))).toEqual([]);
    expect((await get(scoped.cookie, `Catalog/GetProduct?productId=${ids['IN-1']}`)).status).toBe(404);
    const added = await post(scoped.cookie, 'Catalog/AddProduct', {
      catalogId: catB,
      sku: 'B-2',
      name: 'Schalter B-2',
      departmentId: company.departmentId,
    });
    expect(added.status, added.text).toBe(200);
    const refused = await post(scoped.cookie, 'Catalog/AddProduct', {
      catalogId: catA,
      sku: 'A-9',
      name: 'x',
      departmentId: company.departmentId,
    });
    expect([refused.status, refused.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
  });
});

describe('exports of a category-scoped publisher', () => {
  it('write their subtree without a template or through one of its categories, and are refused a template of another', async () => {
    const publisher = await member('publisher', { categoryIds: [brand] });
    const start = (templateId?: string) =>
      post(publisher.cookie, 'Export/StartExport', {
        departmentId: company.departmentId,
        catalogId: catA,
        ...(templateId ? { templateId } : {}),
      });
    const template = async (categoryId: string) => {
      const res = await post(admin.cookie, 'Export/AddTemplate', {
        name: `Subtree ${categoryId.slice(-4)}`,
        exportType: 'BMEcat',
        options: { categoryId },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.templateId as string;
    };
    // a BMEcat template of another category: refused, saying what may be exported
    const refused = await start(await template(other));
    expect([refused.status, refused.json]).toEqual([403, { error: EXPORT_CATEGORY_OUTSIDE, code: 'forbidden' }]);
    // without a template, a CSV template without a category subset, a template of their subtree:
    // each file holds the subtree's product only (IN-1's reference to OUT-1 is its own data and may name its SKU)
    const csv = await post(admin.cookie, 'Export/AddTemplate', { name: 'Csv', exportType: 'CSV', options: {} });
    expect(csv.status, csv.text).toBe(200);
    for (const own of [await start(), await start(csv.json.templateId), await start(await template(brand))]) {
      expect(own.status, own.text).toBe(200);
      const job = await waitForJob(publisher.cookie, own.json.jobId);
      expect(job.state, job.error).toBe('succeeded');
      const file = await get(publisher.cookie, `Export/Download?jobId=${own.json.jobId}`);
      const written = file.text.startsWith('<?xml')
        ? [...file.text.matchAll(/<SUPPLIER_PID>([^<]+)</g)].map((m) => m[1])
        : parseCsv(file.text.replace(/^\uFEFF/, ''))
            .slice(1)
            .map((row) => row[3]);
      expect(written).toContain('IN-1');
      expect(written.filter((sku) => !sku?.startsWith('IN-'))).toEqual([]);
    }
  });
});

describe('a channel scope', () => {
  it('lets a reviewer decide only in their channels', async () => {
    const reviewer = await member('reviewer', { channelIds: [channels.first] });
    const outside = await post(reviewer.cookie, 'Catalog/ApproveProducts', {
      channelId: channels.second,
      productIds: [ids['IN-1']],
    });
    expect([outside.status, outside.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    // inside the scope the decision goes on to the channel's own rules: review is off there (409)
    const inside = await post(reviewer.cookie, 'Catalog/ApproveProducts', {
      channelId: channels.first,
      productIds: [ids['IN-1']],
    });
    expect(inside.status, inside.text).toBe(409);
  });

  it('lets a publisher export only through a template of their channels', async () => {
    const publisher = await member('publisher', { channelIds: [channels.first] });
    const plain = await post(publisher.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
    });
    expect([plain.status, plain.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    const template = async (channelId: string) =>
      (
        await post(admin.cookie, 'Export/AddTemplate', {
          name: `Template ${channelId.slice(-4)}`,
          exportType: 'BMEcat',
          options: { channelId },
        })
      ).json.templateId as string;
    const other = await post(publisher.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
      templateId: await template(channels.second),
    });
    expect([other.status, other.json]).toEqual([403, { error: NOT_PERMITTED, code: 'forbidden' }]);
    const own = await post(publisher.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
      templateId: await template(channels.first),
    });
    expect(own.status, own.text).toBe(200);
  });
});
