/**
 * An ETIM xChange file of products with one ETIM class each (EC000042 of the sample reference
 * data, feature EF000008 = 230), the class entry's fields given per product: the class version
 * tests (test/xchange-class-version.test.ts, test/class-version-edits.test.ts).
 */
export const classProduct = (sku: string, classification: Record<string, unknown>) => ({
  ProductIdentification: { ManufacturerName: 'Maker', ManufacturerProductNumber: `M-${sku}` },
  ProductDetails: {
    ProductStatus: 'ACTIVE',
    ProductDescriptions: [{ DescriptionLanguage: 'de-DE', MinimalProductDescription: `Produkt ${sku}` }],
  },
  EtimClassification: [
    {
      EtimClassCode: 'EC000042',
      EtimFeatures: [{ EtimFeatureCode: 'EF000008', EtimValueNumeric: 230 }],
      ...classification,
    },
  ],
  TradeItem: [{ ItemIdentification: { SupplierItemNumber: sku }, Ordering: { OrderUnit: 'C62' } }],
});

export const classFile = (products: unknown[]) =>
  JSON.stringify({
    SchemaVersion: '2.0',
    CatalogueId: 'CV-2026',
    CatalogueType: 'FULL',
    CatalogueValidityStart: '2026-01-01',
    Language: ['de-DE'],
    CurrencyCode: 'EUR',
    Supplier: [{ SupplierName: 'Class Supplier', Product: products }],
  });
