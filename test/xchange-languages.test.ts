import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readTranslations } from '../src/model/translation-store';
import { media, products } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Tenant = { companyId: string; departmentId: string; userId: string };

const description = (tag: string, name: string, more: Record<string, unknown> = {}) => ({
  DescriptionLanguage: tag,
  MinimalProductDescription: name,
  ...more,
});

/** A supplier's xChange V2.0 file in German, English and French (French partly missing). */
function threeLanguageFile() {
  const tradeItem = (sku: string, names: [string, string][]) => ({
    ItemIdentification: { SupplierItemNumber: sku },
    ItemDetails: {
      ItemDescriptions: names.map(([tag, name]) => ({ DescriptionLanguage: tag, MinimalItemDescription: name })),
    },
    Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' },
    Pricing: [{ PriceUnit: 'C62', PriceQuantity: '1', GrossListPrice: '4.5' }],
  });
  return {
    SchemaVersion: '2.0',
    CatalogueId: 'TRI',
    CatalogueType: 'FULL',
    CatalogueValidityStart: '2026-01-01',
    Language: ['de-DE', 'en-GB', 'fr-FR'],
    CurrencyCode: 'EUR',
    Supplier: [
      {
        SupplierName: 'Maker AG',
        Product: [
          {
            ProductIdentification: { ManufacturerName: 'Maker AG', ManufacturerProductNumber: 'MK-1' },
            ProductDetails: {
              ProductStatus: 'ACTIVE',
              ProductDescriptions: [
                description('de-DE', 'Leitungsschutzschalter B16', {
                  FullProductDescription: 'Schalter für die Hutschiene',
                  ProductKeyword: ['LS-Schalter', 'Hutschiene'],
                }),
                description('en-GB', 'Circuit breaker B16', {
                  FullProductDescription: 'A breaker for the DIN rail',
                  ProductKeyword: ['breaker', 'MCB'],
                }),
                description('fr-FR', 'Disjoncteur B16'),
              ],
            },
            EtimClassification: [
              {
                EtimReleaseVersion: '9.0',
                EtimClassCode: 'EC000042',
                EtimFeatures: [
                  { EtimFeatureCode: 'EF000001', EtimValueCode: 'EV000138' },
                  {
                    EtimFeatureCode: 'EF000005',
                    EtimValueDetails: [
                      { Language: 'de-DE', EtimValueDetails: 'grau' },
                      { Language: 'en-GB', EtimValueDetails: 'grey' },
                      { Language: 'fr-FR', EtimValueDetails: 'gris' },
                    ],
                  },
                ],
              },
            ],
            ProductAttachments: [
              {
                AttachmentType: 'ATX018',
                AttachmentDetails: [
                  {
                    AttachmentUri: 'https://example.com/img/tri-1.jpg',
                    AttachmentDescription: [
                      { Language: 'de-DE', AttachmentDescription: 'Frontansicht' },
                      { Language: 'en-GB', AttachmentDescription: 'Front view' },
                      { Language: 'fr-FR', AttachmentDescription: 'Vue de face' },
                    ],
                  },
                ],
              },
            ],
            TradeItem: [
              tradeItem('TRI-1', [
                ['de-DE', 'Leitungsschutzschalter B16'],
                ['en-GB', 'Circuit breaker B16'],
                ['fr-FR', 'Disjoncteur B16'],
              ]),
            ],
          },
          {
            ProductIdentification: { ManufacturerName: 'Maker AG', ManufacturerProductNumber: 'MK-2' },
            ProductDetails: {
              ProductStatus: 'ACTIVE',
              ProductDescriptions: [description('de-DE', 'Abdeckkappe'), description('en-GB', 'Cover cap')],
            },
            TradeItem: [
              tradeItem('TRI-2', [
                ['de-DE', 'Abdeckkappe'],
                ['en-GB', 'Cover cap'],
              ]),
            ],
          },
        ],
      },
    ],
  };
}

