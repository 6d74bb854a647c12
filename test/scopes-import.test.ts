import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OUTSIDE_SCOPE } from '../src/catalog/upsert/upsert-products';
import { categories, products } from '../src/db/schema';
import { OUTSIDE_SCOPE_GROUP } from '../src/imports/write/import-categories';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { file, price2005, product } from './fixtures/bmecat-variants';
import { xchangeTexts } from './fixtures/xchange-texts';
import { db, makeCatalog, makeCategory, makeProduct, makeSession, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { waitForJob } from './helpers/completeness';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';

/**
 * Imports by a member limited to a category subtree (docs/teams.md, "Imports and mass edits by a
 * scoped member"): row by row, a product row outside the subtree (as stored, or as the row
 * places it) is rejected and reported without naming anything, the others land; a category is
 * created or changed only inside the subtree; T_UPDATE_PRODUCTS deletions and T_UPDATE_PRICES
 * are judged the same way; a resumed import reports each row once.
 */
async function setup() {
  const admin = await makeSession({ role: 'admin' });
  const t = admin.tenant;
  const catalogId = (await makeCatalog(t, { name: 'Agentur' })).catalogId;
  const brand = (await makeCategory(t, catalogId, { name: 'Brand' })).categoryId;
  const lines = (await makeCategory(t, catalogId, { name: 'Brand lines', parentId: brand })).categoryId;
  const other = (await makeCategory(t, catalogId, { name: 'Other' })).categoryId;
  const ids: Record<string, string> = {};
  for (const [sku, categoryIds] of [
    ['IN-1', [lines]],
    ['IN-DEL', [lines]],
    ['OUT-1', [other]],
    ['OUT-2', []],
  ] as const)
    ids[sku] = (
      await makeProduct(t, catalogId, { sku, name: `Alt ${sku}`, price: '1.00', categoryIds: [...categoryIds] })
    ).productId;
  const user = await makeUser({ companyId: admin.companyId, departmentId: admin.departmentId });
  const role = await call('POST', '/api/Account/SetMemberRole', {
    cookie: admin.cookie,
    body: { userId: user.userId, role: 'editor', categoryIds: [brand] },
  });
  expect(role.status, role.text).toBe(200);
  const member = {
    cookie: await loginAs(user.email),
    tenant: { companyId: admin.companyId, departmentId: admin.departmentId, userId: user.userId },
  };
  return { admin, member, catalogId, brand, lines, other, ids };
}
type Setup = Awaited<ReturnType<typeof setup>>;

async function startAs(s: Setup, who: 'admin' | 'member', content: string, fileName: string) {
  const tenant = who === 'admin' ? s.admin.tenant : s.member.tenant;
  const fileId = await putImportFile(tenant, content, fileName);
  return call('POST', '/api/Import/StartImport', {
    cookie: who === 'admin' ? s.admin.cookie : s.member.cookie,
    body: { departmentId: s.admin.departmentId, catalogId: s.catalogId, fileId },
  });
}

const productRow = (catalogId: string, sku: string) =>
  db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)) });
const categoryNamed = (catalogId: string, name: string) =>
  db().query.categories.findFirst({ where: and(eq(categories.catalogId, catalogId), eq(categories.name, name)) });

const CSV = [
  'sku,name,categories',
  'IN-1,Innen neu,Brand > Brand lines',
  'NEW-1,Neu drin,Brand > Neue Linie',
  'OUT-1,Hereingeholt,Brand > Brand lines',
  'NEW-2,Neu außen,Other',
  'NEW-3,Ganz fremd,Fremd > Unter',
  'OUT-2,Außen ohne Platz,Brand',
  '',
].join('\r\n');

