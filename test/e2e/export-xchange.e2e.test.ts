import { describe, expect, inject, it } from 'vitest';
import { seedSyntheticCatalog } from '../../scripts/lib/dev-server';
import { api, login, runXChangeExport } from './export-harness';
import { xchangeErrors } from '../../scripts/lib/xchange-schema';
import { languageTag } from '../../src/kernel/languages';

const base = () => inject('baseUrl');

const productsOf = (document: any): any[] => document.Supplier.flatMap((s: any) => s.Product);

describe('ETIM xChange V2.0 export', () => {
  it('every demo catalog validates against the xChange V2.0 schema (scripts/lib/xchange-schema.ts) and holds every product with its ETIM data', async () => {
    const cookie = await login('editor@demo.test');
    const catalogs = (await api(cookie, 'Catalog/GetCatalogs?limit=100')).items;
    expect(catalogs.length).toBeGreaterThanOrEqual(3);
    const features: any[] = [];
    for (const catalog of catalogs) {
      const { job, document } = await runXChangeExport(cookie, catalog.departmentId, catalog.catalogId);
      expect(xchangeErrors(document)).toEqual([]);
      const products = productsOf(document);
      expect(products.length).toBe(catalog.productCount);
      expect(job.progress).toEqual({ done: products.length, total: products.length });
      // Every language the catalog publishes, its default first (other e2e files add catalogs in several).
      const languages = (catalog.languages as string[]).map((code) => languageTag(code));
      expect(languages[0]).toBe('de-DE');
      expect(document).toMatchObject({ SchemaVersion: '2.0', CatalogueType: 'FULL', Language: languages });
      const skus = products.map((p) => p.TradeItem[0].ItemIdentification.SupplierItemNumber);
      expect(new Set(skus).size).toBe(skus.length);
      for (const p of products) {
        expect(p.ProductDetails.ProductDescriptions[0].DescriptionLanguage).toBe('de-DE');
        for (const c of p.EtimClassification ?? []) {
          expect(c.EtimReleaseVersion).toBe('9.0');
          features.push(...(c.EtimFeatures ?? []));
        }
      }
      const withMedia = products.filter((p) => p.ProductAttachments);
      for (const p of withMedia) {
        // Uploaded files are served by this service; links point elsewhere (no internet here).
        for (const a of p.ProductAttachments[0].AttachmentDetails) {
          const uri = a.AttachmentUri as string;
          if (uri.startsWith(base())) expect((await fetch(uri)).status).toBe(200);
          else expect(uri).toMatch(/^https:\/\/[^/]+\//);
        }
      }
    }
    // The demo data is classified: EV codes, numbers, ranges and logical values, each typed as the schema wants.
    expect(features.length).toBeGreaterThan(50);
    expect(features.some((f) => /^EV\d{6}$/.test(f.EtimValueCode))).toBe(true);
    expect(features.some((f) => typeof f.EtimValueNumeric === 'string')).toBe(true);
    expect(features.some((f) => f.EtimValueRangeLower !== undefined && f.EtimValueRangeUpper !== undefined)).toBe(true);
    expect(features.some((f) => typeof f.EtimValueLogical === 'boolean')).toBe(true);
  });

  it('a generated catalog of 300 masters with variants, hostile text and media exports valid and complete', async () => {
    const seeded = await seedSyntheticCatalog(inject('persistDir'), 300);
    const cookie = await login(seeded.email, seeded.password);
    const { job, document } = await runXChangeExport(cookie, seeded.departmentId, seeded.catalogId);
    expect(xchangeErrors(document)).toEqual([]);
    const products = productsOf(document);
    expect(products).toHaveLength(300 + seeded.variants);
    expect(job.progress).toEqual({ done: 300 + seeded.variants, total: 300 + seeded.variants });
    expect(products.every((p) => p.ProductAttachments?.length === 1)).toBe(true);
    expect(products.every((p) => p.TradeItem[0].Pricing[0].GrossListPrice !== undefined)).toBe(true);
  });
});
