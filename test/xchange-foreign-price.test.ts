import { describe, expect, it } from 'vitest';
import { exportedFile } from './helpers/export-fixtures';
import { makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

/** A one-product ETIM xChange V2.0 file whose prices are in `currency`. */
const fileIn = (currency: string) =>
  JSON.stringify({
    SchemaVersion: '2.0',
    CatalogueId: 'CUR-1',
    CatalogueType: 'FULL',
    CatalogueValidityStart: '2026-01-01',
    Language: ['de-DE'],
    CurrencyCode: currency,
    Supplier: [
      {
        SupplierName: 'Currency Supplier',
        Product: [
          {
            ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: 'CUR-P' },
            ProductDetails: {
              ProductStatus: 'ACTIVE',
              ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: 'Schalter' }],
            },
            TradeItem: [
              {
                ItemIdentification: { SupplierItemNumber: 'CUR-P' },
                Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' },
                Pricing: [{ PriceUnit: 'C62', PriceQuantity: '1', GrossListPrice: '23', Vat: '21' }],
              },
            ],
          },
        ],
      },
    ],
  });

async function roundTrip(fileCurrency: string) {
  const { tenant } = await makeSession();
  const { catalogId } = await makeCatalog(tenant, { currency: 'EUR' });
  const fileId = await putImportFile(tenant, fileIn(fileCurrency), 'catalog.json');
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ sliceMs: -1 }));
  expect((await importJobRow(jobId)).error).toBeNull();
  const { text, warnings } = await exportedFile(tenant, catalogId, 'ETIMxChange');
  const document = JSON.parse(text);
  return { document, pricing: document.Supplier[0].Product[0].TradeItem[0].Pricing, warnings };
}

describe('ETIM xChange export of prices in another currency than the catalog', () => {
  it('never writes a GBP price as the file currency: it is reported and the item says price on request', async () => {
    const { document, pricing, warnings } = await roundTrip('GBP');
    expect(document.CurrencyCode).toBe('EUR');
    expect(pricing).toEqual([{ PriceUnit: 'C62', PriceQuantity: '1', PriceOnRequest: true }]);
    expect(warnings.join('\n')).toMatch(/price in GBP left out: an xChange file has one currency \(EUR\)/);
  });

  it('writes the price of a file in the catalog currency as before', async () => {
    const { pricing } = await roundTrip('EUR');
    expect(JSON.stringify(pricing)).toContain('"GrossListPrice":"23"');
    expect(JSON.stringify(pricing)).not.toContain('PriceOnRequest');
  });
});
