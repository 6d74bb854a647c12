import { env } from 'cloudflare:workers';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { products } from '../src/db/schema';
import { runExportSlice } from '../src/exports/run-export';
import { xchangeItemsOf } from '../src/imports/records/xchange-records';
import { XCHANGE_START } from '../src/imports/read/xchange-reader';
import { deliver, insertExportJob, jobRow, testDeps } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { reportRows, importTextToEnd } from './helpers/import-fixtures';
import { ETIM_BMECAT_MODELLING, xchangeModelling } from './fixtures/xchange-modelling';
import { etimFiles, loadRelease } from './helpers/release-fixtures';

type Tenant = { companyId: string; departmentId: string; userId: string };

const importText = (tenant: Tenant, catalogId: string, text: string, fileName = 'catalog.json') =>
  importTextToEnd(tenant, catalogId, text, { fileName, sliceMs: 60_000 });

async function aggregateOf(catalogId: string, sku: string) {
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalogId), eq(products.sku, sku)),
  });
  expect(row).toBeDefined();
  const [aggregate] = await loadProductAggregates(db(), row!.companyId, [row!.id]);
  return aggregate!;
}

async function exportText(tenant: Tenant, catalogId: string, exportType: string) {
  const jobId = await insertExportJob(tenant, { catalogId, exportType, templateId: null });
  if (exportType === 'ETIMxChange')
    for (
      let i = 0;
      i < 50 && (await runExportSlice(testDeps({ sliceMs: -1 }), await jobRow(jobId))) === 'continued';
      i++
    );
  else await deliver(jobId, 1);
  const row = await jobRow(jobId);
  expect(row.state).toBe('succeeded');
  const text = await (await env.FILES.get(row.resultKey!))!.text();
  return { text, warnings: ((row.warnings as string[] | null) ?? []).join('\n') };
}

const etimOf = (document: any, sku: string) =>
  document.Supplier[0].Product.find((p: any) => p.TradeItem[0].ItemIdentification.SupplierItemNumber === sku)
    .EtimClassification[0];

const LANGUAGES = { fileDefault: 'deu', catalogLanguage: 'deu', skip: [] };

/** The fixture's modelling class as xChange writes it back: the port without a port code is gone. */
const EXPECTED_PORTS = [
  {
    EtimModellingPortcode: 1,
    EtimModellingConnectionTypeCode: 'CT000001',
    EtimModellingConnectionTypeVersion: 4,
    EtimModellingFeatures: [
      { EtimFeatureCode: 'EF023191', EtimValueCode: 'EV020209' },
      { EtimFeatureCode: 'EF000015', EtimValueNumeric: '16' },
      { EtimFeatureCode: 'EFI00015', EtimValueNumeric: '0.63' },
      { EtimFeatureCode: 'EF001438', EtimValueRangeLower: '10', EtimValueRangeUpper: '60' },
    ],
  },
  {
    EtimModellingPortcode: 2,
    EtimModellingFeatures: [
      { EtimFeatureCode: 'EF023191', EtimValueCode: 'EV020209' },
      { EtimFeatureCode: 'EF000229', EtimValueLogical: false },
      { EtimFeatureCode: 'EF000300', EtimValueCoordinateX: '1.5', EtimValueCoordinateZ: '-2' },
      {
        EtimFeatureCode: 'EF000301',
        EtimValueMatrix: [
          { EtimValueMatrixSource: '0', EtimValueMatrixResult: '1.25' },
          { EtimValueMatrixSource: '10', EtimValueMatrixResult: '3' },
        ],
      },
    ],
  },
];

