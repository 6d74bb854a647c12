import { describe, expect, it } from 'vitest';
import { xchangeErrors } from '../../scripts/lib/xchange-schema';
import { xchangeFidelity } from '../fixtures/xchange-fidelity';
import { api, importFile, login, runXChangeExport } from './export-harness';

/**
 * Issue 32: the xChange file with several prices, quantity allowances (tiers), relations and
 * attachments without URL (test/fixtures/xchange-fidelity.ts) imported through the API and
 * exported as ETIM xChange: the export holds the price list, the tiers, the ItemRelations and
 * every attachment, and validates against the schema (scripts/lib/xchange-schema.ts: the
 * committed structural schema, or the official one named by ETIM_XCHANGE_SCHEMA).
 */
describe('ETIM xChange fidelity through the API', () => {
  it('imports the fidelity fixture and exports it valid with its prices, tiers, relations and attachments', async () => {
    const admin = await login('admin@demo.test');
    const [department] = (await api(admin, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;
    const catalog = await api(admin, 'Catalog/AddCatalog', {
      departmentId,
      name: `xChange fidelity ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    const imported = await importFile(
      admin,
      { departmentId, catalogId: catalog.catalogId },
      JSON.stringify(xchangeFidelity()),
      'supplier.json',
    );
    expect(imported).toMatchObject({ state: 'succeeded', summary: { created: 2, rejected: 0 } });

    const { job: exported, document } = await runXChangeExport(admin, departmentId, catalog.catalogId);
    expect(xchangeErrors(document)).toEqual([]);
    const product = document.Supplier[0].Product.find(
      (p: any) => p.TradeItem[0].ItemIdentification.SupplierItemNumber === 'FID-1',
    );
    const item = product.TradeItem[0];
    expect(item.Pricing).toHaveLength(4);
    expect(item.Pricing[0]).toMatchObject({ NetPrice: '10.1235', GrossListPrice: '14.5', Vat: '19' });
    expect(item.Pricing[0].AllowanceSurcharge.map((a: any) => a.AllowanceSurchargeMinimumQuantity)).toEqual([
      '50',
      '100',
    ]);
    // Read from ProductRelations (by manufacturer number): written back there; by SKU: ItemRelations.
    expect(product.ProductRelations.map((r: any) => r.RelationType)).toEqual(['SUCCESSOR', 'OTHER']);
    expect(item.ItemRelations.map((r: any) => r.RelationType)).toEqual(['SPAREPART', 'ACCESSORY']);
    // The link is written; the file references were never uploaded: left out and reported (no dead links).
    const names = product.ProductAttachments.map((a: any) => a.AttachmentDetails[0].AttachmentFilename);
    expect(names).toEqual(['fid-1.jpg']);
    expect(JSON.stringify(exported.warnings ?? [])).toMatch(
      /media file not uploaded yet: left out|attachment URLs need MEDIA_URL_KEY/,
    );
  });
});
