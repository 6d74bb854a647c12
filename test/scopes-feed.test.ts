import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../src/kernel/caller';
import { getChanges } from '../src/history/changes-feed';
import { asActor, db, makeCatalog, makeCategory, makeProduct, makeSession, makeUser } from './helpers/factories';
import { loginAs, getApi as get, postApi as post } from './helpers/http';
import { waitForJob } from './helpers/completeness';
import { insertImportJob, putImportFile } from './helpers/import-fixtures';
import { EXPORT_CATEGORY_OUTSIDE, goneProductInScopeSql } from '../src/db/product-scope';
import { callTool, openSession } from './mcp-helpers';
import { send as sendAgent, tokensFor } from './oauth-helpers';

/**
 * A member with a category scope (docs/teams.md): the changes feed lists only their products'
 * changes (deletes of products that were in scope included) on REST, /api/ai and MCP, in
 * bounded steps; the history of a deleted product outside is 404; jobs, export files and import
 * reports of other members are 404 and not listed.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let company: { companyId: string; departmentId: string };
let catA: string;
let brand: string;
let other: string;
const ids: Record<string, string> = {};
let agency: { userId: string; email: string; cookie: string };

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  company = { companyId: admin.companyId, departmentId: admin.departmentId };
  const t = admin.tenant;
  catA = (await makeCatalog(t, { name: 'A' })).catalogId;
  brand = (await makeCategory(t, catA, { name: 'Brand' })).categoryId;
  const sub = (await makeCategory(t, catA, { name: 'Brand lines', parentId: brand })).categoryId;
  other = (await makeCategory(t, catA, { name: 'Other brand' })).categoryId;
  const product = async (sku: string, categoryIds: string[] = [], parentId?: string) =>
    (ids[sku] = (await makeProduct(t, catA, { sku, name: `Schalter ${sku}`, categoryIds, parentId })).productId);
  await product('IN-1', [sub]);
  await product('IN-1-V', [], ids['IN-1']);
  await product('OUT-1', [other]);
  await product('OUT-2');
  await product('IN-DEL', [sub]);
  await product('OUT-DEL', [other]);
  for (const sku of ['IN-DEL', 'OUT-DEL']) {
    const res = await post(admin.cookie, 'Catalog/DeleteProduct', {
      departmentId: company.departmentId,
      productId: ids[sku],
    });
    expect(res.status, res.text).toBe(200);
  }
  const set = await makeUser(company);
  const role = await post(admin.cookie, 'Account/SetMemberRole', {
    userId: set.userId,
    role: 'editor',
    categoryIds: [brand],
  });
  expect(role.status, role.text).toBe(200);
  agency = { ...set, cookie: await loginAs(set.email) };
}, 60_000);

type Change = { elementId: string; elementKind: string; action: string };
const productChanges = (items: Change[]) =>
  items
    .filter((c) => c.elementKind === 'product' || c.elementKind === 'variant')
    .map((c) => `${Object.entries(ids).find(([, id]) => id === c.elementId)?.[0] ?? c.elementId}:${c.action}`)
    .sort();

describe('the changes feed of a category-scoped member', () => {
  it('lists the changes of their products, deletes of products in scope included, and of the tree', async () => {
    const all = await get(admin.cookie, 'Changes/GetChanges?limit=100');
    expect(productChanges(all.json.items)).toEqual([
      'IN-1-V:create',
      'IN-1:create',
      'IN-1:update',
      'IN-DEL:create',
      'IN-DEL:delete',
      'OUT-1:create',
      'OUT-2:create',
      'OUT-DEL:create',
      'OUT-DEL:delete',
    ]);
    const scoped = await get(agency.cookie, 'Changes/GetChanges?limit=100');
    expect(scoped.status, scoped.text).toBe(200);
    expect(productChanges(scoped.json.items)).toEqual([
      'IN-1-V:create',
      'IN-1:create',
      'IN-1:update',
      'IN-DEL:create',
      'IN-DEL:delete',
    ]);
    expect(scoped.json.hasMore).toBe(false);
    // the tree is not hidden: catalog and category changes are listed as for the admin
    const kinds = (items: Change[]) => items.filter((c) => c.elementKind === 'category').length;
    expect(kinds(scoped.json.items)).toBe(kinds(all.json.items));
    // the cursor goes on from there: a change outside adds nothing, one inside is listed
    const rename = async (sku: string) => {
      const res = await post(admin.cookie, 'Catalog/SetValue', {
        departmentId: company.departmentId,
        elementId: ids[sku],
        field: 'name',
        value: 'Neu',
      });
      expect(res.status, res.text).toBe(200);
    };
    await rename('OUT-1');
    const after = await get(agency.cookie, `Changes/GetChanges?since=${encodeURIComponent(scoped.json.cursor)}`);
    expect(after.json.items).toEqual([]);
    await rename('IN-1');
    const next = await get(agency.cookie, `Changes/GetChanges?since=${encodeURIComponent(after.json.cursor)}`);
    expect(productChanges(next.json.items)).toEqual(['IN-1:update']);
  });

  it('pages in bounded windows: a page may hold fewer changes, the cursor still moves on', async () => {
    const caller: Caller = {
      ...asActor(company),
      userId: agency.userId,
      productScope: { catalogIds: [], categoryIds: [brand] },
    };
    const full = await getChanges(db(), caller, { limit: 100 });
    const seen: Change[] = [];
    let since: string | undefined;
    let pages = 0;
    for (;;) {
      const page = await getChanges(db(), caller, { since, limit: 2 }, { scan: 3 });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...(page.items as Change[]));
      since = page.cursor;
      pages++;
      if (!page.hasMore) break;
      expect(pages).toBeLessThan(100);
    }
    expect(seen.map((c) => c.elementId)).toEqual((full.items as Change[]).map((c) => c.elementId));
    expect(pages).toBeGreaterThan(Math.ceil(full.items.length / 2));
  });

  it('answers include=events with the events of their products only, in the same order as the changes', async () => {
    const start = (await get(admin.cookie, 'Changes/GetChanges?limit=1000')).json.cursor;
    // events as the review and completeness writes record them (migration 0069 publishes each to the feed)
    for (const [sku, type] of [
      ['OUT-1', 'review.submitted'],
      ['IN-1', 'review.submitted'],
      ['IN-1', 'completeness.reached'],
    ])
      await env.DB.prepare('INSERT INTO domain_events (company_id, event_type, order_key, data) VALUES (?, ?, ?, ?)')
        .bind(company.companyId, type, ids[sku!], JSON.stringify({ productId: ids[sku!], sku }))
        .run();
    const since = encodeURIComponent(start);
    const all = await get(admin.cookie, `Changes/GetChanges?include=events&since=${since}`);
    expect(all.json.items.map((e: { data: { sku: string } }) => e.data.sku)).toEqual(['OUT-1', 'IN-1', 'IN-1']);
    const scoped = await get(agency.cookie, `Changes/GetChanges?include=events&since=${since}`);
    expect(scoped.status, scoped.text).toBe(200);
    expect(scoped.json.items.map((e: { type: string; data: { sku: string } }) => [e.type, e.data.sku])).toEqual([
      ['review.submitted', 'IN-1'],
      ['completeness.reached', 'IN-1'],
    ]);
    expect(scoped.json.cursor).toBe(all.json.cursor);
    // without include the same window holds no item for them
    expect((await get(agency.cookie, `Changes/GetChanges?since=${since}`)).json.items).toEqual([]);
  });

  it('is the same through /api/ai and MCP', async () => {
    const token = (await tokensFor({ session: agency.cookie })).access_token;
    const feed = await sendAgent('GET', '/api/ai/GetChanges?limit=100', { token });
    expect(feed.status, feed.text).toBe(200);
    expect(productChanges(feed.json.items)).not.toContain('OUT-1:create');
    expect(productChanges(feed.json.items)).toContain('IN-DEL:delete');
    const mcpToken = (await tokensFor({ session: agency.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(mcpToken);
    const tool = await callTool(mcpToken, sessionId, 'get_changes', { limit: 100 });
    expect(tool.isError ?? false, tool.content[0]?.text).toBe(false);
    const changes = productChanges(tool.structuredContent.items);
    expect(changes).toContain('IN-DEL:delete');
    expect(changes.filter((c) => c.startsWith('OUT'))).toEqual([]);
  }, 60_000);
});

describe('history, jobs and files of a category-scoped member', () => {
  it('reads the history of a deleted product that was in scope, and 404 for one outside', async () => {
    const inside = await get(agency.cookie, `Catalog/GetHistory?elementId=${ids['IN-DEL']}`);
    expect(inside.status, inside.text).toBe(200);
    expect(inside.json.items.map((v: { action: string }) => v.action)).toEqual(['delete', 'create']);
    expect((await get(admin.cookie, `Catalog/GetHistory?elementId=${ids['OUT-DEL']}`)).status).toBe(200);
    const outside = await get(agency.cookie, `Catalog/GetHistory?elementId=${ids['OUT-DEL']}`);
    const unknown = await get(agency.cookie, `Catalog/GetHistory?elementId=${crypto.randomUUID()}`);
    expect([outside.status, outside.json]).toEqual([unknown.status, unknown.json]);
    expect(outside.status).toBe(404);
  });

  it("sees only their own jobs, export files and import reports: another member's are 404", async () => {
    const exported = await post(admin.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
    });
    expect(exported.status, exported.text).toBe(200);
    const jobId = exported.json.jobId as string;
    expect((await waitForJob(admin.cookie, jobId)).state).toBe('succeeded');
    expect((await get(admin.cookie, `Export/Download?jobId=${jobId}`)).status).toBe(200);
    const unknown = await get(agency.cookie, `Job/GetJob?jobId=${crypto.randomUUID()}`);
    const job = await get(agency.cookie, `Job/GetJob?jobId=${jobId}`);
    expect([job.status, job.json]).toEqual([unknown.status, unknown.json]);
    expect(job.status).toBe(404);
    expect((await get(agency.cookie, `Export/Download?jobId=${jobId}`)).status).toBe(404);
    const jobIds = async (cookie: string) =>
      (await get(cookie, 'Job/GetJobs?limit=100')).json.items.map((j: { jobId: string }) => j.jobId);
    expect(await jobIds(admin.cookie)).toContain(jobId);
    expect(await jobIds(agency.cookie)).not.toContain(jobId);
    // their own export (through a BMEcat template of their subtree) they see and download
    const template = await post(admin.cookie, 'Export/AddTemplate', {
      name: 'Brand subtree',
      exportType: 'BMEcat',
      options: { categoryId: brand },
    });
    const own = await post(agency.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
      templateId: template.json.templateId,
    });
    expect(own.status, own.text).toBe(200);
    expect((await waitForJob(agency.cookie, own.json.jobId)).state).toBe('succeeded');
    expect(await jobIds(agency.cookie)).toEqual([own.json.jobId]);
    expect((await get(agency.cookie, `Export/Download?jobId=${own.json.jobId}`)).status).toBe(200);
    // another member's import: not listed, its page and report 404
    const fileId = await putImportFile(admin.tenant, 'sku;name\nX-1;x\n', 'x.csv');
    const importId = await insertImportJob(admin.tenant, { catalogId: catA, fileId });
    const listed = async (cookie: string) =>
      (await get(cookie, 'Import/GetImports')).json.items.map((i: { jobId: string }) => i.jobId);
    expect(await listed(admin.cookie)).toContain(importId);
    expect(await listed(agency.cookie)).toEqual([]);
    expect((await get(admin.cookie, `Import/GetImport?jobId=${importId}`)).status).toBe(200);
    expect((await get(agency.cookie, `Import/GetImport?jobId=${importId}`)).status).toBe(404);
    expect((await get(agency.cookie, `Import/DownloadReport?jobId=${importId}`)).status).toBe(404);
    expect((await get(admin.cookie, `Import/DownloadReport?jobId=${importId}`)).status).toBe(409);
  });
});

describe('creating products in the subtree', () => {
  it('adds a product placed in a scoped category, and is refused one unplaced or placed outside', async () => {
    const add = (sku: string, categoryIds?: string[]) =>
      post(agency.cookie, 'Catalog/AddProduct', {
        departmentId: company.departmentId,
        catalogId: catA,
        sku,
        name: `Schalter ${sku}`,
        ...(categoryIds ? { categoryIds } : {}),
      });
    for (const res of [await add('NEW-0'), await add('NEW-0', [other]), await add('NEW-0', [brand, other])])
      expect([res.status, res.json]).toEqual([403, { error: 'your role does not permit this', code: 'forbidden' }]);
    const added = await add('NEW-1', [brand]);
    expect(added.status, added.text).toBe(200);
    const read = await get(agency.cookie, `Catalog/GetProduct?productId=${added.json.productId}`);
    expect(read.status, read.text).toBe(200);
    const listed = await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}&q=NEW`);
    expect(listed.json.items.map((p: { sku: string }) => p.sku)).toEqual(['NEW-1']);
  });
});

describe('publishing a whole catalog with a category scope', () => {
  it('is refused with a message saying what the scope permits, naming no data', async () => {
    const { assertCatalogInScope, WHOLE_CATALOG_ONLY } = await import('../src/db/product-scope');
    const scoped = (productScope: { catalogIds: string[]; categoryIds: string[] }) => ({
      companyId: 'c',
      productScope,
    });
    expect(() => assertCatalogInScope(scoped({ catalogIds: [], categoryIds: [brand] }), catA)).toThrow(
      WHOLE_CATALOG_ONLY,
    );
    expect(() => assertCatalogInScope(scoped({ catalogIds: ['other'], categoryIds: [] }), catA)).toThrow(
      'your role does not permit this',
    );
    expect(() => assertCatalogInScope(scoped({ catalogIds: [catA], categoryIds: [brand] }), catA)).not.toThrow();
  });
});

describe('upserts of a category-scoped member', () => {
  const OUTSIDE = 'outside your scope: a product you write must be placed in a category of your scope';

  it('writes the items in the subtree and answers each item outside with an error, writing nothing of it', async () => {
    const res = await post(agency.cookie, 'Catalog/UpsertProducts', {
      departmentId: company.departmentId,
      catalogId: catA,
      items: [
        { sku: 'IN-1', name: 'Schalter oben', variants: [{ sku: 'IN-1-V2', name: 'Variante' }] },
        { sku: 'OUT-1', name: 'x' },
        { sku: 'OUT-2', name: 'x', categoryIds: [brand] },
        { sku: 'UP-1', name: 'Neu eins', categoryIds: [brand] },
        { sku: 'UP-2', name: 'Unplaced' },
        { sku: 'UP-3', name: 'Elsewhere', categoryIds: [other] },
        { sku: 'UP-4', name: 'Unknown', categoryIds: [crypto.randomUUID()] },
        { sku: 'OUT-1-V', name: 'x', variants: [] },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const answers = res.json.items.map(
      (i: { sku: string; status: string; field: string | null; error: string | null }) => [
        i.sku,
        i.status,
        i.field,
        i.error,
      ],
    );
    expect(answers).toEqual([
      ['IN-1', 'updated', null, null],
      ['OUT-1', 'error', 'sku', OUTSIDE],
      ['OUT-2', 'error', 'sku', OUTSIDE],
      ['UP-1', 'created', null, null],
      ['UP-2', 'error', 'sku', OUTSIDE],
      ['UP-3', 'error', 'categoryIds', OUTSIDE],
      ['UP-4', 'error', 'categoryIds', expect.any(String)],
      ['OUT-1-V', 'error', 'sku', OUTSIDE],
    ]);
    expect(res.json.items[0].variants).toEqual([expect.objectContaining({ sku: 'IN-1-V2', status: 'created' })]);
    // nothing outside changed: OUT-1's name and OUT-2's placements are the admin's
    const out1 = await get(admin.cookie, `Catalog/GetProduct?productId=${ids['OUT-1']}`);
    expect(out1.json.name).not.toBe('x');
    const out2 = await get(admin.cookie, `Catalog/GetProduct?productId=${ids['OUT-2']}`);
    expect(out2.json.name).toBe('Schalter OUT-2');
    const mine = await get(agency.cookie, `Catalog/GetProducts?catalogId=${catA}&q=Neu%20eins`);
    expect(mine.json.items.map((p: { sku: string }) => p.sku)).toEqual(['UP-1']);
  });

  it('is the same over MCP upsert_products, and a catalog-scoped member of another catalog is refused whole', async () => {
    const mcpToken = (await tokensFor({ session: agency.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(mcpToken);
    const tool = await callTool(mcpToken, sessionId, 'upsert_products', {
      departmentId: company.departmentId,
      catalogId: catA,
      items: [
        { sku: 'UP-5', name: 'Neu fuenf', categoryIds: [brand] },
        { sku: 'OUT-1', name: 'y' },
      ],
    });
    expect(tool.isError ?? false, tool.content[0]?.text).toBe(false);
    expect(tool.structuredContent.items.map((i: { status: string }) => i.status)).toEqual(['created', 'error']);
    const catalogB = (await makeCatalog(admin.tenant, { name: 'B' })).catalogId;
    const user = await makeUser(company);
    await post(admin.cookie, 'Account/SetMemberRole', { userId: user.userId, role: 'editor', catalogIds: [catalogB] });
    const refused = await post(await loginAs(user.email), 'Catalog/UpsertProducts', {
      departmentId: company.departmentId,
      catalogId: catA,
      items: 'not even a list',
    });
    expect([refused.status, refused.json]).toEqual([
      403,
      { error: 'your role does not permit this', code: 'forbidden' },
    ]);
  }, 60_000);
});

describe('CSV and ETIM xChange exports of a subtree', () => {
  it('export only the products placed in the template category, for a member of that subtree', async () => {
    const template = async (exportType: string, categoryId: string) => {
      const res = await post(admin.cookie, 'Export/AddTemplate', {
        name: `${exportType} ${categoryId.slice(-6)}`,
        exportType,
        options: { categoryId },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.templateId as string;
    };
    const start = (templateId: string) =>
      post(agency.cookie, 'Export/StartExport', { departmentId: company.departmentId, catalogId: catA, templateId });
    const refused = await start(await template('CSV', other));
    expect([refused.status, refused.json.error]).toEqual([403, EXPORT_CATEGORY_OUTSIDE]);
    for (const exportType of ['CSV', 'ETIMxChange']) {
      const started = await start(await template(exportType, brand));
      expect(started.status, started.text).toBe(200);
      const job = await waitForJob(agency.cookie, started.json.jobId);
      expect({ exportType, state: job.state, error: job.error }).toEqual({
        exportType,
        state: 'succeeded',
        error: null,
      });
      // the progress total counts the subtree's rows, never the catalog's (IN-1, its two variants, NEW-1, UP-1, UP-5)
      expect({ exportType, total: job.progress.total }).toEqual({ exportType, total: 6 });
      const file = await get(agency.cookie, `Export/Download?jobId=${started.json.jobId}`);
      expect(file.status).toBe(200);
      expect({ exportType, inside: file.text.includes('IN-1') && file.text.includes('UP-1') }).toEqual({
        exportType,
        inside: true,
      });
      expect({ exportType, outside: /OUT-[12]/.test(file.text) }).toEqual({ exportType, outside: false });
    }
    // the admin's CSV export of the whole catalog has them all
    const whole = await post(admin.cookie, 'Export/StartExport', {
      departmentId: company.departmentId,
      catalogId: catA,
      exportType: 'CSV',
    });
    expect((await waitForJob(admin.cookie, whole.json.jobId)).state).toBe('succeeded');
    expect((await get(admin.cookie, `Export/Download?jobId=${whole.json.jobId}`)).text).toMatch(/OUT-1/);
  }, 60_000);
});

/**
 * Deletes judged by the catalog and master each product version records (migration 0088,
 * docs/teams.md "The changes feed"): an unplaced master of a scoped catalog, a variant deleted
 * alone (its master in scope now) and a variant gone with its master (the master's recorded
 * placements). Their own company, so the admin's feed holds only these.
 */
