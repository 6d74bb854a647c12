import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { readTranslations } from '../src/model/translation-store';
import { file, price2005 } from './fixtures/bmecat-variants';
import { xchangeTexts } from './fixtures/xchange-texts';
import { OUTSIDE_SCOPE } from '../src/catalog/upsert/upsert-products';
import { db, makeCatalog, makeCategory, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { importDeps, importJobRow, putImportFile, reportRows, runImportToEnd } from './helpers/import-fixtures';

/**
 * A translator's import (docs/teams.md "Language scope"): `mode: "texts"` writes only the texts
 * of existing products in the member's languages, from a CSV or BMEcat file, creates, deletes
 * and places nothing, and names each other field it leaves out once in the job's warnings; any
 * other mode, or a role that writes no text, is 403 before the request is read.
 */
async function setup(role: 'translator' | 'viewer' | 'editor', languages: string[] = [], categoryScoped = false) {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  const adminCookie = await loginAs(admin.email);
  const catalog = await makeCatalog(company, { language: 'deu', languages: ['fra', 'eng'] });
  const category = await makeCategory(company, catalog.catalogId, { name: 'Kabel' });
  const master = await makeProduct(company, catalog.catalogId, {
    sku: 'T-1',
    name: 'Kabel',
    price: '1.00',
    categoryIds: [category.categoryId],
  });
  const variant = await makeProduct(company, catalog.catalogId, {
    sku: 'T-1-V',
    name: 'Kabel rot',
    parentId: master.productId,
  });
  // placed in no category: outside a member limited to "Kabel"
  const outside = await makeProduct(company, catalog.catalogId, { sku: 'O-1', name: 'Draußen' });
  const member = await makeUser(company, { role: 'viewer' });
  const set = await call('POST', '/api/Account/SetMemberRole', {
    cookie: adminCookie,
    body: {
      userId: member.userId,
      role,
      ...(languages.length ? { languages } : {}),
      ...(categoryScoped ? { categoryIds: [category.categoryId] } : {}),
    },
  });
  expect(set.status, set.text).toBe(200);
  const cookie = await loginAs(member.email);
  const tenant = { ...company, userId: member.userId };
  const start = async (content: string, body: Record<string, unknown>, fileName = 'texte.csv') =>
    call('POST', '/api/Import/StartImport', {
      cookie,
      body: {
        departmentId: company.departmentId,
        catalogId: catalog.catalogId,
        fileId: await putImportFile(tenant, content, fileName),
        ...body,
      },
    });
  return { company, catalog, master, variant, outside, cookie, start };
}

const texts = async (id: string) => (await readTranslations(db(), [id])).get(id) ?? {};
const row = (catalogId: string, sku: string) =>
  db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)) });

const CSV = [
  'sku,name,name@fra,description@fra,name@eng,price,categories',
  'T-1,Leitung,Câble,Un câble,Cable,9.99,Anderes',
  'T-1-V,Leitung rot,Câble rouge,,Red cable,9.99,',
  'T-404,Neu,Nouveau,,New,1.00,Anderes',
  '',
].join('\r\n');