describe('ETIM features without value and modelling classes (issue 32)', () => {
  it('reads ReasonNoValue as BMEcat stores `-` with its reason, the modelling class as an ETIM-MC block, and names what it cannot hold', () => {
    const product = xchangeModelling().Supplier[0]!.Product[0]!;
    const [item] = xchangeItemsOf(product, XCHANGE_START.envelope, LANGUAGES);
    const record = item!.record!;
    expect(record.classification!.features).toEqual([
      { group: 'ETIM', code: 'EF000001', value: 'EV000138' },
      { group: 'ETIM', code: 'EF000002', value: '16' },
      { group: 'ETIM', code: 'EF000003', value: '-' },
      { group: 'ETIM', code: 'EF000004', value: '-' },
      { group: 'ETIM', code: 'EF000005', value: '-' },
      { group: 'ETIM', code: 'EF000006', value: '-' },
      { group: 'ETIM', code: 'EF000007', value: 'true' },
    ]);
    // The reason is the feature's details text in the catalog's language, as FVALUE_DETAILS; a typed value keeps its text too.
    expect(record.translations).toEqual({
      deu: {
        'details.ETIM.EF000002': 'Nennweite',
        'details.ETIM.EF000003': 'UN',
        'details.ETIM.EF000004': 'NA',
        'details.ETIM.EF000005': 'MV',
      },
    });
    expect(record.featureBlockSystems).toEqual(['ETIM-MC']);
    expect(record.featureBlocks).toEqual([
      {
        system: 'ETIM-MC',
        groupId: 'MC000023',
        modelling: { version: 5 },
        featureGroups: [{ id: '1', connectionType: 'CT000001', connectionTypeVersion: 4 }, { id: '2' }],
        features: [
          { name: 'EF023191', values: ['EV020209'], featureGroup: 0 },
          { name: 'EF000015', values: ['16'], featureGroup: 0 },
          { name: 'EFI00015', values: ['0.63'], featureGroup: 0 },
          { name: 'EF001438', values: ['10', '60'], featureGroup: 0 },
          { name: 'EF023191', values: ['EV020209'], featureGroup: 1 },
          { name: 'EF000229', values: ['false'], featureGroup: 1 },
          { name: 'EF000300', values: ['1.5', '', '-2'], valueType: 'coordinates', featureGroup: 1 },
          { name: 'EF000301', values: ['0', '1.25', '10', '3'], valueType: 'matrix', featureGroup: 1 },
        ],
      },
    ]);
    // The class version is kept with the class (migration 0082), no longer reported.
    expect(record.classification!.classes).toEqual([
      { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', classVersion: 3 },
    ]);
    expect(item!.warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      '.EtimClassification[0].EtimFeatures[5]: ReasonNoValue "XX" of feature EF000006 is not MV, NA or UN: kept without value, the reason left out',
      '.EtimClassification[0].EtimFeatures[6]: EtimValueColour of feature EF000007 is not kept',
      '.EtimClassification[0].EtimModellingPorts[2]: EtimModellingPortcode is missing or not a whole number: the port and its features left out',
    ]);
  });

  it('round trip xChange -> xChange: ReasonNoValue and the modelling class come back, and again the same', async () => {
    const session = await makeSession();
    const source = await makeCatalog(session.tenant, { language: 'deu' });
    const { jobId } = await importText(session.tenant, source.catalogId, JSON.stringify(xchangeModelling()));
    const report = (await reportRows(jobId)).map((r) => r.join(' | ')).join('\n');
    expect(report).toContain('EtimModellingPortcode is missing');
    expect(report).toContain('ReasonNoValue "XX"');

    const first = await exportText(session.tenant, source.catalogId, 'ETIMxChange');
    const etim = etimOf(JSON.parse(first.text), 'MC-1');
    expect(etim.EtimFeatures).toEqual([
      { EtimFeatureCode: 'EF000001', EtimValueCode: 'EV000138' },
      {
        EtimFeatureCode: 'EF000002',
        EtimValueNumeric: '16',
        EtimValueDetails: [{ Language: 'de-DE', EtimValueDetails: 'Nennweite' }],
      },
      { EtimFeatureCode: 'EF000003', ReasonNoValue: 'UN' },
      { EtimFeatureCode: 'EF000004', ReasonNoValue: 'NA' },
      { EtimFeatureCode: 'EF000005', ReasonNoValue: 'MV' },
      // The unknown reason was reported on import; written as UN (unknown) and reported again.
      { EtimFeatureCode: 'EF000006', ReasonNoValue: 'UN' },
      { EtimFeatureCode: 'EF000007', EtimValueLogical: true },
    ]);
    expect(first.warnings).toContain('without a reason (MV, NA, UN): written as ReasonNoValue UN');
    expect(etim.EtimModellingClassCode).toBe('MC000023');
    expect(etim.EtimModellingClassVersion).toBe(5);
    expect(etim.EtimModellingPorts).toEqual(EXPECTED_PORTS);

    const target = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, target.catalogId, first.text);
    const second = await exportText(session.tenant, target.catalogId, 'ETIMxChange');
    expect(etimOf(JSON.parse(second.text), 'MC-1')).toEqual(etim);
  });

  it('xChange -> ETIM BMEcat: `-` with FVALUE_DETAILS and UDX.EDXF.PRODUCT_FEATURES_MC; plain BMEcat 2005 reports the flattened ports', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeModelling()));
    const etim = await exportText(session.tenant, catalog.catalogId, 'BMEcat-ETIM');
    const compact = etim.text.replace(/\n/g, '');
    expect(compact).toContain('<FNAME>EF000003</FNAME><FVALUE>-</FVALUE><FVALUE_DETAILS>UN</FVALUE_DETAILS>');
    expect(compact).toContain('<FNAME>EF000005</FNAME><FVALUE>-</FVALUE><FVALUE_DETAILS>MV</FVALUE_DETAILS>');
    expect(compact).toContain(
      '<UDX.EDXF.PRODUCT_FEATURES_MC><UDX.EDXF.REFERENCE_FEATURE_MC_ID>MC000023</UDX.EDXF.REFERENCE_FEATURE_MC_ID>' +
        '<UDX.EDXF.REFERENCE_FEATURE_MC_VERSION>5</UDX.EDXF.REFERENCE_FEATURE_MC_VERSION>' +
        '<UDX.EDXF.FEATURE_MC><UDX.EDXF.PORTCODE>1</UDX.EDXF.PORTCODE><UDX.EDXF.FNAME>EF023191</UDX.EDXF.FNAME><UDX.EDXF.FVALUE>EV020209</UDX.EDXF.FVALUE></UDX.EDXF.FEATURE_MC>',
    );
    expect(compact).toContain(
      '<UDX.EDXF.FNAME>EF000300</UDX.EDXF.FNAME><UDX.EDXF.COORDINATE_X>1.5</UDX.EDXF.COORDINATE_X><UDX.EDXF.COORDINATE_Z>-2</UDX.EDXF.COORDINATE_Z>',
    );
    expect(compact).toContain(
      '<UDX.EDXF.MATRIX_VALUES><UDX.EDXF.MATRIX_VALUE><UDX.EDXF.MATRIX_SOURCE_VALUE>0</UDX.EDXF.MATRIX_SOURCE_VALUE>',
    );
    expect(compact.match(/<UDX\.EDXF\.FEATURE_MC>/g)).toHaveLength(8);
    // No PRODUCT_FEATURES block of system ETIM-MC: the guideline's place is the UDX.
    expect(compact).not.toContain('ETIM-MC');
    expect(etim.warnings).toContain('connection types of modelling ports left out');

    const plain = await exportText(session.tenant, catalog.catalogId, 'BMEcat');
    expect(plain.text.replace(/\n/g, '')).toContain(
      '<REFERENCE_FEATURE_SYSTEM_NAME>ETIM-MC</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>MC000023</REFERENCE_FEATURE_GROUP_ID>',
    );
    expect(plain.warnings).toContain('feature block ETIM-MC: FEATURE_GROUP written flat');
    expect(plain.warnings).toContain('ETIM modelling class version, BIM status and port connection types left out');
  });

  it('flattened to BMEcat 2005 and 1.2, the report names per product a coordinate’s empty part and a feature repeated in several ports', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, JSON.stringify(xchangeModelling()));
    // EF000300 is (1.5, '', -2) in port 2: FVALUEs have no position, so the empty Y cannot be written.
    const coordinate =
      'coordinate EF000300: its empty part left out (X, Y, Z written as FVALUEs without position): 1 time (e.g. MC-1)';
    const v2005 = await exportText(session.tenant, catalog.catalogId, 'BMEcat');
    expect(v2005.text.replace(/\n/g, '')).toContain('<FNAME>EF000300</FNAME><FVALUE>1.5</FVALUE><FVALUE>-2</FVALUE>');
    expect(v2005.warnings).toContain(`feature block ETIM-MC: ${coordinate}`);
    // 2005 repeats FNAMEs: EF023191 of both ports is written twice, nothing reported for it.
    expect(v2005.text.match(/<FNAME>EF023191<\/FNAME>/g)).toHaveLength(2);
    expect(v2005.warnings).not.toContain('repeated FNAME');

    // 1.2 wants unique FNAMEs: EF023191 of port 2 is left out, named.
    const v12 = await exportText(session.tenant, catalog.catalogId, 'BMEcat12');
    expect(v12.text.match(/<FNAME>EF023191<\/FNAME>/g)).toHaveLength(1);
    expect(v12.warnings).toContain(
      'feature block ETIM-MC: repeated FNAME EF023191 left out (the schema requires unique names): 1 time (e.g. MC-1)',
    );
    expect(v12.warnings).toContain(`feature block ETIM-MC: ${coordinate}`);
  });

  it('ETIM BMEcat -> xChange and back: `-`/UN is ReasonNoValue, PRODUCT_FEATURES_MC the modelling class, kept once', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    await importText(session.tenant, catalog.catalogId, ETIM_BMECAT_MODELLING, 'catalog.xml');
    const stored = await aggregateOf(catalog.catalogId, 'MCB-1');
    // Read into the model, no longer kept as verbatim UDX beside it.
    expect(stored.udx).toContain('UDX.EDXF.WARRANTY');
    expect(stored.udx).not.toContain('PRODUCT_FEATURES_MC');
    expect(stored.featureBlocks).toEqual([
      {
        system: 'ETIM-MC',
        groupId: 'MC000023',
        groupId2: null,
        groupName: null,
        modelling: { version: 2, bimStatus: 'ready' },
        featureGroups: [{ id: '0' }, { id: '1' }],
        features: [
          { name: 'EF023191', values: ['EV020207'], featureGroup: 0 },
          { name: 'EF000321', values: ['10', '60'], featureGroup: 1 },
          { name: 'EF006272', values: ['32'], featureGroup: 0 },
          { name: 'EF000300', values: ['1.5', '2', ''], valueType: 'coordinates', featureGroup: 1 },
        ],
      },
    ]);

    const xchange = await exportText(session.tenant, catalog.catalogId, 'ETIMxChange');
    const etim = etimOf(JSON.parse(xchange.text), 'MCB-1');
    expect(etim.EtimFeatures).toEqual([
      { EtimFeatureCode: 'EF000001', EtimValueCode: 'EV000138' },
      { EtimFeatureCode: 'EF000003', ReasonNoValue: 'UN' },
      { EtimFeatureCode: 'EF000004', ReasonNoValue: 'UN' },
    ]);
    expect(xchange.warnings).toContain('without a reason (MV, NA, UN): written as ReasonNoValue UN');
    expect(etim).toMatchObject({
      EtimModellingClassCode: 'MC000023',
      EtimModellingClassVersion: 2,
      EtimModellingPorts: [
        {
          EtimModellingPortcode: 0,
          EtimModellingFeatures: [
            { EtimFeatureCode: 'EF023191', EtimValueCode: 'EV020207' },
            { EtimFeatureCode: 'EF006272', EtimValueNumeric: '32' },
          ],
        },
        {
          EtimModellingPortcode: 1,
          EtimModellingFeatures: [
            { EtimFeatureCode: 'EF000321', EtimValueRangeLower: '10', EtimValueRangeUpper: '60' },
            { EtimFeatureCode: 'EF000300', EtimValueCoordinateX: '1.5', EtimValueCoordinateY: '2' },
          ],
        },
      ],
    });
    expect(xchange.warnings).toContain('BIM_STATUS of the modelling class left out');

    const back = await exportText(session.tenant, catalog.catalogId, 'BMEcat-ETIM');
    const compact = back.text.replace(/\n/g, '');
    expect(compact.match(/<UDX\.EDXF\.PRODUCT_FEATURES_MC>/g)).toHaveLength(1);
    expect(compact).toContain('<UDX.EDXF.BIM_STATUS>ready</UDX.EDXF.BIM_STATUS>');
    // In the profile's order: WARRANTY before PRODUCT_FEATURES_MC.
    expect(compact.indexOf('UDX.EDXF.WARRANTY')).toBeLessThan(compact.indexOf('UDX.EDXF.PRODUCT_FEATURES_MC'));
    expect(compact).toContain('<FNAME>EF000003</FNAME><FVALUE>-</FVALUE><FVALUE_DETAILS>UN</FVALUE_DETAILS>');
  });

  it('an xChange import replaces only the modelling class: blocks of other systems from a BMEcat file stay', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const withUnspsc = ETIM_BMECAT_MODELLING.replace(
      '<PRODUCT_ORDER_DETAILS>',
      '<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>UNSPSC</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>39121601</REFERENCE_FEATURE_GROUP_ID><FEATURE><FNAME>Farbe</FNAME><FVALUE>grau</FVALUE></FEATURE></PRODUCT_FEATURES><PRODUCT_ORDER_DETAILS>',
    );
    await importText(session.tenant, catalog.catalogId, withUnspsc, 'catalog.xml');
    expect((await aggregateOf(catalog.catalogId, 'MCB-1')).featureBlocks!.map((b) => b.system)).toEqual([
      'UNSPSC',
      'ETIM-MC',
    ]);
    const doc = xchangeModelling();
    const product = doc.Supplier[0]!.Product[0]!;
    product.TradeItem[0].ItemIdentification.SupplierItemNumber = 'MCB-1';
    await importText(session.tenant, catalog.catalogId, JSON.stringify(doc));
    const after = await aggregateOf(catalog.catalogId, 'MCB-1');
    expect(after.featureBlocks!.map((b) => [b.system, b.groupId, b.modelling ?? null])).toEqual([
      ['UNSPSC', '39121601', null],
      ['ETIM-MC', 'MC000023', { version: 5 }],
    ]);
    // A file without modelling class removes the stored one, and still leaves the others.
    delete product.EtimClassification[0].EtimModellingClassCode;
    delete product.EtimClassification[0].EtimModellingClassVersion;
    delete product.EtimClassification[0].EtimModellingPorts;
    await importText(session.tenant, catalog.catalogId, JSON.stringify(doc));
    expect((await aggregateOf(catalog.catalogId, 'MCB-1')).featureBlocks!.map((b) => b.system)).toEqual(['UNSPSC']);
  });

  it('a feature without value fits every feature type of a loaded release: kept verified, without a warning', async () => {
    const session = await makeSession();
    const version = `x${crypto.randomUUID().slice(0, 8)}`;
    await loadRelease(session.tenant, { system: 'ETIM', version, files: etimFiles() });
    const catalog = await makeCatalog(session.tenant, { language: 'deu' });
    const doc = xchangeModelling();
    const etim = doc.Supplier[0]!.Product[0]!.EtimClassification[0];
    Object.assign(etim, { EtimReleaseVersion: version, EtimClassCode: 'EC000905' });
    etim.EtimFeatures = [
      { EtimFeatureCode: 'EF000008', ReasonNoValue: 'UN' }, // numeric
      { EtimFeatureCode: 'EF000007', ReasonNoValue: 'NA' }, // alphanumeric with a value list
      { EtimFeatureCode: 'EF000139', ReasonNoValue: 'MV' }, // logical
      { EtimFeatureCode: 'EF000001', ReasonNoValue: 'UN' }, // range
    ];
    const { jobId } = await importText(session.tenant, catalog.catalogId, JSON.stringify(doc));
    const report = (await reportRows(jobId)).map((r) => r.join(' | ')).join('\n');
    expect(report).not.toContain('feature_value_text');
    expect(report).not.toContain('unverified');
    const stored = await aggregateOf(catalog.catalogId, 'MC-1');
    expect(stored.classification!.classes).toEqual([
      { group: 'ETIM', code: 'EC000905', system: `ETIM-${version}`, release: `ETIM-${version}`, classVersion: 3 },
    ]);
    // Verified: the report names no value kept as text (above), and no unit is made up for `-`.
    expect(stored.classification!.features.map((f) => [f.code, f.value, f.unit])).toEqual([
      ['EF000001', '-', null],
      ['EF000007', '-', null],
      ['EF000008', '-', null],
      ['EF000139', '-', null],
    ]);
  });
});
