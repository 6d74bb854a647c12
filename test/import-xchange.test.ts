import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { products } from '../src/db/schema';
import { detectFormat } from '../src/imports/read/detect-format';
import { runExportSlice } from '../src/exports/run-export';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';
import { roundTripCatalog } from './helpers/roundtrip-catalog';
import { xchangeV11, xchangeV2 } from './fixtures/xchange-files';
import { xchangeItemsOf } from '../src/imports/records/xchange-records';
import { XCHANGE_START } from '../src/imports/read/xchange-reader';

type Tenant = { companyId: string; departmentId: string; userId: string };

async function importText(tenant: Tenant, catalogId: string, text: string, batchSize = 500) {
  const fileId = await putImportFile(tenant, text, 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  const outcomes = await runImportToEnd(jobId, importDeps({ sliceMs: -1, batchSize }));
  return { jobId, job: await importJobRow(jobId), outcomes };
}

async function productBySku(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  expect(row).toBeDefined();
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return aggregate!;
}

async function exportJson(tenant: Tenant, catalogId: string): Promise<any> {
  const jobId = await insertExportJob(tenant, { catalogId, exportType: 'ETIMxChange' });
  for (
    let i = 0;
    i < 50 && (await runExportSlice(testDeps({ sliceMs: -1 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return JSON.parse(await (await env.FILES.get(row.resultKey!))!.text());
}

describe('ETIM xChange import', () => {
  it('detects V2.0 by its SchemaVersion and V1.1 without one', () => {
    expect(detectFormat(JSON.stringify(xchangeV2())).format).toBe('ETIMxChange');
    expect(detectFormat(JSON.stringify(xchangeV11())).format).toBe('ETIMxChange-1.1');
    expect(() => detectFormat('{"SchemaVersion": "3.0", "Supplier": []}')).toThrow(/SchemaVersion 3.0/);
  });

  it('imports a V2.0 file with two languages, every feature type, a relation and trade items', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng'] });
    // Pretty-printed and in batches of one: products resume across slices inside the Product array.
    const { jobId, job, outcomes } = await importText(
      session.tenant,
      catalog.catalogId,
      JSON.stringify(xchangeV2(), null, 2),
      1,
    );
    expect(job.error).toBeNull();
    expect(job.summary).toMatchObject({ created: 2, rejected: 0, total: 2 });
    expect(outcomes.filter((o) => o === 'continued').length).toBeGreaterThanOrEqual(1);
    // Nothing rejected; the upsert's unverified-code warnings (no ETIM release loaded) are placed by JSON path.
    const rows = await reportRows(jobId);
    expect(rows.filter((r) => r[1] !== 'warning')).toEqual([]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r[3] === '$.Supplier[0].Product[0]' && r[2] === 'FX-100')).toBe(true);
    expect(job.warnings ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/product relations/)]));

    const breaker = await productBySku(catalog.catalogId, 'FX-100');
    expect(breaker.product).toMatchObject({
      name: 'Leitungsschutzschalter B16',
      description: 'Schalter für die Hutschiene, "zitiert" \\ ü ß 🔌',
      keywords: 'LS-Schalter, Hutschiene',
      gtin: '04047621001111',
      manufacturerName: 'Maker AG',
      manufacturerPid: 'MK-100',
      unit: 'C62',
      price: '12.3400',
      priceQuantity: 10,
      deliveryTimeDays: 3,
      status: 'active',
    });
    expect(breaker.classification!.classes).toEqual([{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }]);
    const values = Object.fromEntries(breaker.classification!.features.map((f) => [f.code, f.value]));
    expect(values).toEqual({
      EF000001: 'EV000138',
      EF000002: '16',
      EF000003: '-25..55.5',
      EF000004: 'true',
      EF000005: 'grau',
      // ReasonNoValue NA: no value, as the ETIM BMEcat guideline writes it (`-`, the reason as FVALUE_DETAILS).
      EF000006: '-',
    });
    // The attachment's URL is kept as a link.
    expect(breaker.media.map((m) => [m.fileName, m.url])).toEqual([
      ['mk-100.jpg', 'https://example.com/img/mk-100.jpg'],
    ]);
    expect(breaker.references).toEqual([
      // A ProductRelation names the target by manufacturer number: MK-200 is the trade item FX-200's.
      {
        type: 'accessories',
        targetSku: 'MK-200',
        targetKind: 'mpn',
        quantity: null,
        targetProductId: expect.any(String),
        resolvedSku: 'FX-200',
      },
    ]);

    // Every language kept: English into translations, the German columns left alone where the file has no German.
    expect(breaker.translations).toEqual({
      deu: { 'details.ETIM.EF000006': 'NA' },
      eng: {
        name: 'Circuit breaker B16',
        description: 'A breaker "with quotes" \\ and a backslash',
        keywords: 'breaker, MCB',
        'details.ETIM.EF000005': 'grey',
      },
    });
    const cap = await productBySku(catalog.catalogId, 'FX-200');
    expect(cap.product).toMatchObject({ name: null, unit: 'MTR', price: null, status: 'discontinued' });
    expect(cap.translations).toEqual({ eng: { name: 'Cover cap' } });
  });

  it('takes a name the exporter cut at 80 characters whole from UniqueMainProductDescription', () => {
    const long = `Leitungsschutzschalter ${'sehr lang '.repeat(10)}Ende`;
    const product = {
      ProductIdentification: { ManufacturerName: 'M', ManufacturerProductNumber: 'L-1' },
      ProductDetails: {
        ProductDescriptions: [
          {
            DescriptionLanguage: 'de-DE',
            MinimalProductDescription: `${long.slice(0, 79)}…`,
            UniqueMainProductDescription: long,
          },
        ],
      },
    };
    const [item] = xchangeItemsOf(product, XCHANGE_START.envelope, {
      fileDefault: 'deu',
      catalogLanguage: 'deu',
      skip: [],
    });
    expect(item!.record!.fields.name).toBe(long);
    expect(item!.sku).toBe('L-1');
  });

  it('imports a V1.1 file', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'nld' });
    const { job } = await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeV11()));
    expect(job.error).toBeNull();
    expect(job.summary).toMatchObject({ created: 1, rejected: 0 });
    const product = await productBySku(catalog.catalogId, 'V11-A');
    expect(product.product).toMatchObject({ name: 'Schakelaar', price: '4.5', manufacturerPid: 'V11-1' });
    expect(product.classification!.classes).toEqual([
      { group: 'ETIM', system: 'ETIM-8.0', code: 'EC000100', unverified: true },
    ]);
    // V1.1's flat relation (RelationType beside RelatedManufacturerProductNumber).
    expect(product.references.map((r) => [r.type, r.targetSku])).toEqual([['similar', 'V11-2']]);
  });

  it('fails a file that is not well-formed with the byte and JSON path, and writes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant);
    const text = JSON.stringify(xchangeV2()).replace('"FX-200"}', '"FX-200" oops}');
    const { job } = await importText(session.tenant, catalog.catalogId, text);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/^byte \d+: not valid JSON/);
    expect(job.error).toContain('$.Supplier[0].Product');
    const rows = await db().query.products.findMany({ where: eq(products.catalogId, catalog.catalogId) });
    expect(rows).toEqual([]);
  });

  it('ends every slice past where it began: products of several trade items in one-record slices and batches', async () => {
    // A Product's records before its last resume before the Product, so a slice or batch that ended
    // on one would start over on the same Product for ever; each slice must move on.
    const doc = xchangeV2() as any;
    for (const [p, product] of doc.Supplier[0].Product.entries()) {
      const first = product.TradeItem[0];
      product.TradeItem = [0, 1, 2].map((i) => ({
        ...first,
        ItemIdentification: { SupplierItemNumber: `MULTI-${p}-${i}` },
      }));
    }
    const session = await makeSession();
    for (const batchSize of [1, 2, 500]) {
      const catalog = await makeCatalog(session.tenant, {
        name: `Slices ${batchSize}`,
        language: 'deu',
        languages: ['eng'],
      });
      const { job, outcomes } = await importText(session.tenant, catalog.catalogId, JSON.stringify(doc), batchSize);
      expect(job.error).toBeNull();
      expect(job.state).toBe('succeeded');
      expect(outcomes.length).toBeLessThan(60);
      const skus = await db()
        .select({ sku: products.sku })
        .from(products)
        .where(eq(products.catalogId, catalog.catalogId));
      expect(skus.map((r) => r.sku).sort()).toEqual([
        'MULTI-0-0',
        'MULTI-0-1',
        'MULTI-0-2',
        'MULTI-1-0',
        'MULTI-1-1',
        'MULTI-1-2',
      ]);
    }
  });

  it('round trip: export, import into an empty catalog, export again gives the same products', async () => {
    const session = await makeSession();
    const source = await roundTripCatalog(session.tenant, 'Rundreise');
    const first = await exportJson(session.tenant, source.catalogId);
    const target = await makeCatalog(session.tenant, { name: 'Rundreise', catalogVersion: '2.1' });
    const { job } = await importText(session.tenant, target.catalogId, JSON.stringify(first), 2);
    expect(job.error).toBeNull();
    const second = await exportJson(session.tenant, target.catalogId);
    const bySku = (doc: any) =>
      doc.Supplier[0].Product.map((p: any) => JSON.stringify(p)).sort((a: string, b: string) => (a < b ? -1 : 1));
    expect(first.Supplier[0].Product.length).toBeGreaterThanOrEqual(5);
    expect(bySku(second)).toEqual(bySku(first));
    expect(first.Supplier[0].Product.some((p: any) => p.EtimClassification?.[0]?.EtimFeatures?.length > 0)).toBe(true);
  });
});
