import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import {
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  importSkus,
  importWarnings,
  products,
} from '../src/db/schema';
import { orderUnit } from '../src/catalog/upsert/resolve/order-units';
import { file, product } from './fixtures/bmecat-variants';
import { db, makeCatalog, makeSession } from './helpers/factories';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportComments,
  reportRows,
  runImportToEnd,
} from './helpers/import-fixtures';

async function importInto(xml: string, options: { strict?: boolean; batchSize?: number } = {}) {
  const session = await makeSession();
  const catalog = await makeCatalog(session.tenant, { name: 'Toleranz' });
  const fileId = await putImportFile(session.tenant, xml);
  const jobId = await insertImportJob(session.tenant, {
    catalogId: catalog.catalogId,
    fileId,
    strict: options.strict ?? false,
  });
  await runImportToEnd(jobId, importDeps({ batchSize: options.batchSize }));
  const row = async (sku: string) =>
    db().query.products.findFirst({ where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, sku)) });
  return { session, jobId, job: await importJobRow(jobId), row, rows: await reportRows(jobId) };
}

const unit = (u: string) => `<PRODUCT_ORDER_DETAILS><ORDER_UNIT>${u}</ORDER_UNIT></PRODUCT_ORDER_DETAILS>`;
const etim = (cls: string, ...features: [string, ...string[]][]) =>
  `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>${cls}</REFERENCE_FEATURE_GROUP_ID>${features
    .map(
      ([code, ...values]) =>
        `<FEATURE><FNAME>${code}</FNAME>${values.map((v) => `<FVALUE>${v}</FVALUE>`).join('')}</FEATURE>`,
    )
    .join('')}</PRODUCT_FEATURES>`;
const xml = (...records: string[]) => file({ root: 'version="2005"', records });

describe('order units', () => {
  it('maps supplier spellings to UN/ECE Rec. 20 codes and leaves codes alone', () => {
    expect(['Stück', 'Stk.', 'PCE', 'pcs', 'BOX', 'Meter', 'C62', 'MTR', 'XYZ', 'Karton-Box'].map(orderUnit)).toEqual([
      { code: 'C62', alias: true },
      { code: 'C62', alias: true },
      { code: 'C62', alias: true },
      { code: 'C62', alias: true },
      { code: 'BX', alias: true },
      { code: 'MTR', alias: true },
      { code: 'C62', alias: false },
      { code: 'MTR', alias: false },
      { code: 'XYZ', alias: false },
      null,
    ]);
  });

  it('keeps the product: Stück is stored as C62, an unknown unit as written, each with a warning', async () => {
    const { job, row, rows } = await importInto(
      xml(product('U-1', 'Stückgut', unit('Stück')), product('U-2', 'Kiste', unit('  Rolle   à 50 m  '))),
    );
    expect(job.summary).toMatchObject({
      created: 2,
      rejected: 0,
      'warnings.unit_alias': 1,
      'warnings.unit_kept': 1,
    });
    expect(await row('U-1')).toMatchObject({ unit: 'C62' });
    expect(await row('U-2')).toMatchObject({ unit: 'Rolle à 50 m', name: 'Kiste' });
    expect(rows.map((r) => r.slice(1))).toEqual([
      [
        'warning',
        'U-1',
        'line 7: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_ORDER_DETAILS/ORDER_UNIT',
        'unit: order unit "Stück" is not a UN/ECE Rec. 20 code: stored as C62',
        'unit_alias',
      ],
      [
        'warning',
        'U-2',
        'line 8: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_ORDER_DETAILS/ORDER_UNIT',
        'unit: order unit "Rolle   à 50 m" is neither a UN/ECE Rec. 20 code nor a known alias: kept as "Rolle à 50 m"',
        'unit_kept',
      ],
    ]);
  });

  it('rejects the Stück product with strict: true, as before', async () => {
    const { job, row } = await importInto(xml(product('U-1', 'Stückgut', unit('Stück'))), { strict: true });
    expect(job.summary).toMatchObject({ created: 0, rejected: 1, 'rejected.invalid_unit': 1 });
    expect(await row('U-1')).toBeUndefined();
  });
});

describe('CSV files follow the same rules', () => {
  it('keeps a row with a wrong GTIN and Stück, with warnings at its line', async () => {
    const { job, row, rows } = await importInto('sku,name,gtin,unit\r\nC-1,Eins,4006381333932,Stück\r\n');
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, warnings: 2 });
    expect(await row('C-1')).toMatchObject({ name: 'Eins', gtin: null, unit: 'C62' });
    expect(rows.map((r) => [r[1], r[3], r[5]])).toEqual([
      ['warning', 'line 2', 'field_invalid'],
      ['warning', 'line 2', 'unit_alias'],
    ]);
  });
});

