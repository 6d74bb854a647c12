import { afterAll, describe, expect, it } from 'vitest';
import { xchangeErrors } from '../../scripts/lib/xchange-schema';
import { ETIM_BMECAT_MODELLING, xchangeModelling } from '../fixtures/xchange-modelling';
import { api, expectValid, importFile, login, runExport, runXChangeExport } from './export-harness';

const modellingFeatures = (xml: string) => xml.match(/<UDX\.EDXF\.FEATURE_MC>/g)?.length ?? 0;

/**
 * Issue 32: features without value and the ETIM modelling class, through the API, in both
 * directions: the xChange fixture exported as ETIM BMEcat validates against bmecat_etim_50.xsd
 * with its UDX.EDXF.PRODUCT_FEATURES_MC and `-` features, as BMEcat 2005 against the 2005 XSD;
 * the ETIM BMEcat fixture exported as xChange validates against the structural schema
 * (ReasonNoValue, EtimModellingPorts) and its ETIM BMEcat export against the XSD again.
 */
describe('ETIM modelling classes and features without value through the exports', () => {
  // The catalogs this file adds are deleted at its end: the other e2e files compare every catalog
  // of the demo company with its exports (export-bmecat.e2e.test.ts), and those comparisons do
  // not model a flattened modelling class.
  const added: { cookie: string; departmentId: string; catalogId: string }[] = [];
  afterAll(async () => {
    for (const c of added)
      await api(c.cookie, 'Catalog/DeleteCatalog', { departmentId: c.departmentId, catalogId: c.catalogId });
  });

  it('xChange -> ETIM BMEcat and BMEcat 2005 validate; ETIM BMEcat -> xChange and back validate', async () => {
    const admin = await login('admin@demo.test');
    const [department] = (await api(admin, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;
    const fromXChange = await api(admin, 'Catalog/AddCatalog', {
      departmentId,
      name: `Modellklasse ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    added.push({ cookie: admin, departmentId, catalogId: fromXChange.catalogId });
    const imported = await importFile(
      admin,
      { departmentId, catalogId: fromXChange.catalogId },
      JSON.stringify(xchangeModelling()),
      'modelling.json',
    );
    expect(imported).toMatchObject({ state: 'succeeded', summary: { created: 1, rejected: 0 } });

    const etim = await runExport(admin, { departmentId, catalogId: fromXChange.catalogId, exportType: 'BMEcat-ETIM' });
    expect(etim.job.state).toBe('succeeded');
    expect(modellingFeatures(etim.xml)).toBe(8);
    expect(etim.xml).toMatch(/<FVALUE>-<\/FVALUE>\s*<FVALUE_DETAILS>NA<\/FVALUE_DETAILS>/);
    expectValid(etim.xml, 'BMEcat-ETIM');
    const plain = await runExport(admin, { departmentId, catalogId: fromXChange.catalogId, exportType: 'BMEcat' });
    expect(plain.xml).toContain('<REFERENCE_FEATURE_SYSTEM_NAME>ETIM-MC</REFERENCE_FEATURE_SYSTEM_NAME>');
    expectValid(plain.xml, 'BMEcat');
    const { document } = await runXChangeExport(admin, departmentId, fromXChange.catalogId);
    expect(xchangeErrors(document)).toEqual([]);
    expect(document.Supplier[0].Product[0].EtimClassification[0].EtimModellingPorts).toHaveLength(2);

    const fromBmecat = await api(admin, 'Catalog/AddCatalog', {
      departmentId,
      name: `Modellklasse BMEcat ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    added.push({ cookie: admin, departmentId, catalogId: fromBmecat.catalogId });
    const read = await importFile(
      admin,
      { departmentId, catalogId: fromBmecat.catalogId },
      ETIM_BMECAT_MODELLING,
      'modelling.xml',
    );
    expect(read).toMatchObject({ state: 'succeeded', summary: { created: 1, rejected: 0 } });
    const { document: json } = await runXChangeExport(admin, departmentId, fromBmecat.catalogId);
    expect(xchangeErrors(json)).toEqual([]);
    const etimClass = json.Supplier[0].Product[0].EtimClassification[0];
    expect(etimClass.EtimModellingClassCode).toBe('MC000023');
    expect(etimClass.EtimFeatures.filter((f: any) => f.ReasonNoValue).map((f: any) => f.ReasonNoValue)).toEqual([
      'UN',
      'UN',
    ]);
    const back = await runExport(admin, { departmentId, catalogId: fromBmecat.catalogId, exportType: 'BMEcat-ETIM' });
    expect(modellingFeatures(back.xml)).toBe(modellingFeatures(ETIM_BMECAT_MODELLING));
    expectValid(back.xml, 'BMEcat-ETIM');
  });
});
