import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { importDeps, importJobRow, insertImportJob, putImportFile, runImportToEnd } from './helpers/import-fixtures';

type Tenant = { companyId: string; departmentId: string; userId: string };

/**
 * A supplier BMEcat 2005 file whose features are in systems the model does not classify by
 * (kept as blocks of other feature systems): UNSPSC with a class and no features, a supplier's
 * system with a class, a unit, a range and a feature of three values, and a system without class.
 */
const FILE = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd">
<HEADER>
  <CATALOG><LANGUAGE default="true">deu</LANGUAGE><CATALOG_ID>SYS-1</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG>
  <SUPPLIER><SUPPLIER_NAME>Lieferant</SUPPLIER_NAME></SUPPLIER>
</HEADER>
<T_NEW_CATALOG>
<PRODUCT mode="new">
  <SUPPLIER_PID>SYS-P1</SUPPLIER_PID>
  <PRODUCT_DETAILS><DESCRIPTION_SHORT>Klemme</DESCRIPTION_SHORT><MANUFACTURER_NAME>Hersteller</MANUFACTURER_NAME></PRODUCT_DETAILS>
  <PRODUCT_FEATURES>
    <REFERENCE_FEATURE_SYSTEM_NAME>UNSPSC</REFERENCE_FEATURE_SYSTEM_NAME>
    <REFERENCE_FEATURE_GROUP_ID>39121410</REFERENCE_FEATURE_GROUP_ID>
  </PRODUCT_FEATURES>
  <PRODUCT_FEATURES>
    <REFERENCE_FEATURE_SYSTEM_NAME>udf_SUPPLIER-2.1</REFERENCE_FEATURE_SYSTEM_NAME>
    <REFERENCE_FEATURE_GROUP_ID>K-17</REFERENCE_FEATURE_GROUP_ID>
    <FEATURE><FNAME>Querschnitt</FNAME><FVALUE>2.5</FVALUE><FUNIT>MMK</FUNIT></FEATURE>
    <FEATURE><FNAME>Temperatur</FNAME><FVALUE>-40</FVALUE><FVALUE>85</FVALUE><FUNIT>CEL</FUNIT></FEATURE>
    <FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE><FVALUE>blau</FVALUE><FVALUE>rot</FVALUE></FEATURE>
    <FEATURE><FNAME>Material</FNAME><FVALUE>PA</FVALUE></FEATURE>
  </PRODUCT_FEATURES>
  <PRODUCT_FEATURES>
    <REFERENCE_FEATURE_SYSTEM_NAME>udf_NOCLASS</REFERENCE_FEATURE_SYSTEM_NAME>
    <FEATURE><FNAME>Serie</FNAME><FVALUE>X2</FVALUE></FEATURE>
  </PRODUCT_FEATURES>
  <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><CONTENT_UNIT>C62</CONTENT_UNIT><NO_CU_PER_OU>1</NO_CU_PER_OU></PRODUCT_ORDER_DETAILS>
  <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>1.25</PRICE_AMOUNT></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS>
</PRODUCT>
</T_NEW_CATALOG>
</BMECAT>`;

async function importInto(tenant: Tenant, catalogId: string, text: string, name: string) {
  const fileId = await putImportFile(tenant, text, name);
  const jobId = await insertImportJob(tenant, { catalogId, fileId });
  await runImportToEnd(jobId, importDeps({ sliceMs: -1 }));
  expect((await importJobRow(jobId)).error).toBeNull();
}

async function blocksOf(companyId: string, catalogId: string) {
  const [row] = await db().select({ id: products.id }).from(products).where(eq(products.catalogId, catalogId));
  const [aggregate] = await loadProductAggregates(db(), companyId, [row!.id]);
  return (aggregate!.featureBlocks ?? []).map((b) => ({ system: b.system, groupId: b.groupId, features: b.features }));
}

describe('ETIM xChange and blocks of other feature systems', () => {
  it('writes them as OtherClassifications and reads them back as the same blocks; a block without class is reported', async () => {
    const { tenant } = await makeSession();
    const source = await makeCatalog(tenant);
    await importInto(tenant, source.catalogId, FILE, 'systems.xml');
    const before = await blocksOf(tenant.companyId, source.catalogId);
    expect(before.map((b) => b.system)).toEqual(['UNSPSC', 'udf_SUPPLIER-2.1', 'udf_NOCLASS']);

    const { text, warnings } = await exportedFile(tenant, source.catalogId, 'ETIMxChange');
    const product = JSON.parse(text).Supplier[0].Product[0];
    expect(product.OtherClassifications).toEqual([
      { ClassificationName: 'UNSPSC', ClassificationClassCode: '39121410' },
      {
        ClassificationName: 'udf_SUPPLIER',
        ClassificationVersion: '2.1',
        ClassificationClassCode: 'K-17',
        ClassificationFeatures: [
          {
            ClassificationFeatureName: 'Querschnitt',
            ClassificationFeatureValue1: '2.5',
            ClassificationFeatureUnit: 'MMK',
          },
          {
            ClassificationFeatureName: 'Temperatur',
            ClassificationFeatureValue1: '-40',
            ClassificationFeatureValue2: '85',
            ClassificationFeatureUnit: 'CEL',
          },
          { ClassificationFeatureName: 'Farbe', ClassificationFeatureValue1: 'grau' },
          { ClassificationFeatureName: 'Farbe', ClassificationFeatureValue1: 'blau' },
          { ClassificationFeatureName: 'Farbe', ClassificationFeatureValue1: 'rot' },
          { ClassificationFeatureName: 'Material', ClassificationFeatureValue1: 'PA' },
        ],
      },
    ]);
    expect(warnings.join('\n')).toMatch(
      /feature block udf_NOCLASS left out: ETIM xChange requires a class code \(ClassificationClassCode\)/,
    );

    const copy = await makeCatalog(tenant);
    await importInto(tenant, copy.catalogId, text, 'systems.json');
    expect(await blocksOf(tenant.companyId, copy.catalogId)).toEqual(before.filter((b) => b.system !== 'udf_NOCLASS'));
  });
});
