import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { products } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { signedMediaUrl } from '../src/media/signed-url';
import { xchangeItemsOf } from '../src/imports/records/xchange-records';
import { XCHANGE_START } from '../src/imports/read/xchange-reader';
import { fractionToPercent } from '../src/exports/xchange/xchange-pricing';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeSession } from './helpers/factories';
import { setPrices } from '../src/catalog/prices/prices';
import { setReferences } from '../src/catalog/references/references';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';
import { xchangeFidelity } from './fixtures/xchange-fidelity';

type Tenant = { companyId: string; departmentId: string; userId: string };

async function importText(tenant: Tenant, catalogId: string, text: string) {
  const fileId = await putImportFile(tenant, text, 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
  return { jobId, job: await importJobRow(jobId) };
}

async function aggregateOf(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  expect(row).toBeDefined();
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return aggregate!;
}

/** The export with signed media URLs, as the queue consumer runs it with MEDIA_URL_KEY and PUBLIC_BASE_URL. */
async function exportJson(tenant: Tenant, catalogId: string): Promise<{ document: any; warnings: string[] }> {
  const jobId = await insertExportJob(tenant, { catalogId, exportType: 'ETIMxChange' });
  const deps = testDeps({
    sliceMs: -1,
    mediaUrlFor: () => (id) => signedMediaUrl(env.MEDIA_URL_KEY, 'https://pim.test', id, 4102444800),
  });
  for (let i = 0; i < 50 && (await runExportSlice(deps, await jobRow(jobId))) === 'continued'; i++);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return {
    document: JSON.parse(await (await env.FILES.get(row.resultKey!))!.text()),
    warnings: (row.warnings as string[] | null) ?? [],
  };
}

const productOf = (document: any, sku: string) =>
  document.Supplier[0].Product.find((p: any) => p.TradeItem[0].ItemIdentification.SupplierItemNumber === sku);

/** A Product with the signed URLs (media id and signature differ per catalog) as a placeholder. */
const comparable = (product: any) =>
  JSON.parse(JSON.stringify(product).replace(/https:\/\/pim\.test\/media\/signed\/[^"]+/g, 'SIGNED'));

const LANGUAGES = { fileDefault: 'deu', catalogLanguage: 'deu', skip: [] };

describe('ETIM xChange fidelity: every price, relations, attachments without URL', () => {
  it('imports every Pricing entry, the relations and the attachments, and reports what the model cannot hold', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const { jobId, job } = await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeFidelity()));
    expect(job.error).toBeNull();
    expect(job.summary).toMatchObject({ created: 2, rejected: 0 });
    expect(job.warnings ?? []).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/product relations are not kept/)]),
    );

    const main = await aggregateOf(catalog.catalogId, 'FID-1');
    // The first amount (NetPrice, as before lists) is the product's price, kept with its 6 decimals.
    expect(main.product).toMatchObject({ price: '10.123456', priceQuantity: 1, unit: 'C62' });
    const rows = main.prices!.map((p) => ({
      type: p.type,
      amount: p.amount,
      tax: p.tax,
      validFrom: p.validFrom,
      validTo: p.validTo,
      base: p.baseUnit ? [p.baseValue, p.baseUnit, p.baseFactor] : null,
      currency: p.currency,
      lowerBound: p.lowerBound,
    }));
    const year = {
      tax: '0.19',
      validFrom: '2026-01-01',
      validTo: '2026-12-31',
      base: null,
      currency: null,
      lowerBound: null,
    };
    const plain = { tax: null, validFrom: null, validTo: null, base: null, currency: null, lowerBound: null };
    expect(rows).toEqual([
      { type: 'net_customer', amount: null, ...year }, // the default row: its amount is products.price
      { type: 'net_list', amount: '14.5', ...year },
      { type: 'nrp', amount: '19.99', ...year },
      // Quantity allowances are tiers of the GrossListPrice: 14.5 - 1.5 from 50, 14.5 less 10 % from 100.
      { type: 'net_list', amount: '13.0', ...year, lowerBound: '50' },
      { type: 'net_list', amount: '13.05', ...year, lowerBound: '100' },
      { type: 'net_list', amount: '13.9', ...plain, validFrom: '2027-01-01' },
      { type: 'net_list', amount: '120.5', ...plain, base: ['100', 'MTR', '2'] },
      { type: 'on_request', amount: null, ...plain },
    ]);

    // ProductRelations (by manufacturer number) first, then the trade item's ItemRelations (by SKU).
    expect(main.references.map((r) => [r.type, r.targetSku, r.quantity, r.targetProductId !== null])).toEqual([
      ['followup', 'FID-2', null, true],
      ['others', 'FID-2', null, true],
      ['sparepart', 'FID-2', 2, true],
      // A target neither in the file nor in the catalog is kept pending, as BMEcat's PROD_ID_TO.
      ['accessories', 'GHOST-9', 1, false],
    ]);

    // A URL is a link; a file name alone or a relative path is a file reference by its name, in AttachmentOrder.
    expect(main.media.map((m) => [m.fileName, m.url ?? null, m.purpose])).toEqual([
      ['fid-1.jpg', 'https://cdn.example.com/p/fid-1.jpg', 'normal'],
      ['fid-1-datasheet.pdf', null, 'others'],
      ['fid-1-manual.pdf', null, 'others'],
    ]);
    expect(main.media[1]!.description).toBe('Datenblatt');

    const second = await aggregateOf(catalog.catalogId, 'FID-2');
    // One GrossListPrice in the catalog's currency and nothing more is the plain price, as in BMEcat.
    expect(second.product.price).toBe('5.5');
    expect(second.prices ?? []).toEqual([]);

    const report = (await reportRows(jobId)).filter((r) => r[2] === 'FID-1').map((r) => r.join(' | '));
    expect(report).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Pricing\[0\]\.AllowanceSurcharge\[2\]: allowance not kept: no minimum quantity/),
        expect.stringMatching(
          /Pricing\[3\]\.AllowanceSurcharge\[0\]: allowance not kept: no GrossListPrice or NetPrice/,
        ),
        expect.stringMatching(/Pricing\[4\]: neither NetPrice, GrossListPrice nor RecommendedRetailPrice/),
        expect.stringMatching(/reference type "UPSELLING" is not known/),
      ]),
    );
  });

  it('round trip: the fixture imported, exported, imported into another catalog and exported again gives the same Products', async () => {
    const session = await makeSession();
    const source = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, source.catalogId, JSON.stringify(xchangeFidelity()));
    const first = await exportJson(session.tenant, source.catalogId);
    const item = productOf(first.document, 'FID-1').TradeItem[0];
    expect(item.Pricing).toEqual([
      {
        PriceUnit: 'C62',
        PriceQuantity: '1',
        Vat: '19',
        PriceValidityDate: '2026-01-01',
        PriceExpiryDate: '2026-12-31',
        NetPrice: '10.1235',
        GrossListPrice: '14.5',
        RecommendedRetailPrice: '19.99',
        AllowanceSurcharge: [
          {
            AllowanceSurchargeIndicator: 'ALLOWANCE',
            AllowanceSurchargeType: 'QD',
            AllowanceSurchargeAmount: '1.5',
            AllowanceSurchargeMinimumQuantity: '50',
          },
          {
            AllowanceSurchargeIndicator: 'ALLOWANCE',
            AllowanceSurchargeType: 'QD',
            AllowanceSurchargeAmount: '1.45',
            AllowanceSurchargeMinimumQuantity: '100',
          },
        ],
      },
      { PriceUnit: 'C62', PriceQuantity: '1', PriceValidityDate: '2027-01-01', GrossListPrice: '13.9' },
      { PriceUnit: 'MTR', PriceQuantity: '100', PriceUnitFactor: '2', GrossListPrice: '120.5' },
      { PriceUnit: 'C62', PriceQuantity: '1', PriceOnRequest: true },
    ]);
    expect(first.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/more than 4 decimals: rounded half up to 4/)]),
    );
    // References read from ProductRelations (by manufacturer number) go back there; those by SKU to ItemRelations.
    expect(productOf(first.document, 'FID-1').ProductRelations).toEqual([
      { RelationType: 'SUCCESSOR', RelatedProducts: [{ RelatedManufacturerProductNumber: 'FID-2' }] },
      { RelationType: 'OTHER', RelatedProducts: [{ RelatedManufacturerProductNumber: 'FID-2' }] },
    ]);
    expect(item.ItemRelations).toEqual([
      { RelatedSupplierItemNumber: 'FID-2', RelationType: 'SPAREPART', RelatedItemQuantity: 2 },
      { RelatedSupplierItemNumber: 'GHOST-9', RelationType: 'ACCESSORY', RelatedItemQuantity: 1 },
    ]);
    const attachments = productOf(first.document, 'FID-1').ProductAttachments;
    // The file references not uploaded yet are left out and reported: an AttachmentUri that answers
    // 404 until someone uploads the file would be a dead link in every shop reading the file.
    expect(attachments.map((a: any) => a.AttachmentDetails[0].AttachmentFilename)).toEqual(['fid-1.jpg']);
    expect(attachments[0].AttachmentDetails[0].AttachmentUri).toBe('https://cdn.example.com/p/fid-1.jpg');
    expect(first.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/media file not uploaded yet: left out/)]),
    );

    const target = await makeCatalog(session.tenant, { language: 'deu' });
    const again = await importText(session.tenant, target.catalogId, JSON.stringify(first.document));
    expect(again.job.error).toBeNull();
    const copy = await aggregateOf(target.catalogId, 'FID-1');
    expect(copy.media.map((m) => [m.fileName, m.url ?? null])).toEqual([
      ['fid-1.jpg', 'https://cdn.example.com/p/fid-1.jpg'],
    ]);
    const second = await exportJson(session.tenant, target.catalogId);
    for (const sku of ['FID-1', 'FID-2'])
      expect(comparable(productOf(second.document, sku))).toEqual(comparable(productOf(first.document, sku)));
  });

  it('keeps a price in the file currency when it is not the catalog one, and reads Vat as a fraction', () => {
    const product = xchangeFidelity().Supplier[0]!.Product[1]!;
    const [item] = xchangeItemsOf(product, { ...XCHANGE_START.envelope, currency: 'CHF' }, LANGUAGES, 'EUR');
    // In CHF the one GrossListPrice is no plain price in the catalog's currency: kept as a list.
    expect(item!.record!.prices).toEqual([
      { type: 'net_list', amount: '5.5', currency: 'CHF', tax: null, validFrom: null, validTo: null, base: null },
    ]);
    expect(item!.record!.fields.price).toBe('5.5');
    // A VAT or date that does not read costs the price nothing: left out with a warning naming the field.
    const odd = structuredClone(product);
    Object.assign((odd.TradeItem[0] as unknown as { Pricing: object[] }).Pricing[0]!, {
      Vat: 'hoch',
      PriceValidityDate: '1.1.2026',
    });
    const [kept] = xchangeItemsOf(odd, { ...XCHANGE_START.envelope, currency: 'EUR' }, LANGUAGES, 'EUR');
    expect(kept!.record!.fields.price).toBe('5.5');
    expect(kept!.warnings.map((w) => w.message)).toEqual([
      'Pricing[0].Vat "hoch" is not a percentage below 100: left out, the price kept',
      'Pricing[0].PriceValidityDate "1.1.2026" is not a date such as 2026-01-31: left out, the price kept',
    ]);
    expect(fractionToPercent('0.19')).toBe('19');
    expect(fractionToPercent('0.075')).toBe('7.5');
    expect(fractionToPercent('0.2')).toBe('20');
  });

  it('exports tiers as quantity allowances, and other price types, tiers and currencies xChange cannot say with a warning', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeFidelity()));
    const product = await aggregateOf(catalog.catalogId, 'FID-2');
    await setPrices(db(), asActor(session.tenant), {
      departmentId: session.tenant.departmentId,
      productId: product.product.id,
      prices: [
        { type: 'net_list', amount: '5.5' },
        { type: 'net_list', amount: '4.9', lowerBound: '10' },
        { type: 'net_list', amount: '5.75', lowerBound: '1000' },
        { type: 'nrp', amount: '6.9', lowerBound: '10' },
        { type: 'gros_list', amount: '6.5' },
        { type: 'nrp', amount: '7', currency: 'USD' },
      ],
    });
    const { document, warnings } = await exportJson(session.tenant, catalog.catalogId);
    // A tier of the GrossListPrice is a quantity allowance (a higher one a surcharge); an nrp tier has no place.
    expect(productOf(document, 'FID-2').TradeItem[0].Pricing).toEqual([
      {
        PriceUnit: 'C62',
        PriceQuantity: '1',
        GrossListPrice: '5.5',
        AllowanceSurcharge: [
          {
            AllowanceSurchargeIndicator: 'ALLOWANCE',
            AllowanceSurchargeType: 'QD',
            AllowanceSurchargeAmount: '0.6',
            AllowanceSurchargeMinimumQuantity: '10',
          },
          {
            AllowanceSurchargeIndicator: 'SURCHARGE',
            AllowanceSurchargeType: 'QD',
            AllowanceSurchargeAmount: '0.25',
            AllowanceSurchargeMinimumQuantity: '1000',
          },
        ],
      },
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/tier price from 10 left out: ETIM xChange says a tier only as an allowance/),
        expect.stringMatching(/price of type gros_list left out/),
        expect.stringMatching(/price in USD left out/),
      ]),
    );
  });
  it('reports in the export what it leaves out: price types, territories, a reference without quantity or with a description', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeFidelity()));
    const product = await aggregateOf(catalog.catalogId, 'FID-2');
    const departmentId = session.tenant.departmentId;
    await setPrices(db(), asActor(session.tenant), {
      departmentId,
      productId: product.product.id,
      prices: [
        { type: 'net_list', amount: '5.5', territory: ['CH'] },
        { type: 'net_customer_exp', amount: '5.1' },
        { type: 'udp_special', amount: '4.8' },
      ],
    });
    await setReferences(db(), asActor(session.tenant), {
      departmentId,
      productId: product.product.id,
      references: [
        { type: 'accessories', targetSku: 'FID-1' },
        { type: 'similar', targetSku: 'GHOST-7', quantity: 2, descr: 'Nachfolger', targetCatalog: 'OTHER-CAT' },
      ],
    });
    const { document, warnings } = await exportJson(session.tenant, catalog.catalogId);
    const item = productOf(document, 'FID-2').TradeItem[0];
    // The territory has no place in a Pricing entry: the price is written, its territory reported.
    expect(item.Pricing).toEqual([{ PriceUnit: 'C62', PriceQuantity: '1', GrossListPrice: '5.5' }]);
    // RelatedItemQuantity is required by the schema (integer from 1): no quantity is written as 1, and said.
    expect(item.ItemRelations).toEqual([
      { RelatedSupplierItemNumber: 'FID-1', RelationType: 'ACCESSORY', RelatedItemQuantity: 1 },
      { RelatedSupplierItemNumber: 'GHOST-7', RelationType: 'SIMILAR', RelatedItemQuantity: 2 },
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^price territory left out: ETIM xChange prices have none: 1 time \(e\.g\. FID-2\)/),
        expect.stringMatching(/^price of type net_customer_exp left out: ETIM xChange has no such price/),
        expect.stringMatching(/^price of type udp_special left out: ETIM xChange has no such price/),
        expect.stringMatching(
          /^reference without quantity written with RelatedItemQuantity 1: ETIM xChange ItemRelations require one: 1 time \(e\.g\. FID-2\)/,
        ),
        expect.stringMatching(/^reference description \(REFERENCE_DESCR\) left out/),
        expect.stringMatching(/^reference's target catalog left out/),
      ]),
    );
  });
});
