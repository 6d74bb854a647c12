import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import { listProducts } from '../src/catalog/product-list';
import { catalogs, categories, importGroups, importRejections, products } from '../src/db/schema';
import { db, makeCatalog, makeSession } from './helpers/factories';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';

async function importInto(
  xml: string,
  options: { dryRun?: boolean; sliceMs?: number; batchSize?: number; strict?: boolean } = {},
) {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant, { name: 'Leer' });
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, {
    catalogId: catalog.catalogId,
    fileId,
    dryRun: options.dryRun ?? false,
    strict: options.strict ?? false,
  });
  const outcomes = await runImportToEnd(
    jobId,
    importDeps({ sliceMs: options.sliceMs ?? 60_000, batchSize: options.batchSize }),
  );
  return { session, catalog, jobId, outcomes, job: await importJobRow(jobId) };
}

async function productBySku(catalogId: string, sku: string) {
  return db().query.products.findFirst({ where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)) });
}

describe('importing a hand-written supplier BMEcat 2005 file', () => {
  it('creates every product, variant, feature, price, category and media reference, and reports the rejected ones', async () => {
    const { session, catalog, jobId, job } = await importInto(SUPPLIER_2005);
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: 2,
      warnings: 1,
      placements: 1,
      categoriesCreated: 2,
      total: 4,
    });
    // A block of another feature system is kept (docs/import.md "Feature systems"), not warned about.
    expect(job.warnings ?? []).not.toContainEqual(expect.stringContaining('feature system'));

    const master = await getProduct(db(), session.tenant, (await productBySku(catalog.catalogId, 'LS-B16'))!.id);
    expect(master).toMatchObject({
      name: 'LS-Schalter B16 1-polig',
      description: 'Leitungsschutzschalter <b>B16</b>, 6 kA',
      gtin: '4006381333931',
      manufacturerPid: 'FAZ-B16/1',
      manufacturerName: 'Eaton',
      deliveryTimeDays: 3,
      keywords: 'LS, Sicherungsautomat',
      status: 'active',
      unit: 'C62',
      price: '4.95',
      priceQuantity: 1,
    });
    expect(master.classification).toMatchObject({
      classificationGroups: 1,
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }],
    });
    expect(master.classification!.features.map((f) => `${f.code}=${f.value}`)).toEqual([
      'EF000001=-25..55',
      'EF000008=230',
      'EF000073=EV000040',
    ]);
    expect(master.featureBlocks).toEqual([
      {
        system: 'udf_SUPPLIER-1.0',
        groupId: null,
        groupId2: null,
        groupName: null,
        features: [{ name: 'Farbe', values: ['grau'] }],
      },
    ]);
    expect(master.media.map((m) => [m.fileName, m.purpose, m.contentType, m.size])).toEqual([
      ['ls-b16.jpg', 'normal', 'image/jpeg', 0],
      ['ls-b16.pdf', 'data_sheet', 'application/pdf', 0],
    ]);
    expect(master.variants.map((v) => [v.sku, v.name, v.price, v.status])).toEqual([
      ['LS-B16-3P', 'LS-Schalter B16 3-polig', '14.90', 'discontinued'],
    ]);
    expect(master.fingerprint).toMatch(/^[0-9a-f]{64}$/);

    const tree = await db().select().from(categories).where(eq(categories.catalogId, catalog.catalogId));
    const prot = tree.find((c) => c.name === 'Schutzgeräte')!;
    const mcb = tree.find((c) => c.name === 'Leitungsschutzschalter')!;
    expect(prot.parentId).toBeNull();
    expect(mcb).toMatchObject({ parentId: prot.id, description: 'B, C', sortOrder: 2 });
    expect(master.categoryIds).toEqual([mcb.id]);
    expect(await db().query.catalogs.findFirst({ where: eq(catalogs.id, catalog.catalogId) })).toMatchObject({
      productCount: 3,
      categoryCount: 2,
    });

    const rows = await reportRows(jobId);
    // Grouped by reason, rejections first; the product with a wrong GTIN check digit is kept without it.
    expect(rows.map((r) => r.slice(1))).toEqual([
      [
        'rejected',
        'LS-B16',
        'line 69: /BMECAT/T_NEW_CATALOG/PRODUCT_TO_CATALOGGROUP_MAP',
        "CATALOG_GROUP_ID G-NOPE is not a group of the file's CATALOG_GROUP_SYSTEM",
        'map_group_unknown',
      ],
      ['rejected', '', 'line 60: /BMECAT/T_NEW_CATALOG/PRODUCT', 'SUPPLIER_PID is missing', 'sku_missing'],
      [
        'warning',
        'BAD-GTIN',
        'line 65: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_DETAILS/INTERNATIONAL_PID',
        'gtin: GTIN check digit is wrong: "4006381333932" is not stored',
        'field_invalid',
      ],
    ]);
    const kept = await getProduct(db(), session.tenant, (await productBySku(catalog.catalogId, 'BAD-GTIN'))!.id);
    expect(kept).toMatchObject({ name: 'Falsche Prüfziffer', gtin: null });
    // Staging is gone once the job is done.
    expect(await db().select().from(importGroups).where(eq(importGroups.jobId, jobId))).toEqual([]);
    expect(await db().select().from(importRejections).where(eq(importRejections.jobId, jobId))).toEqual([]);
  });

  it('answers unchanged for every product when the same file is imported again', async () => {
    const { session, catalog } = await importInto(SUPPLIER_2005);
    const fileId = await putImportFile(session.tenant, SUPPLIER_2005);
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId });
    await runImportToEnd(jobId);
    const job = await importJobRow(jobId);
    expect(job.summary).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 3,
      rejected: 2,
      placements: 0,
      categoriesCreated: 0,
    });
    expect((await listProducts(db(), session.tenant, { catalogId: catalog.catalogId, limit: 50 })).items).toHaveLength(
      2,
    );
  });

  it('writes nothing in a dry run and reports the same outcome', async () => {
    const { catalog, jobId, job } = await importInto(SUPPLIER_2005, { dryRun: true });
    expect(job.state).toBe('succeeded');
    expect(job.summary).toMatchObject({ created: 3, updated: 0, unchanged: 0, rejected: 2, categoriesCreated: 2 });
    expect(await db().select().from(products).where(eq(products.catalogId, catalog.catalogId))).toEqual([]);
    expect(await db().select().from(categories).where(eq(categories.catalogId, catalog.catalogId))).toEqual([]);
    expect((await reportRows(jobId)).map((r) => r[2])).toEqual(['LS-B16', '', 'BAD-GTIN']);
  });

  it('rejects the product for any field that does not check with strict: true, as before tolerance', async () => {
    const { catalog, jobId, job } = await importInto(SUPPLIER_2005, { strict: true });
    expect(job.summary).toMatchObject({ created: 2, rejected: 3, warnings: 0, 'rejected.invalid_gtin': 1 });
    expect(await productBySku(catalog.catalogId, 'BAD-GTIN')).toBeUndefined();
    expect((await reportRows(jobId)).find((r) => r[2] === 'BAD-GTIN')).toEqual([
      '7',
      'rejected',
      'BAD-GTIN',
      'line 63: /BMECAT/T_NEW_CATALOG/PRODUCT',
      'gtin: GTIN check digit is wrong',
      'invalid_gtin',
    ]);
  });
});

