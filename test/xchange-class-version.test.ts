import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { reportRows, importTextToEnd } from './helpers/import-fixtures';
import { classFile as file, classProduct as product } from './helpers/xchange-class-files';

/**
 * Issue 32: an xChange EtimClassification's EtimClassVersion (the version of the class the
 * supplier classified against) and, for the DYNAMIC release, its EtimDynamicReleaseDate are kept
 * with the product's ETIM class (migration 0082) and written back by the xChange export; before,
 * both were reported as not kept.
 */
type Tenant = { companyId: string; departmentId: string; userId: string };

const FILE = file([
  product('CV-1', { EtimReleaseVersion: '9.0', EtimClassVersion: 3 }),
  // A class the sample reference data does not have, so it stays DYNAMIC (kept verbatim, unverified).
  product('CV-2', {
    EtimReleaseVersion: 'DYNAMIC',
    EtimClassCode: 'EC011533',
    EtimClassVersion: 7,
    EtimDynamicReleaseDate: '2025-11-27',
  }),
  product('CV-3', { EtimReleaseVersion: '9.0', EtimClassVersion: 0, EtimDynamicReleaseDate: 'gestern' }),
]);

const importText = (tenant: Tenant, catalogId: string, text: string) =>
  importTextToEnd(tenant, catalogId, text, { batchSize: 2 });

async function classesOf(catalogId: string) {
  const rows = await db().query.products.findMany({ where: eq(products.catalogId, catalogId) });
  const aggregates = await loadProductAggregates(
    db(),
    rows[0]!.companyId,
    rows.map((r) => r.id),
  );
  return Object.fromEntries(aggregates.map((a) => [a.product.sku, a.classification?.classes]));
}

/** The stored classes (the aggregate): the DYNAMIC class, which the sample does not hold, is kept verbatim (unverified). */
const KEPT = {
  'CV-1': [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', classVersion: 3 }],
  'CV-2': [
    {
      group: 'ETIM',
      system: 'ETIM-DYNAMIC',
      code: 'EC011533',
      classVersion: 7,
      dynamicReleaseDate: '2025-11-27',
      unverified: true,
    },
  ],
  'CV-3': [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }],
};

describe('xChange EtimClassVersion and EtimDynamicReleaseDate', () => {
  it('are kept with the ETIM class, shown by GetProduct, written back by the export and read again', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const { jobId, job } = await importText(session.tenant, catalog.catalogId, FILE);
    expect(job.summary).toMatchObject({ created: 3, 'warnings.class_field_dropped': 2 });
    // Only what does not read is reported.
    const report = (await reportRows(jobId)).map((r) => r.join(' | ')).join('\n');
    expect(report).toContain('EtimClassVersion "0" is not a whole number ≥ 1: not kept');
    expect(report).toContain('EtimDynamicReleaseDate "gestern" is not a date YYYY-MM-DD: not kept');
    expect(report).not.toMatch(/EtimClassVersion of ETIM class/);
    expect(await classesOf(catalog.catalogId)).toEqual(KEPT);

    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'CV-2')),
    });
    const shown = await call('GET', `/api/Catalog/GetProduct?productId=${row!.id}`, { cookie: session.cookie });
    expect(shown.status, shown.text).toBe(200);
    // GetProduct does not say whether a class is verified.
    expect(shown.json.classification.classes).toEqual([{ ...KEPT['CV-2'][0], unverified: undefined }]);
    expect(shown.json.classification.classes[0]).not.toHaveProperty('unverified');

    const { text } = await exportedFile(session.tenant, catalog.catalogId, 'ETIMxChange');
    const written = Object.fromEntries(
      JSON.parse(text).Supplier[0].Product.map((p: { TradeItem: any[]; EtimClassification: any[] }) => {
        const { EtimFeatures: _features, ...etim } = p.EtimClassification[0];
        return [p.TradeItem[0].ItemIdentification.SupplierItemNumber, etim];
      }),
    );
    expect(written).toEqual({
      'CV-1': { EtimReleaseVersion: '9.0', EtimClassCode: 'EC000042', EtimClassVersion: 3 },
      'CV-2': {
        EtimReleaseVersion: 'DYNAMIC',
        EtimClassCode: 'EC011533',
        EtimClassVersion: 7,
        EtimDynamicReleaseDate: '2025-11-27',
      },
      'CV-3': { EtimReleaseVersion: '9.0', EtimClassCode: 'EC000042' },
    });

    const again = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, again.catalogId, text);
    expect(await classesOf(again.catalogId)).toEqual(KEPT);
  });

  it('a file that gives another class version updates the product; the same file again changes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, FILE);
    const next = file([product('CV-1', { EtimReleaseVersion: '9.0', EtimClassVersion: 4 })]);
    const { job } = await importText(session.tenant, catalog.catalogId, next);
    expect(job.summary).toMatchObject({ updated: 1 });
    expect((await classesOf(catalog.catalogId))['CV-1']).toEqual([
      { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', classVersion: 4 },
    ]);
    const same = await importText(session.tenant, catalog.catalogId, next);
    expect(same.job.summary).toMatchObject({ unchanged: 1, updated: 0 });
  });
});
