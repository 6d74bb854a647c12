import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { syncRecord } from '../src/records/sync-record';
import { productSchema } from '../src/sync/protocol/wire';
import { indexMappings, wireProduct } from '../src/sync/wire-record';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';

/**
 * Issue 32: an ETIM xChange ProductRelation names the related product by its manufacturer
 * product number; a distributor's item numbers (our SKUs) differ from it. Hand-written files
 * where every SupplierItemNumber (D-…) differs from the ManufacturerProductNumber (M-…).
 */
type Tenant = { companyId: string; departmentId: string; userId: string };

const product = (mpn: string, items: string[], more: Record<string, unknown> = {}) => ({
  ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: mpn },
  ProductDetails: {
    ProductStatus: 'ACTIVE',
    ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: `Produkt ${mpn}` }],
  },
  ...more,
  TradeItem: items.map((sku) => ({
    ItemIdentification: { SupplierItemNumber: sku },
    Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' },
  })),
});

const related = (type: string, mpn: string, quantity?: number) => ({
  RelationType: type,
  RelatedProducts: [
    { RelatedManufacturerProductNumber: mpn, ...(quantity ? { RelatedProductQuantity: quantity } : {}) },
  ],
});

const file = (list: unknown[]) =>
  JSON.stringify({
    SchemaVersion: '2.0',
    CatalogueId: 'MPN-2026',
    CatalogueType: 'FULL',
    CatalogueValidityStart: '2026-01-01',
    Language: ['de-DE'],
    CurrencyCode: 'EUR',
    Supplier: [{ SupplierName: 'Distributor', Product: list }],
  });

/** The source D-100 between its targets: M-050 before it, M-200 after it, M-300 on two trade items, M-900 in no file yet. */
const first = () =>
  file([
    product('M-050', ['D-050']),
    product('M-100', ['D-100'], {
      ProductRelations: [
        related('SPAREPART', 'M-050', 2),
        related('ACCESSORY', 'M-200'),
        related('SIMILAR', 'M-300'),
        related('SUCCESSOR', 'M-900'),
      ],
      // By SKU: M-200 is no SKU of the catalog, so this one stays pending (the kinds do not mix).
    }),
    product('M-200', ['D-200']),
    product('M-300', ['D-300A', 'D-300B']),
  ]);

async function importText(
  tenant: Tenant,
  catalogId: string,
  text: string,
  batchSize: number,
  fileName = 'catalog.json',
) {
  const fileId = await putImportFile(tenant, text, fileName);
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  // Batch size 1: every record its own batch; sliceMs -1: a slice ends after each step (the
  // checkpoint carries the job across queue messages; nothing stays in memory).
  const deps = importDeps({ batchSize, sliceMs: -1 });
  for (let round = 0; round < 10 && (await importJobRow(jobId)).state !== 'succeeded'; round++)
    await runImportToEnd(jobId, deps);
  const job = await importJobRow(jobId);
  expect(job.state).toBe('succeeded');
  expect(job.error).toBeNull();
  return job;
}

async function referencesOf(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  expect(row).toBeDefined();
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return aggregate!.references.map((r) => [r.type, r.targetSku, r.targetKind ?? 'sku', r.resolvedSku ?? null]);
}

const RESOLVED = [
  ['sparepart', 'M-050', 'mpn', 'D-050'], // target before the source
  ['accessories', 'M-200', 'mpn', 'D-200'], // target after the source
  ['similar', 'M-300', 'mpn', null], // two products have M-300: ambiguous, pending
  ['followup', 'M-900', 'mpn', null], // not in the catalog (yet)
];