describe('BMEcat dialects and formats', () => {
  it('reads the 2005 namespace of openTRANS 2.1 like 2005fd', async () => {
    const { job } = await importInto(
      SUPPLIER_2005.replace('http://www.bmecat.org/bmecat/2005fd', 'http://www.bmecat.org/bmecat/2005'),
    );
    expect(job.summary).toMatchObject({ created: 3, rejected: 2 });
  });

  it('fails a job whose file is not of the format asked for, naming both', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const fileId = await putImportFile(session.tenant, SUPPLIER_2005);
    const jobId = await insertImportJob(session.tenant, { catalogId: catalog.catalogId, fileId, format: 'BMEcat12' });
    await runImportToEnd(jobId);
    expect(await importJobRow(jobId)).toMatchObject({
      state: 'failed',
      error: 'the file is BMEcat, not BMEcat12 as requested',
    });
  });
});

describe('a file that is not well-formed', () => {
  it.each([
    [
      'a mismatched end tag',
      SUPPLIER_2005.replace('</MANUFACTURER_NAME>', '</MANUFACTURER>'),
      /^line 22: unexpected close tag/,
    ],
    ['a truncated file', SUPPLIER_2005.slice(0, SUPPLIER_2005.indexOf('<PRODUCT_TO_CATALOGGROUP_MAP')), /complete/],
    ['an undefined entity', SUPPLIER_2005.replace('Eaton', 'Eaton &nbsp;'), /^line 22: undefined entity/],
  ])('fails the job with the line and reason and writes nothing (%s)', async (_name, xml, message) => {
    // One product per batch: a file broken near its end would otherwise be half-written by now.
    const { catalog, job } = await importInto(xml, { batchSize: 1 });
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(message);
    expect(await db().select().from(products).where(eq(products.catalogId, catalog.catalogId))).toEqual([]);
    expect(await db().select().from(categories).where(eq(categories.catalogId, catalog.catalogId))).toEqual([]);
    expect(await db().select().from(importGroups).where(eq(importGroups.jobId, job.id))).toEqual([]);
  });

  it('fails a file that is not BMEcat or CSV before reading it', async () => {
    const { job } = await importInto('<?xml version="1.0"?><catalog/>');
    expect(job).toMatchObject({
      state: 'failed',
      error: 'line 1: an XML file without a BMECAT root element is not a BMEcat file',
    });
  });
});
