import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import type { StoredFeatureBlock } from '../src/model/feature-block-types';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { importTextToEnd } from './helpers/import-fixtures';
import { ONTO_FILE } from './fixtures/bmecat-onto';

type Tenant = { companyId: string; departmentId: string; userId: string };

/** Every FEATURE of a text, at any depth (FEATURE_GROUPs included). */
const featureCount = (xml: string) => xml.match(/<FEATURE>/g)?.length ?? 0;

const importText = (tenant: Tenant, catalogId: string, text: string, fileName = 'onto.xml') =>
  importTextToEnd(tenant, catalogId, text, { fileName });

async function blocksBySku(companyId: string, catalogId: string): Promise<Record<string, StoredFeatureBlock[]>> {
  const rows = await db()
    .select({ id: products.id, sku: products.sku })
    .from(products)
    .where(eq(products.catalogId, catalogId));
  const aggregates = await loadProductAggregates(
    db(),
    companyId,
    rows.map((r) => r.id),
  );
  return Object.fromEntries(aggregates.map((a) => [a.product.sku, a.featureBlocks ?? []]));
}

const allFeatures = (blocks: Record<string, StoredFeatureBlock[]>) =>
  Object.values(blocks).flatMap((list) => list.flatMap((b) => b.features));

describe('eCl@ss Advanced feature trees (BMEcat 2005+onto)', () => {
  it('keeps every FEATURE of the block and of its FEATURE_GROUPs with the tree links as data', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, ONTO_FILE);
    const blocks = await blocksBySku(tenant.companyId, catalogId);
    expect(allFeatures(blocks)).toHaveLength(featureCount(ONTO_FILE));
    const tree = blocks['TREE-1']![0]!;
    expect(tree.groupId2Type).toBe('flat');
    expect(tree.featureGroups).toEqual([
      { id: '0173-1#01-AAB228#005' },
      {
        id: '0173-1#01-AAC292#005',
        name: 'Teilebeziehungen',
        names: { eng: 'Part relations' },
        descr: 'Befestigung und Zubehör',
        type: 'aspect',
      },
      { id: '0173-1#01-AAD293#005' },
    ]);
    expect(tree.features.map((f) => f.featureGroup ?? null)).toEqual([
      null,
      null,
      null,
      null,
      null,
      0,
      0,
      0,
      1,
      1,
      1,
      1,
      1,
      2,
      2,
    ]);
    expect(tree.features[5]).toEqual({
      ftId: '0173-1#02-AAB373#005',
      ftName: 'Hersteller',
      valueIdrefs: ['0173-1#01-AAB198#005'],
      details: ['Hersteller'],
      fid: '1000',
      parentId: '-1',
      featureGroup: 0,
    });
    expect(tree.features[7]).toMatchObject({ values: ['Relais', 'Relay'], valueLangs: ['deu', 'eng'] });
    expect(tree.features[4]).toEqual({
      ftId: '0173-1#02-AAA008#006',
      values: ['42.2'],
      fid: '500013',
      parentId: '50001',
    });
    expect(blocks['TREE-2']![1]).toEqual({
      system: 'udf_KLEMME-1.0',
      groupId: null,
      groupId2: null,
      groupName: null,
      features: [
        { name: 'Breite', values: ['5.2'], unit: 'mm', featureGroup: 0 },
        { name: 'Höhe', values: ['35'], unit: 'mm', featureGroup: 0 },
      ],
      featureGroups: [{ id: 'MASSE', name: 'Maße' }],
    });
  });

  it('writes the tree back whole as BMEcat 2005+onto, and the file imports to the same blocks', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, ONTO_FILE);
    const { text, warnings } = await exportedFile(tenant, catalogId, 'BMEcat-2005onto');
    expect(text).toContain('<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005+onto">');
    expect(featureCount(text)).toBe(featureCount(ONTO_FILE));
    expect(text.match(/<FEATURE_GROUP[ >]/g)).toHaveLength(5);
    expect(text).toContain(
      '<FEATURE_GROUP featureGroupType="aspect">\n<FEATURE_GROUP_NAME>Teilebeziehungen</FEATURE_GROUP_NAME>',
    );
    expect(text).toContain('<FVALUE lang="deu">Relais</FVALUE>\n<FVALUE lang="eng">Relay</FVALUE>');
    expect(text).toContain('<FID>500013</FID>\n<FPARENT_ID>50001</FPARENT_ID>');
    expect(text).toContain('<REFERENCE_FEATURE_GROUP_ID2 type="flat">');
    expect(warnings.join('\n')).not.toMatch(/written flat|FID/);

    const again = await makeCatalog(tenant, { name: 'onto again' });
    await importText(tenant, again.catalogId, text);
    const first = await blocksBySku(tenant.companyId, catalogId);
    const second = await blocksBySku(tenant.companyId, again.catalogId);
    expect(second).toEqual(first);
    expect(allFeatures(second)).toHaveLength(featureCount(ONTO_FILE));
  });

  it('writes the tree flat in BMEcat 2005 (groups as FT_GROUP_NAME) and reports what it flattened', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, ONTO_FILE);
    const { text, warnings } = await exportedFile(tenant, catalogId, 'BMEcat');
    expect(text).not.toContain('<FEATURE_GROUP');
    expect(text).not.toContain('<FID>');
    expect(featureCount(text)).toBe(featureCount(ONTO_FILE));
    expect(text).toContain(
      '<FTEMPLATE>\n<FT_ID>0173-1#02-AAB373#005</FT_ID>\n<FT_NAME>Hersteller</FT_NAME>\n<FT_GROUP_NAME>0173-1#01-AAB228#005</FT_GROUP_NAME>\n</FTEMPLATE>',
    );
    expect(text).toContain(
      '<FT_NAME>Anzahl der Befestigungsvarianten</FT_NAME>\n<FT_GROUP_NAME>Teilebeziehungen</FT_GROUP_NAME>',
    );
    const report = warnings.join('\n');
    // TREE-1: 15 features of the tree, TREE-2: the one of its eCl@ss group and the 2 of its udf group.
    expect(report).toContain('feature block ECLASS-9.0: feature of an eCl@ss Advanced tree written flat: 16 times');
    expect(report).toContain(
      'feature block ECLASS-9.0: FEATURE_GROUP written flat (its name as FT_GROUP_NAME of its features): 4 times (e.g. TREE-1 (0173-1#01-AAB228#005), TREE-1 (0173-1#01-AAC292#005), TREE-1 (0173-1#01-AAD293#005))',
    );
    expect(report).toContain(
      'feature block udf_KLEMME-1.0: FEATURE_GROUP written flat (its name as FT_GROUP_NAME of its features): 1 time (e.g. TREE-2 (MASSE))',
    );
    expect(report).toContain('feature block udf_KLEMME-1.0: the FEATURE_GROUP of a feature with FNAME left out');
    expect(report).toContain('FID / FPARENT_ID left out (the schema has no feature tree)');

    const again = await makeCatalog(tenant, { name: 'flat again' });
    await importText(tenant, again.catalogId, text);
    expect(allFeatures(await blocksBySku(tenant.companyId, again.catalogId))).toHaveLength(featureCount(ONTO_FILE));
  });

  it('round-trips the tree through the CSV export and import', async () => {
    const { tenant } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    await importText(tenant, catalogId, ONTO_FILE);
    const { text } = await exportedFile(tenant, catalogId, 'CSV');
    const again = await makeCatalog(tenant, { name: 'csv again' });
    await importText(tenant, again.catalogId, text, 'onto.csv');
    expect(await blocksBySku(tenant.companyId, again.catalogId)).toEqual(
      await blocksBySku(tenant.companyId, catalogId),
    );
  });

  it('takes a tree through SetFeatureBlocks and refuses a feature of an unknown group, changing nothing', async () => {
    const { tenant, cookie } = await makeSession();
    const { catalogId } = await makeCatalog(tenant);
    const { productId } = await makeProduct(tenant, catalogId, { sku: 'SET-1' });
    const block = {
      system: 'ECLASS-9.0',
      groupId: '27371601',
      features: [
        { ftId: 'A', ftName: 'Hersteller', valueIdrefs: ['B'], fid: '1', parentId: '-1', featureGroup: 0 },
        {
          ftId: 'C',
          values: ['Relais', 'Relay'],
          valueLangs: ['deu', 'eng'],
          fid: '2',
          parentId: '1',
          featureGroup: 0,
        },
      ],
      featureGroups: [{ id: 'G1', name: 'Hersteller' }],
    };
    const set = await call('POST', '/api/Catalog/SetFeatureBlocks', {
      cookie,
      body: { departmentId: tenant.departmentId, productId, featureBlocks: [block] },
    });
    expect(set.status).toBe(200);
    const read = await call('GET', `/api/Catalog/GetFeatureBlocks?productId=${productId}`, { cookie });
    expect(read.json.featureBlocks).toEqual([{ ...block, groupId2: null, groupName: null }]);

    for (const bad of [
      { ...block, featureGroups: [] },
      { ...block, features: [{ ...block.features[1]!, valueLangs: ['deu'] }] },
    ]) {
      const refused = await call('POST', '/api/Catalog/SetFeatureBlocks', {
        cookie,
        body: { departmentId: tenant.departmentId, productId, featureBlocks: [bad] },
      });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toMatch(/featureGroup|valueLangs/);
    }
    const still = await call('GET', `/api/Catalog/GetFeatureBlocks?productId=${productId}`, { cookie });
    expect(still.json).toEqual(read.json);
  });
});