async function importText(tenant: Tenant, catalogId: string, text: string, languagesNotEnabled?: 'fail' | 'skip') {
  const fileId = await putImportFile(tenant, text, 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId, languagesNotEnabled });
  await runImportToEnd(jobId, importDeps({ sliceMs: -1, batchSize: 1 }));
  return importJobRow(jobId);
}

async function exportJson(tenant: Tenant, catalogId: string) {
  const jobId = await insertExportJob(tenant, { catalogId, exportType: 'ETIMxChange' });
  for (
    let i = 0;
    i < 50 &&
    (await runExportSlice(
      testDeps({ sliceMs: -1, mediaUrlFor: () => async (id) => `https://pim.test/media/signed/${id}` }),
      await jobRow(jobId),
    )) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return { row, document: JSON.parse(await (await env.FILES.get(row.resultKey!))!.text()) };
}

async function bySku(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  expect(row).toBeDefined();
  return { row: row!, translations: (await readTranslations(db(), [row!.id])).get(row!.id) };
}

const productOf = (document: any, sku: string) =>
  document.Supplier[0].Product.find((p: any) => p.TradeItem[0].ItemIdentification.SupplierItemNumber === sku);

describe('ETIM xChange in several languages', () => {
  it('imports every language: the catalog default into the columns, the others into translations', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
    const job = await importText(session.tenant, catalog.catalogId, JSON.stringify(threeLanguageFile()));
    expect(job.error).toBeNull();
    expect(job.summary).toMatchObject({ created: 2, rejected: 0 });
    const breaker = await bySku(catalog.catalogId, 'TRI-1');
    expect(breaker.row).toMatchObject({
      name: 'Leitungsschutzschalter B16',
      description: 'Schalter für die Hutschiene',
      keywords: 'LS-Schalter, Hutschiene',
    });
    expect(breaker.translations).toEqual({
      eng: {
        name: 'Circuit breaker B16',
        description: 'A breaker for the DIN rail',
        keywords: 'breaker, MCB',
        'details.ETIM.EF000005': 'grey',
      },
      fra: { name: 'Disjoncteur B16', 'details.ETIM.EF000005': 'gris' },
    });
    expect((await bySku(catalog.catalogId, 'TRI-2')).translations).toEqual({ eng: { name: 'Cover cap' } });
    // An attachment's description: the default language on the media row, the others its translations.
    const [picture] = await db().select().from(media).where(eq(media.elementId, breaker.row.id));
    expect(picture).toMatchObject({ fileName: 'tri-1.jpg', description: 'Frontansicht' });
    expect((await readTranslations(db(), [picture!.id])).get(picture!.id)).toEqual({
      eng: { description: 'Front view' },
      fra: { description: 'Vue de face' },
    });
  });

  it('fails a file with a language the company has not enabled, writing nothing; skip leaves its texts out with a warning', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng'] });
    const text = JSON.stringify(threeLanguageFile());
    const failed = await importText(session.tenant, catalog.catalogId, text);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(
      /languages not enabled for your company: French \(fra\) in 1 record\(s\), first at \$\.Supplier\[0\]\.Product\[0\]/,
    );
    expect(await db().query.products.findMany({ where: eq(products.catalogId, catalog.catalogId) })).toEqual([]);

    const skipped = await importText(session.tenant, catalog.catalogId, text, 'skip');
    expect(skipped.error).toBeNull();
    expect(skipped.summary).toMatchObject({ created: 2, rejected: 0 });
    expect(JSON.stringify(skipped.warnings)).toContain('texts in French (fra) left out');
    const breaker = await bySku(catalog.catalogId, 'TRI-1');
    expect(Object.keys(breaker.translations ?? {})).toEqual(['eng']);
  });

  it('exports every language of the catalog once per multilingual array; a missing translation is left out and reported', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
    await importText(session.tenant, catalog.catalogId, JSON.stringify(threeLanguageFile()));
    // The imported attachment names a file; once its bytes are uploaded it is exported with a URI.
    const imported = await bySku(catalog.catalogId, 'TRI-1');
    await db().update(media).set({ size: 3 }).where(eq(media.elementId, imported.row.id));
    const { row, document } = await exportJson(session.tenant, catalog.catalogId);
    expect(document.Language).toEqual(['de-DE', 'en-GB', 'fr-FR']);
    expect(productOf(document, 'TRI-1').ProductAttachments[0].AttachmentDetails[0].AttachmentDescription).toEqual([
      { Language: 'de-DE', AttachmentDescription: 'Frontansicht' },
      { Language: 'en-GB', AttachmentDescription: 'Front view' },
      { Language: 'fr-FR', AttachmentDescription: 'Vue de face' },
    ]);
    const breaker = productOf(document, 'TRI-1');
    expect(breaker.ProductDetails.ProductDescriptions).toEqual([
      {
        DescriptionLanguage: 'de-DE',
        MinimalProductDescription: 'Leitungsschutzschalter B16',
        FullProductDescription: 'Schalter für die Hutschiene',
        ProductKeyword: ['LS-Schalter', 'Hutschiene'],
      },
      {
        DescriptionLanguage: 'en-GB',
        MinimalProductDescription: 'Circuit breaker B16',
        FullProductDescription: 'A breaker for the DIN rail',
        ProductKeyword: ['breaker', 'MCB'],
      },
      { DescriptionLanguage: 'fr-FR', MinimalProductDescription: 'Disjoncteur B16' },
    ]);
    expect(breaker.TradeItem[0].ItemDetails.ItemDescriptions.map((d: any) => d.DescriptionLanguage)).toEqual([
      'de-DE',
      'en-GB',
      'fr-FR',
    ]);
    const colour = breaker.EtimClassification[0].EtimFeatures.find((f: any) => f.EtimFeatureCode === 'EF000005');
    expect(colour.EtimValueDetails).toEqual([
      { Language: 'de-DE', EtimValueDetails: 'grau' },
      { Language: 'en-GB', EtimValueDetails: 'grey' },
      { Language: 'fr-FR', EtimValueDetails: 'gris' },
    ]);
    // No French name: no French entry, never the German or English text in its place.
    const cap = productOf(document, 'TRI-2');
    expect(cap.ProductDetails.ProductDescriptions.map((d: any) => d.DescriptionLanguage)).toEqual(['de-DE', 'en-GB']);
    expect(cap.TradeItem[0].ItemDetails.ItemDescriptions.map((d: any) => d.MinimalItemDescription)).toEqual([
      'Abdeckkappe',
      'Cover cap',
    ]);
    const warnings = JSON.stringify(row.warnings);
    expect(warnings).toContain('FullProductDescription has no fra translation: left out in fra');
    expect(warnings).toContain('MinimalProductDescription has no fra translation: left out in fra');
  });

  it('round trip in three languages: export, import into an empty catalog, export again gives the same products', async () => {
    const session = await makeSession();
    const source = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
    await importText(session.tenant, source.catalogId, JSON.stringify(threeLanguageFile()));
    const first = (await exportJson(session.tenant, source.catalogId)).document;
    const target = await makeCatalog(session.tenant, { language: 'deu', languages: ['eng', 'fra'] });
    const job = await importText(session.tenant, target.catalogId, JSON.stringify(first));
    expect(job.error).toBeNull();
    const second = (await exportJson(session.tenant, target.catalogId)).document;
    const sorted = (doc: any) => doc.Supplier[0].Product.map((p: any) => JSON.stringify(p)).sort();
    expect(sorted(second)).toEqual(sorted(first));
    expect(second.Language).toEqual(['de-DE', 'en-GB', 'fr-FR']);
    expect((await bySku(target.catalogId, 'TRI-1')).translations).toEqual(
      (await bySku(source.catalogId, 'TRI-1')).translations,
    );
  });
});