describe('a texts-only import', () => {
  it("writes a French translator's French texts of existing products and ignores the rest, named once per field", async () => {
    const t = await setup('translator', ['fra']);
    const res = await t.start(CSV, { mode: 'texts' });
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
    const job = await importJobRow(res.json.jobId);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ created: 0, updated: 2, rejected: 1, 'rejected.not_in_catalog': 1 });
    expect(await texts(t.master.productId)).toMatchObject({ fra: { name: 'Câble', description: 'Un câble' } });
    expect(await texts(t.variant.productId)).toMatchObject({ fra: { name: 'Câble rouge' } });
    expect((await texts(t.master.productId)).eng).toBeUndefined();
    // the German columns, the price and the placements stay as they were; nothing is created
    expect(await row(t.catalog.catalogId, 'T-1')).toMatchObject({ name: 'Kabel', price: '1.00' });
    expect(await row(t.catalog.catalogId, 'T-1-V')).toMatchObject({ name: 'Kabel rot' });
    expect(await row(t.catalog.catalogId, 'T-404')).toBeUndefined();
    const { categories } = await import('../src/db/schema');
    expect(await db().$count(categories, eq(categories.catalogId, t.catalog.catalogId))).toBe(1);
    const warnings = (job.warnings ?? []) as string[];
    expect(warnings.filter((w) => w.startsWith('texts-only import')).sort()).toEqual([
      'texts-only import: categories ignored (2×, e.g. T-1, T-404)',
      'texts-only import: price ignored (3×, e.g. T-1, T-1-V, T-404)',
      'texts-only import: texts in deu ignored (3×, e.g. T-1, T-1-V, T-404)',
      'texts-only import: texts in eng ignored (3×, e.g. T-1, T-1-V, T-404)',
    ]);
    expect((await reportRows(res.json.jobId)).map((r) => r[2])).toEqual(['T-404']);
  });

  it('reads the texts of a BMEcat file the same way, and deletes nothing', async () => {
    const t = await setup('translator', ['fra']);
    const xml = file({
      root: 'version="2005"',
      transaction: 'T_UPDATE_PRODUCTS',
      records: [
        `<PRODUCT mode="update"><SUPPLIER_PID>T-1</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT lang="deu">Leitung</DESCRIPTION_SHORT><DESCRIPTION_SHORT lang="fra">Câble BMEcat</DESCRIPTION_SHORT></PRODUCT_DETAILS>${price2005('7.00')}</PRODUCT>`,
        '<PRODUCT mode="delete"><SUPPLIER_PID>T-1-V</SUPPLIER_PID></PRODUCT>',
      ],
    });
    const res = await t.start(xml, { mode: 'texts' }, 'texte.xml');
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId);
    const job = await importJobRow(res.json.jobId);
    expect(job.summary).toMatchObject({ updated: 1, deleted: 0, rejected: 1, 'rejected.texts_only': 1 });
    expect((await texts(t.master.productId)).fra).toMatchObject({ name: 'Câble BMEcat' });
    expect(await row(t.catalog.catalogId, 'T-1')).toMatchObject({ name: 'Kabel', price: '1.00' });
    expect(await row(t.catalog.catalogId, 'T-1-V')).toBeDefined();
    expect(((job.warnings ?? []) as string[]).some((w) => w.startsWith('texts-only import: prices ignored'))).toBe(
      true,
    );
  });

  it("reads an ETIM xChange file's texts the same way: French written, the rest named once", async () => {
    const t = await setup('translator', ['fra']);
    const text = xchangeTexts([
      { sku: 'T-1', deu: 'Leitung xChange', fra: 'Câble xChange', price: '7.00' },
      { sku: 'T-404', deu: 'Neu', fra: 'Nouveau' },
    ]);
    const res = await t.start(text, { mode: 'texts' }, 'texte.json');
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId);
    const job = await importJobRow(res.json.jobId);
    expect(job.summary).toMatchObject({ created: 0, updated: 1, rejected: 1, 'rejected.not_in_catalog': 1 });
    expect((await texts(t.master.productId)).fra).toMatchObject({ name: 'Câble xChange' });
    expect(await row(t.catalog.catalogId, 'T-1')).toMatchObject({ name: 'Kabel', price: '1.00' });
    expect(await row(t.catalog.catalogId, 'T-404')).toBeUndefined();
    const warnings = ((job.warnings ?? []) as string[]).filter((w) => w.startsWith('texts-only import'));
    // an xChange record states every field (null where the file has none), so each is named
    expect(warnings).toEqual(
      expect.arrayContaining([
        'texts-only import: texts in deu ignored (2×, e.g. T-1, T-404)',
        'texts-only import: price ignored (2×, e.g. T-1, T-404)',
        'texts-only import: prices ignored (2×, e.g. T-1, T-404)',
      ]),
    );
    expect(warnings.filter((w) => w.includes('fra'))).toEqual([]);
    expect((await reportRows(res.json.jobId)).map((r) => [r[2], r[3]])).toEqual([
      ['T-404', '$.Supplier[0].Product[1]'],
    ]);
  });

  it('rejects the rows outside the subtree of a translator limited to one, and writes the French texts inside', async () => {
    const t = await setup('translator', ['fra'], true);
    const text = xchangeTexts([
      { sku: 'T-1', deu: 'Leitung', fra: 'Câble du rayon' },
      { sku: 'O-1', deu: 'Draußen neu', fra: 'Dehors' },
    ]);
    const res = await t.start(text, { mode: 'texts' }, 'texte.json');
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId);
    const job = await importJobRow(res.json.jobId);
    expect(job.summary).toMatchObject({ updated: 1, rejected: 1, 'rejected.outside_scope': 1 });
    expect((await texts(t.master.productId)).fra).toMatchObject({ name: 'Câble du rayon' });
    expect(await texts(t.outside.productId)).toEqual({});
    expect((await reportRows(res.json.jobId)).map((r) => [r[2], r[4]])).toEqual([['O-1', OUTSIDE_SCOPE]]);
  });

  it('writes every language of an editor, the columns included, and still nothing else', async () => {
    const t = await setup('editor');
    const res = await t.start(CSV, { mode: 'texts' });
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId);
    expect(await row(t.catalog.catalogId, 'T-1')).toMatchObject({ name: 'Leitung', price: '1.00' });
    expect(await texts(t.master.productId)).toMatchObject({ fra: { name: 'Câble' }, eng: { name: 'Cable' } });
  });

  it("takes a translator's upload of the file (Import/Upload), and refuses a viewer's", async () => {
    const upload = async (t: Awaited<ReturnType<typeof setup>>) =>
      call('POST', '/api/Import/Upload?fileName=texte.csv', {
        cookie: t.cookie,
        headers: { 'Content-Type': 'text/csv', 'Content-Length': String(new TextEncoder().encode(CSV).length) },
        rawBody: CSV,
      });
    const translator = await setup('translator', ['fra']);
    const taken = await upload(translator);
    expect(taken.status, taken.text).toBe(200);
    const res = await call('POST', '/api/Import/StartImport', {
      cookie: translator.cookie,
      body: {
        departmentId: translator.company.departmentId,
        catalogId: translator.catalog.catalogId,
        fileId: taken.json.fileId,
        mode: 'texts',
      },
    });
    expect(res.status, res.text).toBe(200);
    await runImportToEnd(res.json.jobId);
    expect((await texts(translator.master.productId)).fra).toMatchObject({ name: 'Câble' });
    const refused = await upload(await setup('viewer'));
    expect([refused.status, refused.json.error]).toEqual([403, NOT_PERMITTED]);
  });

  it('is refused before the request is read: a translator in another mode, a viewer in any', async () => {
    const translator = await setup('translator', ['fra']);
    const viewer = await setup('viewer');
    for (const [label, res] of [
      ['translator, default mode', await translator.start(CSV, {})],
      ['translator, upsert', await translator.start(CSV, { mode: 'upsert' })],
      ['viewer, texts', await viewer.start(CSV, { mode: 'texts' })],
    ] as const)
      expect({ label, status: res.status, error: res.json.error }).toEqual({
        label,
        status: 403,
        error: NOT_PERMITTED,
      });
    // nothing was queued (the uploads the test stored itself aside)
    const { jobs } = await import('../src/db/schema');
    for (const t of [translator, viewer])
      expect(await db().$count(jobs, eq(jobs.companyId, t.company.companyId))).toBe(0);
  });
});