describe('a CSV import by a category-scoped editor', () => {
  it('lands the rows in the subtree and rejects each row outside, reported without naming anything', async () => {
    const s = await setup();
    const start = await startAs(s, 'member', CSV, 'agentur.csv');
    expect(start.status, start.text).toBe(200);
    await runImportToEnd(start.json.jobId);
    const job = await importJobRow(start.json.jobId);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({
      created: 1,
      updated: 1,
      rejected: 4,
      categoriesCreated: 1,
      'rejected.outside_scope': 4,
    });
    expect(await productRow(s.catalogId, 'IN-1')).toMatchObject({ name: 'Innen neu' });
    expect(await productRow(s.catalogId, 'NEW-1')).toMatchObject({ name: 'Neu drin' });
    // outside: the stored product moved in, a new one placed outside or in a category it may not create
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ name: 'Alt OUT-1' });
    expect(await productRow(s.catalogId, 'OUT-2')).toMatchObject({ name: 'Alt OUT-2' });
    expect(await productRow(s.catalogId, 'NEW-2')).toBeUndefined();
    expect(await productRow(s.catalogId, 'NEW-3')).toBeUndefined();
    expect(await categoryNamed(s.catalogId, 'Neue Linie')).toMatchObject({ parentId: s.brand });
    expect(await categoryNamed(s.catalogId, 'Fremd')).toBeUndefined();
    expect(await categoryNamed(s.catalogId, 'Unter')).toBeUndefined();
    const rows = await reportRows(start.json.jobId);
    expect(rows.map((r) => r.slice(2))).toEqual([
      ['OUT-1', 'line 4', OUTSIDE_SCOPE, 'outside_scope'],
      ['NEW-2', 'line 5', OUTSIDE_SCOPE, 'outside_scope'],
      ['NEW-3', 'line 6', OUTSIDE_SCOPE, 'outside_scope'],
      ['OUT-2', 'line 7', OUTSIDE_SCOPE, 'outside_scope'],
    ]);
    // the job carries the scope its start was checked for; an admin's carries none (today's path)
    expect(job.params).toMatchObject({ scopeCategoryIds: [s.brand] });
    const adminStart = await startAs(s, 'admin', 'sku,name\r\nOUT-2,Vom Admin\r\n', 'admin.csv');
    expect(adminStart.status, adminStart.text).toBe(200);
    await runImportToEnd(adminStart.json.jobId);
    const adminJob = await importJobRow(adminStart.json.jobId);
    expect(adminJob.params).not.toHaveProperty('scopeCategoryIds');
    expect(adminJob.summary).toMatchObject({ updated: 1, rejected: 0 });
  });

  it('reports the same rows once when resumed after every row, as in one run', async () => {
    const s = await setup();
    const fileId = await putImportFile(s.member.tenant, CSV, 'agentur.csv');
    const jobId = await insertImportJob(s.member.tenant, {
      catalogId: s.catalogId,
      fileId,
      scopeCategoryIds: [s.brand],
    });
    const outcomes = await runImportToEnd(jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
    expect(outcomes.filter((o) => o === 'continued').length).toBeGreaterThan(3);
    const job = await importJobRow(jobId);
    expect(job.summary).toMatchObject({ created: 1, updated: 1, rejected: 4, 'rejected.outside_scope': 4 });
    expect((await reportRows(jobId)).map((r) => `${r[2]} ${r[3]}`)).toEqual([
      'OUT-1 line 4',
      'NEW-2 line 5',
      'NEW-3 line 6',
      'OUT-2 line 7',
    ]);
    expect(await productRow(s.catalogId, 'NEW-1')).toMatchObject({ name: 'Neu drin' });
  });

  it('counts the same in a dry run, creating nothing', async () => {
    const s = await setup();
    const fileId = await putImportFile(s.member.tenant, CSV, 'agentur.csv');
    const jobId = await insertImportJob(s.member.tenant, {
      catalogId: s.catalogId,
      fileId,
      dryRun: true,
      scopeCategoryIds: [s.brand],
    });
    await runImportToEnd(jobId);
    expect((await importJobRow(jobId)).summary).toMatchObject({
      created: 1,
      updated: 1,
      rejected: 4,
      categoriesCreated: 1,
    });
    expect(await categoryNamed(s.catalogId, 'Neue Linie')).toBeUndefined();
    expect(await productRow(s.catalogId, 'NEW-1')).toBeUndefined();
  });

  it('is refused before validation to a member limited to another catalog', async () => {
    const s = await setup();
    const other = await makeCatalog(s.admin.tenant, { name: 'Anderer' });
    const user = await makeUser({ companyId: s.admin.companyId, departmentId: s.admin.departmentId });
    const role = await call('POST', '/api/Account/SetMemberRole', {
      cookie: s.admin.cookie,
      body: { userId: user.userId, role: 'editor', catalogIds: [other.catalogId] },
    });
    expect(role.status, role.text).toBe(200);
    const res = await call('POST', '/api/Import/StartImport', {
      cookie: await loginAs(user.email),
      body: { departmentId: s.admin.departmentId, catalogId: s.catalogId, fileId: 'not-an-id' },
    });
    expect([res.status, res.json.error]).toEqual([403, NOT_PERMITTED]);
  });
});

