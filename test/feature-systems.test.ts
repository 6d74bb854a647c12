import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { products } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import {
  importDeps,
  importJobRow,
  insertImportJob,
  putImportFile,
  reportComments,
  runImportToEnd,
  importTextToEnd,
} from './helpers/import-fixtures';

type Tenant = { companyId: string; departmentId: string; userId: string };

/** One product per variant of issue 19 part 6: udf_*, UNSPSC, group-name systems, eCl@ss Advanced tree. */
const FILE_2005 = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd">
<HEADER><CATALOG><LANGUAGE>deu</LANGUAGE><CATALOG_ID>FS</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG>
<SUPPLIER><SUPPLIER_NAME>S</SUPPLIER_NAME></SUPPLIER></HEADER>
<T_NEW_CATALOG>
<PRODUCT mode="new"><SUPPLIER_PID>UDF-1</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>Reifendruck</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_FEATURES>
<REFERENCE_FEATURE_SYSTEM_NAME>udf_CMP-1.0</REFERENCE_FEATURE_SYSTEM_NAME>
<REFERENCE_FEATURE_GROUP_NAME>Reifendruck-Kontrollsysteme</REFERENCE_FEATURE_GROUP_NAME>
<FEATURE><FNAME lang="deu">Breite B</FNAME><FNAME lang="fre">Largeur B</FNAME><FNAME lang="eng">Width B</FNAME><FNAME>ohne Sprache</FNAME><FVALUE>188.0</FVALUE><FUNIT>mm</FUNIT><FORDER>1</FORDER></FEATURE>
<FEATURE><FNAME>Farben</FNAME><FVALUE>rot</FVALUE><FVALUE>blau</FVALUE><FORDER>2</FORDER><FDESCR>zwei Farben</FDESCR><FVALUE_DETAILS>lackiert</FVALUE_DETAILS></FEATURE>
</PRODUCT_FEATURES>
<PRODUCT_FEATURES>
<REFERENCE_FEATURE_SYSTEM_NAME>UNSPSC</REFERENCE_FEATURE_SYSTEM_NAME>
<REFERENCE_FEATURE_GROUP_ID>44111501</REFERENCE_FEATURE_GROUP_ID>
</PRODUCT_FEATURES>
<PRODUCT_FEATURES>
<REFERENCE_FEATURE_SYSTEM_NAME><![CDATA[A]]></REFERENCE_FEATURE_SYSTEM_NAME>
<REFERENCE_FEATURE_GROUP_NAME><![CDATA[B]]></REFERENCE_FEATURE_GROUP_NAME>
</PRODUCT_FEATURES>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>
</PRODUCT>
<PRODUCT mode="new"><SUPPLIER_PID>ADV-1</SUPPLIER_PID>
<PRODUCT_DETAILS><DESCRIPTION_SHORT>Klemme</DESCRIPTION_SHORT></PRODUCT_DETAILS>
<PRODUCT_FEATURES>
<REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-9.0</REFERENCE_FEATURE_SYSTEM_NAME>
<REFERENCE_FEATURE_GROUP_ID>27371601</REFERENCE_FEATURE_GROUP_ID>
<REFERENCE_FEATURE_GROUP_ID2 type="flat">0173-1---ADVANCED_1_1#01-ADO270#005</REFERENCE_FEATURE_GROUP_ID2>
<FEATURE><FTEMPLATE><FT_ID>0173-1#02-AAR080#005</FT_ID><FT_NAME>Konstruktion</FT_NAME></FTEMPLATE>
<VALUE_IDREF>0173-1#01-ADS444#005</VALUE_IDREF><FVALUE_DETAILS>Konstruktion (s)</FVALUE_DETAILS><FID>5000</FID><FPARENT_ID>-1</FPARENT_ID></FEATURE>
<FEATURE><FTEMPLATE><FT_ID>0173-1#02-AAF040#004</FT_ID><FT_NAME>Nettogewicht</FT_NAME></FTEMPLATE>
<FVALUE>0.0359</FVALUE><FUNIT>kg</FUNIT><FID>500011</FID><FPARENT_ID>5000</FPARENT_ID></FEATURE>
</PRODUCT_FEATURES>
<PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT></PRODUCT_ORDER_DETAILS>
</PRODUCT>
</T_NEW_CATALOG>
</BMECAT>`;

const importText = async (tenant: Tenant, catalogId: string, text: string) =>
  (await importTextToEnd(tenant, catalogId, text, { fileName: 'features.xml' })).jobId;

async function exportText(tenant: Tenant, catalogId: string, exportType: string): Promise<string> {
  const jobId = await insertExportJob(tenant, { catalogId, exportType });
  for (
    let i = 0;
    i < 20 && (await runExportSlice(testDeps({ sliceMs: 60_000 }), await jobRow(jobId))) === 'continued';
    i++
  );
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  return (await env.FILES.get(row.resultKey!))!.text();
}

async function blocksBySku(companyId: string, catalogId: string) {
  const rows = await db()
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(eq(products.catalogId, catalogId));
  const aggregates = await loadProductAggregates(
    db(),
    companyId,
    rows.map((r) => r.id),
  );
  return Object.fromEntries(aggregates.map((a) => [a.product.sku, a.featureBlocks]));
}

describe('feature blocks of other systems', () => {
  it('keeps every block of UNSPSC, udf_*, group-name systems and the eCl@ss Advanced tree, in order', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    const jobId = await importText(tenant, catalogId, FILE_2005);
    expect((await reportComments(jobId)).join('\n')).not.toContain('feature system');
    const blocks = await blocksBySku(tenant.companyId, catalogId);
    expect(blocks['UDF-1']).toEqual([
      {
        system: 'udf_CMP-1.0',
        groupId: null,
        groupId2: null,
        groupName: 'Reifendruck-Kontrollsysteme',
        features: [
          // FNAME per language (2005): the first is the name, the others by language (`fre` read as `fra`).
          { name: 'Breite B', names: { eng: 'Width B', fra: 'Largeur B' }, values: ['188.0'], unit: 'mm', order: 1 },
          { name: 'Farben', values: ['rot', 'blau'], order: 2, descr: 'zwei Farben', details: ['lackiert'] },
        ],
      },
      { system: 'UNSPSC', groupId: '44111501', groupId2: null, groupName: null, features: [] },
      { system: 'A', groupId: null, groupId2: null, groupName: 'B', features: [] },
    ]);
    expect(blocks['ADV-1']).toEqual([
      {
        system: 'ECLASS-9.0',
        groupId: '27371601',
        groupId2: '0173-1---ADVANCED_1_1#01-ADO270#005',
        groupId2Type: 'flat',
        groupName: null,
        features: [
          {
            ftId: '0173-1#02-AAR080#005',
            ftName: 'Konstruktion',
            valueIdrefs: ['0173-1#01-ADS444#005'],
            details: ['Konstruktion (s)'],
            fid: '5000',
            parentId: '-1',
          },
          {
            ftId: '0173-1#02-AAF040#004',
            ftName: 'Nettogewicht',
            values: ['0.0359'],
            unit: 'kg',
            fid: '500011',
            parentId: '5000',
          },
        ],
      },
    ]);
  });

  it('writes the blocks back in 2005, 1.2 and ETIM, and a 2005 export imports to the same blocks', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, FILE_2005);
    const x2005 = await exportText(tenant, catalogId, 'BMEcat');
    expect(x2005).toContain('<FTEMPLATE>\n<FT_ID>0173-1#02-AAR080#005</FT_ID>');
    expect(x2005).toContain('<VALUE_IDREF>0173-1#01-ADS444#005</VALUE_IDREF>');
    expect(x2005).toContain('<REFERENCE_FEATURE_GROUP_NAME>Reifendruck-Kontrollsysteme</REFERENCE_FEATURE_GROUP_NAME>');
    expect(x2005).toContain('<FVALUE>rot</FVALUE>\n<FVALUE>blau</FVALUE>');
    expect(x2005).not.toContain('<FPARENT_ID>');
    expect(x2005).toContain(
      '<FNAME>Breite B</FNAME>\n<FNAME lang="eng">Width B</FNAME>\n<FNAME lang="fra">Largeur B</FNAME>',
    );
    const x12 = await exportText(tenant, catalogId, 'BMEcat12');
    // 1.2 has one FNAME per feature: the further languages are left out (and reported).
    expect(x12).toContain('<FNAME>Breite B</FNAME>\n<FVALUE>');
    expect(x12).not.toContain('Width B');
    expect(x12).toContain('<REFERENCE_FEATURE_SYSTEM_NAME>udf_CMP-1.0</REFERENCE_FEATURE_SYSTEM_NAME>');
    expect(x12).toContain('<FNAME>Nettogewicht</FNAME>');
    const etim = await exportText(tenant, catalogId, 'BMEcat-ETIM');
    expect(etim).toContain('<REFERENCE_FEATURE_GROUP_ID>B</REFERENCE_FEATURE_GROUP_ID>');
    expect(etim).toContain('<FNAME lang="eng">Width B</FNAME>');

    const again = await makeCatalog(tenant, { name: 'again' });
    await importText(tenant, again.catalogId, x2005);
    const first = await blocksBySku(tenant.companyId, catalogId);
    const second = await blocksBySku(tenant.companyId, again.catalogId);
    // The file has `udf-CMP-1.0` (the 2005 schema forbids `_` in system names); read back as
    // our own export, it is `udf_CMP-1.0` again. What the 2005 schema cannot hold: the eCl@ss Advanced tree ids.
    expect(x2005).toContain('<REFERENCE_FEATURE_SYSTEM_NAME>udf-CMP-1.0</REFERENCE_FEATURE_SYSTEM_NAME>');
    const expected = JSON.parse(JSON.stringify(first).replace(/,"fid":"[^"]*","parentId":"[^"]*"/g, ''));
    expect(second).toEqual(expected);
  });

  it('changes the product (and its fingerprint) once when a block changes, and not when it stays', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, FILE_2005);
    const before = await db().select().from(products).where(eq(products.catalogId, catalogId));
    await importText(tenant, catalogId, FILE_2005);
    const same = await db().select().from(products).where(eq(products.catalogId, catalogId));
    expect(same.map((p) => p.revision)).toEqual(before.map((p) => p.revision));
    await importText(tenant, catalogId, FILE_2005.replace('<FVALUE>188.0</FVALUE>', '<FVALUE>190.0</FVALUE>'));
    const after = await db().select().from(products).where(eq(products.catalogId, catalogId));
    const udfBefore = before.find((p) => p.sku === 'UDF-1')!;
    const udfAfter = after.find((p) => p.sku === 'UDF-1')!;
    expect(udfAfter.revision).toBe(udfBefore.revision + 1);
    expect(udfAfter.fingerprint).not.toBe(udfBefore.fingerprint);
    const advBefore = before.find((p) => p.sku === 'ADV-1')!;
    expect(after.find((p) => p.sku === 'ADV-1')!.fingerprint).toBe(advBefore.fingerprint);
  });

  it('reads and replaces blocks through REST with a history version, and refuses an implied delete', async () => {
    const session = await makeSession();
    const { tenant, cookie } = session;
    const { catalogId } = await makeCatalog(tenant);
    const { productId } = await makeProduct(tenant, catalogId, { sku: 'REST-1' });
    const [before] = await db().select().from(products).where(eq(products.id, productId));
    const featureBlocks = [
      { system: 'nexMart', groupName: 'Dübel', features: [{ name: 'Länge', values: ['50'], unit: 'mm', order: 1 }] },
      { system: 'UNSPSC', groupId: '31161700', features: [] },
    ];
    const set = await call('POST', '/api/Catalog/SetFeatureBlocks', {
      cookie,
      body: { departmentId: tenant.departmentId, productId, featureBlocks },
    });
    expect(set.status).toBe(200);
    const read = await call('GET', `/api/Catalog/GetProduct?productId=${productId}`, { cookie });
    expect(read.json.featureBlocks).toEqual([
      { system: 'nexMart', groupId: null, groupId2: null, groupName: 'Dübel', features: featureBlocks[0]!.features },
      { system: 'UNSPSC', groupId: '31161700', groupId2: null, groupName: null, features: [] },
    ]);
    const [after] = await db().select().from(products).where(eq(products.id, productId));
    expect(after!.revision).toBe(before!.revision + 1);
    expect(after!.fingerprint).not.toBe(before!.fingerprint);
    const history = await call('GET', `/api/Catalog/GetHistory?elementId=${productId}`, { cookie });
    expect(JSON.stringify(history.json)).toContain('"path":"featureBlocks"');

    const empty = await call('POST', '/api/Catalog/SetFeatureBlocks', {
      cookie,
      body: { departmentId: tenant.departmentId, productId, featureBlocks: [] },
    });
    expect(empty.status).toBe(400);
    expect(empty.json.error).toContain('clear');
    const bad = await call('POST', '/api/Catalog/SetFeatureBlocks', {
      cookie,
      body: {
        departmentId: tenant.departmentId,
        productId,
        featureBlocks: [{ system: 'X', features: [{ unit: 'mm' }] }],
      },
    });
    expect(bad.status).toBe(400);
    const still = await call('GET', `/api/Catalog/GetFeatureBlocks?productId=${productId}`, { cookie });
    expect(still.json.featureBlocks).toHaveLength(2);
    const cleared = await call('POST', '/api/Catalog/SetFeatureBlocks', {
      cookie,
      body: { departmentId: tenant.departmentId, productId, featureBlocks: [], clear: true },
    });
    expect(cleared.status).toBe(200);
    const none = await call('GET', `/api/Catalog/GetFeatureBlocks?productId=${productId}`, { cookie });
    expect(none.json.featureBlocks).toEqual([]);
    const other = await makeSession();
    const foreign = await call('GET', `/api/Catalog/GetFeatureBlocks?productId=${productId}`, { cookie: other.cookie });
    expect(foreign.status).toBe(404);
  });

  it('round-trips every block through the CSV export and import', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, FILE_2005);
    const csv = await exportText(tenant, catalogId, 'CSV');
    const again = await makeCatalog(tenant, { name: 'csv again' });
    const fileId = await putImportFile(tenant, csv, 'features.csv');
    const jobId = await insertImportJob(tenant, { catalogId: again.catalogId, fileId });
    await runImportToEnd(jobId, importDeps({ sliceMs: -1 }));
    expect((await importJobRow(jobId)).error).toBeNull();
    expect(await blocksBySku(tenant.companyId, again.catalogId)).toEqual(
      await blocksBySku(tenant.companyId, catalogId),
    );
  });
});