describe('deletes judged by the recorded catalog and master', () => {
  let owner: Admin;
  const el: Record<string, string> = {};
  const members: Record<string, { userId: string; cookie: string }> = {};
  let foreign: Record<string, string>;

  const nameOf = (id: string) => Object.entries(el).find(([, v]) => v === id)?.[0] ?? `?${id}`;
  const changesOf = (items: Change[]) =>
    items
      .filter((c) => c.elementKind === 'product' || c.elementKind === 'variant')
      .map((c) => `${nameOf(c.elementId)}:${c.action}`)
      .sort();
  const del = async (cookie: string, departmentId: string, productId: string) => {
    const res = await post(cookie, 'Catalog/DeleteProduct', { departmentId, productId });
    expect(res.status, res.text).toBe(200);
  };
  const feedOf = async (cookie: string) => {
    const res = await get(cookie, 'Changes/GetChanges?limit=100');
    expect(res.status, res.text).toBe(200);
    expect(res.json.hasMore).toBe(false);
    return res.json.items as Change[];
  };

  beforeAll(async () => {
    owner = await makeSession({ role: 'admin' });
    const t = owner.tenant;
    const k1 = (await makeCatalog(t, { name: 'K1' })).catalogId;
    const k2 = (await makeCatalog(t, { name: 'K2' })).catalogId;
    const root1 = (await makeCategory(t, k1, { name: 'Root 1' })).categoryId;
    const sub1 = (await makeCategory(t, k1, { name: 'Sub 1', parentId: root1 })).categoryId;
    const root2 = (await makeCategory(t, k1, { name: 'Root 2' })).categoryId;
    const add = async (name: string, catalogId: string, categoryIds: string[] = [], parentId?: string) =>
      (el[name] = (await makeProduct(t, catalogId, { sku: name, categoryIds, parentId })).productId);
    await add('UNPLACED', k1);
    await add('UNPLACED-K2', k2);
    await add('M-IN', k1, [sub1]);
    await add('V-ALONE', k1, [], el['M-IN']);
    await add('M-GONE', k1, [sub1]);
    await add('V-WITH', k1, [], el['M-GONE']);
    await add('M-OUT', k1, [root2]);
    await add('V-OUT', k1, [], el['M-OUT']);
    await add('OLD-UNPLACED', k1);
    const rename = await post(owner.cookie, 'Catalog/SetValue', {
      departmentId: owner.departmentId,
      elementId: el['V-WITH'],
      field: 'name',
      value: 'Variante neu',
    });
    expect(rename.status, rename.text).toBe(200);
    for (const name of ['UNPLACED', 'UNPLACED-K2', 'V-ALONE', 'M-GONE', 'V-OUT', 'OLD-UNPLACED'])
      await del(owner.cookie, owner.departmentId, el[name]!);
    // a delete recorded before migration 0088: no catalog nor master on any of its versions
    await env.DB.prepare('UPDATE history_versions SET catalog_id = NULL, master_id = NULL WHERE element_id = ?')
      .bind(el['OLD-UNPLACED'])
      .run();
    const member = async (name: string, scope: { catalogIds?: string[]; categoryIds?: string[] }) => {
      const user = await makeUser({ companyId: owner.companyId, departmentId: owner.departmentId });
      const res = await post(owner.cookie, 'Account/SetMemberRole', { userId: user.userId, role: 'editor', ...scope });
      expect(res.status, res.text).toBe(200);
      members[name] = { userId: user.userId, cookie: await loginAs(user.email) };
    };
    await member('k1', { catalogIds: [k1] });
    await member('k2', { catalogIds: [k2] });
    await member('root1', { categoryIds: [root1] });
    await member('root2', { categoryIds: [root2] });
    // another company's unplaced master and variant, deleted: never in any answer here
    const them = await makeSession({ role: 'admin' });
    const kx = (await makeCatalog(them.tenant, { name: 'K1' })).catalogId;
    const master = (await makeProduct(them.tenant, kx, { sku: 'UNPLACED' })).productId;
    const variant = (await makeProduct(them.tenant, kx, { sku: 'V-ALONE', parentId: master })).productId;
    await del(them.cookie, them.departmentId, variant);
    await del(them.cookie, them.departmentId, master);
    foreign = { master, variant };
  }, 60_000);

  it('records the catalog and master with every product and variant version written', async () => {
    const rows = await env.DB.prepare(
      `SELECT element_id AS id, element_kind AS kind, catalog_id AS catalogId, master_id AS masterId FROM history_versions
       WHERE company_id = ? AND element_kind IN ('product', 'variant') AND element_id <> ?`,
    )
      .bind(owner.companyId, el['OLD-UNPLACED'])
      .all<{ id: string; kind: string; catalogId: string | null; masterId: string | null }>();
    // 8 creates, 3 variant lists grown, a variant renamed, 5 deletes and 2 variant lists shrunk
    expect(rows.results.length).toBe(19);
    const masterOf: Record<string, string> = {
      'V-ALONE': 'M-IN',
      'V-WITH': 'M-GONE',
      'V-OUT': 'M-OUT',
    };
    for (const row of rows.results) {
      const name = nameOf(row.id);
      expect([name, row.kind, row.catalogId !== null, nameOf(row.masterId ?? '')]).toEqual([
        name,
        masterOf[name] ? 'variant' : 'product',
        true,
        masterOf[name] ?? name,
      ]);
    }
  });

  it('lists an unplaced master of a scoped catalog deleted for a member of that catalog, not of another', async () => {
    const all = changesOf(await feedOf(owner.cookie));
    expect(all).toContain('UNPLACED:delete');
    expect(all).toContain('OLD-UNPLACED:delete');
    const k1 = changesOf(await feedOf(members.k1!.cookie));
    // every change of the catalog's products, deletes included, but the one recorded before 0088
    expect(k1).toEqual(all.filter((c) => !c.startsWith('UNPLACED-K2:') && !c.startsWith('OLD-UNPLACED:')));
    expect(changesOf(await feedOf(members.k2!.cookie))).toEqual(['UNPLACED-K2:create', 'UNPLACED-K2:delete']);
    const history = await get(members.k1!.cookie, `Catalog/GetHistory?elementId=${el.UNPLACED}`);
    expect(history.status, history.text).toBe(200);
    expect(history.json.items.map((v: { action: string }) => v.action)).toEqual(['delete', 'create']);
    const unknown = await get(members.k1!.cookie, `Catalog/GetHistory?elementId=${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    for (const [cookie, id] of [
      [members.k2!.cookie, el.UNPLACED],
      [members.root1!.cookie, el.UNPLACED],
      [members.k1!.cookie, el['OLD-UNPLACED']],
      [members.k1!.cookie, foreign.master],
    ] as const) {
      const res = await get(cookie, `Catalog/GetHistory?elementId=${id}`);
      expect([res.status, res.json]).toEqual([unknown.status, unknown.json]);
    }
  });

  it("lists a deleted variant of an in-scope master for a category-scoped member, not one of another subtree's", async () => {
    const root1 = changesOf(await feedOf(members.root1!.cookie));
    expect(root1).toEqual(
      [
        'M-IN:create',
        'M-IN:update', // V-ALONE added
        'M-IN:update', // V-ALONE deleted
        'V-ALONE:create',
        'V-ALONE:delete',
        'M-GONE:create',
        'M-GONE:update', // V-WITH added
        'M-GONE:delete',
        'V-WITH:create',
        'V-WITH:update',
      ].sort(),
    );
    const root2 = changesOf(await feedOf(members.root2!.cookie));
    expect(root2).toEqual(['M-OUT:create', 'M-OUT:update', 'M-OUT:update', 'V-OUT:create', 'V-OUT:delete'].sort());
    for (const [name, status] of [
      ['V-ALONE', 200],
      ['V-WITH', 200],
      ['V-OUT', 404],
    ] as const) {
      const res = await get(members.root1!.cookie, `Catalog/GetHistory?elementId=${el[name]}`);
      expect([name, res.status]).toEqual([name, status]);
      if (status === 200) expect(res.json.items[0].action).toBe(name === 'V-ALONE' ? 'delete' : 'update');
    }
    const outside = await get(members.root2!.cookie, `Catalog/GetHistory?elementId=${el['V-ALONE']}`);
    expect([outside.status, outside.json]).toEqual([404, { error: 'element not found', code: 'not_found' }]);
    expect((await get(members.root2!.cookie, `Catalog/GetHistory?elementId=${el['V-OUT']}`)).status).toBe(200);
    expect((await get(members.root1!.cookie, `Catalog/GetHistory?elementId=${foreign.variant}`)).status).toBe(404);
  });

  it("judges a gone product by seeks only: its last version through history_element_idx, no table's scan", async () => {
    const scope = { catalogIds: [crypto.randomUUID()], categoryIds: [crypto.randomUUID()] };
    const plan = await db().all<{ detail: string }>(
      sql`EXPLAIN QUERY PLAN SELECT f.seq FROM change_feed f CROSS JOIN history_versions v ON v.id = f.version_id
        WHERE f.company_id = ${owner.companyId} AND f.seq > 0
          AND ${goneProductInScopeSql(scope, owner.companyId, sql`v.element_id`)} ORDER BY f.seq LIMIT 1000`,
    );
    const details = plan.map((r) => r.detail);
    expect(details.filter((d) => /history_element_idx \(company_id=\? AND element_id=\?\)/.test(d)).length).toBe(2);
    // what is scanned is a JSON list, the one-row last version or the subtree's queue, never a table
    const scanned = details.flatMap((d) => /^SCAN (\S+)/.exec(d)?.[1] ?? []);
    expect(new Set(scanned)).toEqual(new Set(['json_each', 'rc', 'e', 'l', 'scope_sub']));
    expect(details.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('is the same through /api/ai and MCP, and nothing of another company leaks', async () => {
    const token = (await tokensFor({ session: members.root1!.cookie })).access_token;
    const feed = await sendAgent('GET', '/api/ai/GetChanges?limit=100', { token });
    expect(feed.status, feed.text).toBe(200);
    expect(changesOf(feed.json.items)).toEqual(changesOf(await feedOf(members.root1!.cookie)));
    const mcpToken = (await tokensFor({ session: members.k1!.cookie }, { scope: 'mcp' })).access_token;
    const { sessionId } = await openSession(mcpToken);
    const tool = await callTool(mcpToken, sessionId, 'get_changes', { limit: 100 });
    expect(tool.isError ?? false, tool.content[0]?.text).toBe(false);
    expect(changesOf(tool.structuredContent.items)).toEqual(changesOf(await feedOf(members.k1!.cookie)));
    expect(changesOf(tool.structuredContent.items)).toContain('UNPLACED:delete');
    for (const cookie of [owner.cookie, ...Object.values(members).map((m) => m.cookie)]) {
      const ids = (await feedOf(cookie)).map((c) => c.elementId);
      expect(ids).not.toContain(foreign.master);
      expect(ids).not.toContain(foreign.variant);
    }
  }, 60_000);
});