const group = (id: string, name: string, parent: string, more = '') =>
  `<CATALOG_STRUCTURE type="node"><GROUP_ID>${id}</GROUP_ID><GROUP_NAME>${name}</GROUP_NAME><PARENT_ID>${parent}</PARENT_ID>${more}</CATALOG_STRUCTURE>`;
const mapEntry = (sku: string, groupId: string) =>
  `<PRODUCT_TO_CATALOGGROUP_MAP mode="new"><PROD_ID>${sku}</PROD_ID><CATALOG_GROUP_ID>${groupId}</CATALOG_GROUP_ID></PRODUCT_TO_CATALOGGROUP_MAP>`;
const link = (url: string) =>
  `<MIME_INFO><MIME><MIME_SOURCE>${url}</MIME_SOURCE><MIME_PURPOSE>logo</MIME_PURPOSE></MIME></MIME_INFO>`;

describe('a BMEcat import by a category-scoped editor', () => {
  it('creates groups only inside the subtree and places products only there; the rest is reported', async () => {
    const s = await setup();
    const xml = file({
      root: 'version="2005" xmlns="http://www.bmecat.org/bmecat/2005"',
      before: `<CATALOG_GROUP_SYSTEM><GROUP_SYSTEM_ID>S</GROUP_SYSTEM_ID>
${group('ROOT', 'Katalog', '0').replace('type="node"', 'type="root"')}
${group('G-BRAND', 'Brand', 'ROOT')}
${group('G-NEW', 'Neue Serie', 'G-BRAND', link('https://cdn.example.com/neu.png'))}
${group('G-OTHER', 'Other', 'ROOT', link('https://cdn.example.com/other.png'))}
${group('G-ALIEN', 'Fremd', 'ROOT')}
${group('G-ALIEN-SUB', 'Fremd unten', 'G-ALIEN')}
</CATALOG_GROUP_SYSTEM>`,
      records: [
        product('B-IN', 'Drin'),
        product('B-OUT', 'Außen'),
        product('B-ALIEN', 'Fremd'),
        product('B-BOTH', 'Beides'),
        mapEntry('B-IN', 'G-NEW'),
        mapEntry('B-OUT', 'G-OTHER'),
        mapEntry('B-ALIEN', 'G-ALIEN-SUB'),
        mapEntry('B-BOTH', 'G-NEW'),
        mapEntry('B-BOTH', 'G-ALIEN'),
      ],
    });
    const start = await startAs(s, 'member', xml, 'agentur.xml');
    expect(start.status, start.text).toBe(200);
    await runImportToEnd(start.json.jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
    const job = await importJobRow(start.json.jobId);
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
    // the map entries of the rejected products are reported as for anyone (their products are not there)
    expect(job.summary).toMatchObject({
      created: 1,
      rejected: 10,
      categoriesCreated: 1,
      'rejected.outside_scope': 6,
      'rejected.map_product_unknown': 4,
    });
    const created = await categoryNamed(s.catalogId, 'Neue Serie');
    expect(created).toMatchObject({ parentId: s.brand });
    expect(await categoryNamed(s.catalogId, 'Fremd')).toBeUndefined();
    expect(await categoryNamed(s.catalogId, 'Fremd unten')).toBeUndefined();
    // the existing category outside keeps its media: the group's link is not added
    const { media } = await import('../src/db/schema');
    expect(await db().select().from(media).where(eq(media.elementId, s.other))).toEqual([]);
    expect(await db().select({ url: media.url }).from(media).where(eq(media.elementId, created!.id))).toEqual([
      { url: 'https://cdn.example.com/neu.png' },
    ]);
    expect(await productRow(s.catalogId, 'B-IN')).toMatchObject({ name: 'Drin' });
    for (const sku of ['B-OUT', 'B-ALIEN', 'B-BOTH']) expect(await productRow(s.catalogId, sku)).toBeUndefined();
    const rows = await reportRows(start.json.jobId);
    const outside = rows.filter((r) => r[5] === 'outside_scope');
    expect(outside.map((r) => [r[2], r[3], r[4]])).toEqual([
      ['', 'group G-OTHER', OUTSIDE_SCOPE_GROUP],
      ['', 'group G-ALIEN', OUTSIDE_SCOPE_GROUP],
      ['', 'group G-ALIEN-SUB', OUTSIDE_SCOPE_GROUP],
      ['B-OUT', expect.stringContaining('PRODUCT'), OUTSIDE_SCOPE],
      ['B-ALIEN', expect.stringContaining('PRODUCT'), OUTSIDE_SCOPE],
      ['B-BOTH', expect.stringContaining('PRODUCT'), OUTSIDE_SCOPE],
    ]);
  });

  it('deletes (T_UPDATE_PRODUCTS) and reprices (T_UPDATE_PRICES) only products in the subtree', async () => {
    const s = await setup();
    const deletes = file({
      root: 'version="2005"',
      transaction: 'T_UPDATE_PRODUCTS',
      records: ['IN-DEL', 'OUT-1', 'NOPE'].map(
        (sku) => `<PRODUCT mode="delete"><SUPPLIER_PID>${sku}</SUPPLIER_PID></PRODUCT>`,
      ),
    });
    const del = await startAs(s, 'member', deletes, 'loeschen.xml');
    expect(del.status, del.text).toBe(200);
    await runImportToEnd(del.json.jobId);
    const delJob = await importJobRow(del.json.jobId);
    expect(delJob.summary).toMatchObject({ deleted: 1, rejected: 2, 'rejected.outside_scope': 2 });
    expect(await productRow(s.catalogId, 'IN-DEL')).toBeUndefined();
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ name: 'Alt OUT-1' });
    // the same answer for a product outside and a SKU that does not exist
    expect((await reportRows(del.json.jobId)).map((r) => [r[2], r[4], r[5]])).toEqual([
      ['OUT-1', OUTSIDE_SCOPE, 'outside_scope'],
      ['NOPE', OUTSIDE_SCOPE, 'outside_scope'],
    ]);

    const prices = file({
      root: 'version="2005"',
      transaction: 'T_UPDATE_PRICES',
      records: ['IN-1', 'OUT-1', 'NOPE'].map(
        (sku) => `<PRODUCT><SUPPLIER_PID>${sku}</SUPPLIER_PID>${price2005('9.99')}</PRODUCT>`,
      ),
    });
    const pr = await startAs(s, 'member', prices, 'preise.xml');
    expect(pr.status, pr.text).toBe(200);
    await runImportToEnd(pr.json.jobId);
    expect((await importJobRow(pr.json.jobId)).summary).toMatchObject({
      updated: 1,
      rejected: 2,
      'rejected.outside_scope': 2,
    });
    expect(await productRow(s.catalogId, 'IN-1')).toMatchObject({ price: '9.99' });
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ price: '1.00' });
    expect((await reportRows(pr.json.jobId)).map((r) => [r[2], r[4]])).toEqual([
      ['OUT-1', OUTSIDE_SCOPE],
      ['NOPE', OUTSIDE_SCOPE],
    ]);
  });
});