describe('classification the reference data cannot confirm', () => {
  it('keeps a class that is not loaded verbatim as unverified, its features as text', async () => {
    const { session, job, row, rows } = await importInto(
      xml(product('K-1', 'Unbekannte Klasse', etim('EC999999', ['EF999999', 'EV000123'], ['EF000008', '230']))),
    );
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, 'warnings.class_unverified': 1 });
    const stored = await row('K-1');
    const link = (await db().query.classificationLinks.findFirst({
      where: eq(classificationLinks.elementId, stored!.id),
    }))!;
    expect(
      await db().select().from(classificationLinkClasses).where(eq(classificationLinkClasses.linkId, link.id)),
    ).toEqual([
      {
        linkId: link.id,
        group: 'ETIM',
        system: 'ETIM-9.0',
        code: 'EC999999',
        unverified: true,
        release: null,
        // Migration 0082: what an xChange file says it classified against (a BMEcat file says nothing).
        classVersion: null,
        dynamicReleaseDate: null,
      },
    ]);
    const features = await db()
      .select()
      .from(classificationLinkFeatures)
      .where(eq(classificationLinkFeatures.linkId, link.id));
    expect(features.map((f) => [f.code, f.value, f.unverified])).toEqual([
      ['EF000008', '230', true],
      ['EF999999', 'EV000123', true],
    ]);
    expect(rows[0]?.slice(1)).toEqual([
      'warning',
      'K-1',
      'line 7: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_FEATURES/REFERENCE_FEATURE_GROUP_ID',
      'classification.classes: ETIM-9.0 class EC999999 is not in the loaded reference data: kept verbatim as unverified, its features as text',
      'class_unverified',
    ]);
    // The product reads back with the class (its code stands for the missing name).
    const read = await getProduct(db(), session.tenant, stored!.id);
    expect(read.classification?.classes).toMatchObject([{ group: 'ETIM', code: 'EC999999' }]);
  });

  it('keeps a value that does not parse for its feature as text, flagged, and the parsed ones normalised', async () => {
    const { job, row, rows } = await importInto(
      xml(product('F-1', 'Schalter', etim('EC000042', ['EF000008', 'zweihundert'], ['EF000010', '3']))),
    );
    expect(job.summary).toMatchObject({ created: 1, rejected: 0, 'warnings.feature_value_text': 1 });
    const link = (await db().query.classificationLinks.findFirst({
      where: eq(classificationLinks.elementId, (await row('F-1'))!.id),
    }))!;
    const features = await db()
      .select()
      .from(classificationLinkFeatures)
      .where(eq(classificationLinkFeatures.linkId, link.id));
    expect(features.map((f) => [f.code, f.value, f.unverified])).toEqual([
      ['EF000008', 'zweihundert', true],
      ['EF000010', '3', false],
    ]);
    expect(rows[0]?.slice(3)).toEqual([
      'line 7: /BMECAT/T_NEW_CATALOG/PRODUCT/PRODUCT_FEATURES/FEATURE',
      expect.stringMatching(/^classification\.features\.EF000008: .*"zweihundert" kept as text \(unverified\)$/),
      'feature_value_text',
    ]);
  });

  it('rejects both with strict: true, as before', async () => {
    const { job } = await importInto(
      xml(
        product('K-1', 'Unbekannt', etim('EC999999')),
        product('F-1', 'Schalter', etim('EC000042', ['EF000008', 'zweihundert'])),
      ),
      { strict: true },
    );
    expect(job.summary).toMatchObject({ created: 0, rejected: 2, 'rejected.invalid_classification': 2 });
  });
});

describe('what still rejects a product: it cannot be identified', () => {
  it('rejects the later of two products with one SKU, also batches apart, naming the first', async () => {
    const { job, row, rows } = await importInto(
      xml(product('D-1', 'Erster'), product('D-2', 'Anderer'), product('D-1', 'Zweiter'), product('D-1', 'Dritter')),
      { batchSize: 1 },
    );
    expect(job.summary).toMatchObject({ created: 2, rejected: 2, 'rejected.sku_duplicate': 2 });
    expect(await row('D-1')).toMatchObject({ name: 'Erster' });
    expect(rows.map((r) => [r[1], r[2], r[3], r[4]])).toEqual([
      [
        'rejected',
        'D-1',
        'line 9: /BMECAT/T_NEW_CATALOG/PRODUCT',
        'SKU D-1 is in the file twice (first at line 7: /BMECAT/T_NEW_CATALOG/PRODUCT); this product is not read',
      ],
      [
        'rejected',
        'D-1',
        'line 10: /BMECAT/T_NEW_CATALOG/PRODUCT',
        'SKU D-1 is in the file twice (first at line 7: /BMECAT/T_NEW_CATALOG/PRODUCT); this product is not read',
      ],
    ]);
    // Staging is gone with the job.
    expect(await db().select().from(importSkus).where(eq(importSkus.jobId, job.id))).toEqual([]);
    expect(await db().select().from(importWarnings).where(eq(importWarnings.jobId, job.id))).toEqual([]);
  });

  it('groups the report by reason with counts, rejections first', async () => {
    const { jobId } = await importInto(
      xml(
        '<PRODUCT><PRODUCT_DETAILS><DESCRIPTION_SHORT>ohne</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>',
        product('G-1', 'a', unit('Stk')),
        product('G-2', 'b', unit('PCS')),
        product('G-3', 'c'),
      ),
    );
    expect(await reportComments(jobId)).toEqual([
      expect.stringMatching(/^# created=3 updated=0 unchanged=0 rejected=1 .*warnings=2 total=4$/),
      '# rejected sku_missing: 1 (no SKU (SUPPLIER_PID / SUPPLIER_AID): product rejected)',
      '# warning unit_alias: 2 (order unit mapped to a UN/ECE Rec. 20 code)',
    ]);
  });
});