describe('xChange ProductRelations by manufacturer number', () => {
  it.each([1, 100])(
    'resolve to the product with that manufacturer number, before or after the source (batch size %i)',
    async (batchSize) => {
      const session = await makeSession();
      const catalog = await makeCatalog(session.tenant, { language: 'deu' });
      const job = await importText(session.tenant, catalog.catalogId, first(), batchSize);
      expect(job.summary).toMatchObject({ created: 5, rejected: 0 });
      expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual(RESOLVED);
      // The ambiguous number is in the report: on the source when the products with it come in
      // the same batch, else on the product whose number made it ambiguous, naming the source.
      const report = (await reportRows(job.id)).filter((r) => r.join(' ').includes('M-300')).map((r) => r.join(' | '));
      expect(report).toEqual([
        batchSize === 1
          ? expect.stringMatching(
              /D-300B .*manufacturerPid: "M-300" is also the manufacturer number of D-300A: the references by that number \(from D-100\) stay pending/,
            )
          : expect.stringMatching(
              /D-100 .*references\[2\]: manufacturer number "M-300" names several products \(D-300A, D-300B\): the reference stays pending/,
            ),
      ]);
      expect(job.summary).toMatchObject({ 'warnings.reference_ambiguous': 1 });

      // A later import brings M-900: the pending reference resolves to it.
      await importText(session.tenant, catalog.catalogId, file([product('M-900', ['D-900'])]), batchSize);
      expect((await referencesOf(catalog.catalogId, 'D-100'))[3]).toEqual(['followup', 'M-900', 'mpn', 'D-900']);
    },
  );

  it('a second product with the number makes a resolved reference wait again; a SKU equal to the number does not resolve a reference by number while a product has it', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, first(), 1);
    // D-201 also has manufacturer number M-200; a product with SKU M-050 does not replace D-050.
    await importText(
      session.tenant,
      catalog.catalogId,
      file([product('M-200', ['D-201']), product('X-1', ['M-050'])]),
      1,
    );
    const refs = await referencesOf(catalog.catalogId, 'D-100');
    expect(refs[0]).toEqual(['sparepart', 'M-050', 'mpn', 'D-050']);
    expect(refs[1]).toEqual(['accessories', 'M-200', 'mpn', null]);

    // D-201 deleted: the number names one product again, and the reference resolves to it.
    const second = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-201')),
    });
    const deleted = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.tenant.departmentId, productId: second!.id },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await referencesOf(catalog.catalogId, 'D-100'))[1]).toEqual(['accessories', 'M-200', 'mpn', 'D-200']);
  });

  it('SetValue and RestoreVersion of a manufacturer number re-resolve the references by the old and the new number', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(
      session.tenant,
      catalog.catalogId,
      file([
        product('M-100', ['D-100'], { ProductRelations: [related('ACCESSORY', 'M-200')] }),
        product('M-200', ['D-200']),
        product('M-200', ['D-201']),
      ]),
      100,
    );
    // Two masters have M-200: ambiguous, pending.
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([['accessories', 'M-200', 'mpn', null]]);
    const second = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-201')),
    });
    const post = (path: string, body: Record<string, unknown>) =>
      call('POST', `/api/Catalog/${path}`, {
        cookie: session.cookie,
        body: { departmentId: session.tenant.departmentId, ...body },
      });
    const before = await call('GET', `/api/Catalog/GetHistory?elementId=${second!.id}`, { cookie: session.cookie });
    const version = before.json.items[0].versionId;

    // D-201 gets another number: by the old number M-200 only D-200 is left, and the reference resolves to it.
    const set = await post('SetValue', { elementId: second!.id, field: 'manufacturerPid', value: 'M-201' });
    expect(set.status, set.text).toBe(200);
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([['accessories', 'M-200', 'mpn', 'D-200']]);

    // Restored to M-200: ambiguous again, the reference waits.
    const restored = await post('RestoreVersion', { elementId: second!.id, versionId: version });
    expect(restored.status, restored.text).toBe(200);
    expect(second!.manufacturerPid).toBe('M-200');
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([['accessories', 'M-200', 'mpn', null]]);

    // A restore that takes the number away again resolves it (the old number re-resolved too).
    const latest = (await call('GET', `/api/Catalog/GetHistory?elementId=${second!.id}`, { cookie: session.cookie }))
      .json.items[1].versionId;
    const back = await post('RestoreVersion', { elementId: second!.id, versionId: latest });
    expect(back.status, back.text).toBe(200);
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([['accessories', 'M-200', 'mpn', 'D-200']]);
  });

  it('the sync record and the wire carry targetKind mpn for a reference by manufacturer number, nothing for one by SKU', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const text = file([product('M-100', ['D-100'], { ProductRelations: [related('ACCESSORY', 'M-200')] })]).replace(
      '"SupplierItemNumber":"D-100"}',
      '"SupplierItemNumber":"D-100"},"ItemRelations":[{"RelatedSupplierItemNumber":"D-200","RelationType":"SPAREPART","RelatedItemQuantity":3}]',
    );
    await importText(session.tenant, catalog.catalogId, text, 1);
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-100')),
    });
    const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
    const record = syncRecord(aggregate!, { path: () => undefined, links: () => undefined });
    expect(record.references).toEqual([
      { type: 'accessories', targetSku: 'M-200', targetKind: 'mpn', quantity: null },
      { type: 'sparepart', targetSku: 'D-200', quantity: 3 },
    ]);
    const wire = wireProduct(aggregate!, {
      index: indexMappings({
        manufacturers: [{ id: 'm1', name: 'Maker' }],
        units: [{ id: 'u1', code: 'C62' }],
        taxes: [],
      }),
      defaultTaxCode: undefined,
      categoryPath: () => undefined,
      mediaRef: () => undefined,
    });
    expect(wire.references).toEqual([
      { type: 'accessories', sku: 'M-200', quantity: null, targetKind: 'mpn' },
      { type: 'sparepart', sku: 'D-200', quantity: 3 },
    ]);
    // The connector parses the same schema: the field passes, a kind it does not know does not.
    expect(productSchema.parse(wire).references).toEqual(wire.references);
    const odd = { ...wire, references: [{ type: 'accessories', sku: 'M-200', quantity: null, targetKind: 'gtin' }] };
    expect(productSchema.safeParse(odd).success).toBe(false);
  });

  it('a reference by SKU does not resolve by manufacturer number', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const withItemRelation = file([product('M-100', ['D-100'], {}), product('M-200', ['D-200'])]).replace(
      '"SupplierItemNumber":"D-100"}',
      '"SupplierItemNumber":"D-100"},"ItemRelations":[{"RelatedSupplierItemNumber":"M-200","RelationType":"ACCESSORY","RelatedItemQuantity":1}]',
    );
    expect(withItemRelation).toContain('ItemRelations');
    await importText(session.tenant, catalog.catalogId, withItemRelation, 1);
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([['accessories', 'M-200', 'sku', null]]);
  });

  it('GetReferences shows the number as written, its kind and the resolved target; the exports write it back', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, first(), 1);
    const source = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-100')),
    });
    const res = await call('GET', `/api/Catalog/GetReferences?productId=${source!.id}`, { cookie: session.cookie });
    expect(res.status).toBe(200);
    const target = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-200')),
    });
    expect(res.json.outgoing[1]).toMatchObject({
      targetSku: 'M-200',
      targetKind: 'mpn',
      targetProductId: target!.id,
      pending: false,
    });
    expect(res.json.outgoing[2]).toMatchObject({ targetSku: 'M-300', targetKind: 'mpn', pending: true });

    // xChange: back as ProductRelations by RelatedManufacturerProductNumber, none as ItemRelations.
    const xchange = JSON.parse((await exportedFile(session.tenant, catalog.catalogId, 'ETIMxChange')).text);
    const exported = xchange.Supplier[0].Product.find(
      (p: any) => p.TradeItem[0].ItemIdentification.SupplierItemNumber === 'D-100',
    );
    expect(exported.ProductRelations).toEqual([
      related('SPAREPART', 'M-050', 2),
      related('ACCESSORY', 'M-200'),
      related('SIMILAR', 'M-300'),
      related('SUCCESSOR', 'M-900'),
    ]);
    expect(exported.TradeItem[0].ItemRelations).toBeUndefined();

    // Imported into another catalog, the export gives the same references.
    const again = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, again.catalogId, JSON.stringify(xchange), 1);
    expect(await referencesOf(again.catalogId, 'D-100')).toEqual(RESOLVED);

    // BMEcat: the resolved target by its SKU; a pending one by the number as written.
    const { text } = await exportedFile(session.tenant, catalog.catalogId, 'BMEcat');
    const compact = text.replace(/>\s+</g, '><');
    expect(compact).toMatch(/<PRODUCT_REFERENCE type="sparepart" quantity="2"><PROD_ID_TO>D-050<\/PROD_ID_TO>/);
    expect(compact).toMatch(/<PRODUCT_REFERENCE type="accessories"><PROD_ID_TO>D-200<\/PROD_ID_TO>/);
    expect(compact).toMatch(/<PRODUCT_REFERENCE type="similar"><PROD_ID_TO>M-300<\/PROD_ID_TO>/);

    // CSV: the kind after the type (`sparepart@mpn=2:M-050`); imported into another catalog, the same references.
    const csv = (await exportedFile(session.tenant, catalog.catalogId, 'CSV')).text;
    expect(csv).toContain('sparepart@mpn=2:M-050|accessories@mpn:M-200');
    const fromCsv = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, fromCsv.catalogId, csv, 100, 'catalog.csv');
    expect(await referencesOf(fromCsv.catalogId, 'D-100')).toEqual(RESOLVED);
  });

  it('SetReferences takes targetKind mpn: resolves by manufacturer number, and a SKU reference to the same text does not', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(
      session.tenant,
      catalog.catalogId,
      file([product('M-100', ['D-100']), product('M-200', ['D-200'])]),
      100,
    );
    const source = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'D-100')),
    });
    const res = await call('POST', '/api/Catalog/SetReferences', {
      cookie: session.cookie,
      body: {
        departmentId: session.tenant.departmentId,
        productId: source!.id,
        references: [
          { type: 'accessories', targetSku: 'M-200', targetKind: 'mpn' },
          { type: 'accessories', targetSku: 'M-200' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.outgoing.map((r: any) => [r.targetKind, r.pending])).toEqual([
      ['mpn', false],
      ['sku', true],
    ]);
    expect(await referencesOf(catalog.catalogId, 'D-100')).toEqual([
      ['accessories', 'M-200', 'mpn', 'D-200'],
      ['accessories', 'M-200', 'sku', null],
    ]);
  });
});