describe('an ETIM xChange import by a category-scoped editor', () => {
  it('updates the products in the subtree and rejects the others, reported by their JSON path', async () => {
    const s = await setup();
    // xChange names no category: a stored product is judged as stored, a new one is unplaced
    const text = xchangeTexts([
      { sku: 'IN-1', deu: 'Innen xChange', price: '2.00' },
      { sku: 'OUT-1', deu: 'Außen xChange', price: '2.00' },
      { sku: 'OUT-2', deu: 'Ohne Platz xChange' },
      { sku: 'NEW-X', deu: 'Neu xChange' },
    ]);
    const start = await startAs(s, 'member', text, 'agentur.json');
    expect(start.status, start.text).toBe(200);
    await runImportToEnd(start.json.jobId);
    const job = await importJobRow(start.json.jobId);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ created: 0, updated: 1, rejected: 3, 'rejected.outside_scope': 3 });
    expect(await productRow(s.catalogId, 'IN-1')).toMatchObject({ name: 'Innen xChange', price: '2.00' });
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ name: 'Alt OUT-1', price: '1.00' });
    expect(await productRow(s.catalogId, 'OUT-2')).toMatchObject({ name: 'Alt OUT-2' });
    expect(await productRow(s.catalogId, 'NEW-X')).toBeUndefined();
    expect((await reportRows(start.json.jobId)).map((r) => r.slice(2))).toEqual([
      ['OUT-1', '$.Supplier[0].Product[1]', OUTSIDE_SCOPE, 'outside_scope'],
      ['OUT-2', '$.Supplier[0].Product[2]', OUTSIDE_SCOPE, 'outside_scope'],
      ['NEW-X', '$.Supplier[0].Product[3]', OUTSIDE_SCOPE, 'outside_scope'],
    ]);
    // the admin's import of the same file writes every row (IN-1 holds the file's data already)
    const adminStart = await startAs(s, 'admin', text, 'admin.json');
    await runImportToEnd(adminStart.json.jobId);
    expect((await importJobRow(adminStart.json.jobId)).summary).toMatchObject({ created: 1, updated: 2, rejected: 0 });
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ name: 'Außen xChange' });
  });
});

