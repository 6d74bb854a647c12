import { describe, expect, it } from 'vitest';
import { exportedFile } from './helpers/export-fixtures';
import { makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

/** A one-product ETIM xChange V2.0 file whose prices are in `currency`. */
const fileIn = (currency: string, sku = 'CUR-P') =>
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
            ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: sku },
            ProductDetails: {
              ProductStatus: 'ACTIVE',
              ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: 'Schalter' }],
            },
            TradeItem: [
              {
                ItemIdentification: { SupplierItemNumber: sku },
                Ordering: { OrderUnit: 'C62', MinimumOrderQuantity: '1', OrderStepSize: '1' },
                Pricing: [{ PriceUnit: 'C62', PriceQuantity: '1', GrossListPrice: '23', Vat: '21' }],
              },
            ],
          },
        ],
      },
    ],
  });

/** Imports one file per currency (each its own product) into an EUR catalog and exports it as xChange. */
async function roundTrip(...fileCurrencies: string[]) {
  const { tenant } = await makeSession();
  const { catalogId } = await makeCatalog(tenant, { currency: 'EUR' });
  for (const [i, currency] of fileCurrencies.entries()) {
    const fileId = await putImportFile(tenant, fileIn(currency, `CUR-${i}`), 'catalog.json');
    const jobId = await insertImportJob(tenant, { catalogId, fileId });
    await runImportToEnd(jobId, importDeps({ sliceMs: -1 }));
    expect((await importJobRow(jobId)).error).toBeNull();
  }
  const { text, warnings } = await exportedFile(tenant, catalogId, 'ETIMxChange');
  const document = JSON.parse(text);
  return { document, pricing: document.Supplier[0].Product[0].TradeItem[0].Pricing, warnings };
}

describe('ETIM xChange export of prices in another currency than the catalog', () => {
  it('a catalog priced wholly in GBP (a GBP file in an EUR catalog) is written in GBP: no price is left out', async () => {
    const { document, pricing, warnings } = await roundTrip('GBP');
    expect(document.CurrencyCode).toBe('GBP');
    expect(JSON.stringify(pricing)).toContain('"GrossListPrice":"23"');
    expect(warnings.join('\n')).not.toMatch(/price in GBP left out/);
  });

  it('beside prices in the catalog currency, a GBP price is never written as the file currency: reported, price on request', async () => {
    const { document, warnings } = await roundTrip('EUR', 'GBP');
    expect(document.CurrencyCode).toBe('EUR');
    const bySku = Object.fromEntries(
      document.Supplier[0].Product.map(
        (p: { TradeItem: { ItemIdentification: { SupplierItemNumber: string }; Pricing: unknown }[] }) => [
          p.TradeItem[0]!.ItemIdentification.SupplierItemNumber,
          p.TradeItem[0]!.Pricing,
        ],
      ),
    );
    expect(JSON.stringify(bySku['CUR-0'])).toContain('"GrossListPrice":"23"');
    expect(bySku['CUR-1']).toEqual([{ PriceUnit: 'C62', PriceQuantity: '1', PriceOnRequest: true }]);
    expect(warnings.join('\n')).toMatch(/price in GBP left out: an xChange file has one currency \(EUR\)/);
  });

  it('writes the price of a file in the catalog currency as before', async () => {
    const { pricing } = await roundTrip('EUR');
    expect(JSON.stringify(pricing)).toContain('"GrossListPrice":"23"');
    expect(JSON.stringify(pricing)).not.toContain('PriceOnRequest');
  });
});