describe('a mass edit by a category-scoped editor', () => {
  const massEdit = (s: Setup, body: Record<string, unknown>) =>
    call('POST', '/api/Catalog/StartMassEdit', {
      cookie: s.member.cookie,
      body: {
        departmentId: s.admin.departmentId,
        catalogId: s.catalogId,
        field: 'status',
        value: 'discontinued',
        ...body,
      },
    });
  const jobsOf = async (companyId: string) => {
    const { jobs } = await import('../src/db/schema');
    return db().$count(jobs, eq(jobs.companyId, companyId));
  };

  it('edits what a filter matches in the subtree and reports the products outside as skipped', async () => {
    const s = await setup();
    const res = await massEdit(s, { filter: {} });
    expect(res.status, res.text).toBe(200);
    const job = await waitForJob(s.member.cookie, res.json.jobId);
    expect(job).toMatchObject({ state: 'succeeded', progress: { done: 2, total: 2 } });
    expect(job.result).toEqual({ report: { updated: 2, unchanged: 0, failed: [], failedCount: 0, skipped: 2 } });
    for (const sku of ['IN-1', 'IN-DEL'])
      expect(await productRow(s.catalogId, sku)).toMatchObject({ status: 'discontinued' });
    for (const sku of ['OUT-1', 'OUT-2'])
      expect(await productRow(s.catalogId, sku)).toMatchObject({ status: 'active' });
  });

  it('refuses ids outside the subtree before anything, and edits ids inside', async () => {
    const s = await setup();
    const before = await jobsOf(s.admin.companyId);
    const refused = await massEdit(s, { productIds: [s.ids['IN-1'], s.ids['OUT-1']] });
    expect([refused.status, refused.json.error]).toEqual([403, NOT_PERMITTED]);
    expect(await jobsOf(s.admin.companyId)).toBe(before);
    const res = await massEdit(s, { productIds: [s.ids['IN-1']] });
    expect(res.status, res.text).toBe(200);
    const job = await waitForJob(s.member.cookie, res.json.jobId);
    expect(job.result).toEqual({ report: { updated: 1, unchanged: 0, failed: [], failedCount: 0, skipped: 0 } });
    expect(await productRow(s.catalogId, 'OUT-1')).toMatchObject({ status: 'active' });
  });
});
