import { describe, expect, it } from 'vitest';
import { ONTO_FILE } from '../fixtures/bmecat-onto';
import { api, expectValid, importFile, login, runExport } from './export-harness';

const featureCount = (xml: string) => xml.match(/<FEATURE>/g)?.length ?? 0;

/**
 * Issue 32.1: the export of an eCl@ss Advanced tree is valid. No XSD of BMEcat 2005+onto is
 * published; its tree elements are those BMEcat 2005.1 took in, so the BMEcat-2005onto file is
 * checked against the 2005.1 XSD under the 2005.1 namespace. The flat BMEcat 2005 export is
 * checked against the 2005 XSD. Both carry every feature of the file.
 */
describe('the exports of an eCl@ss Advanced tree', () => {
  it('validate against the BMEcat 2005.1 (2005+onto) and 2005 XSDs with every feature', async () => {
    const admin = await login('admin@demo.test');
    const [department] = (await api(admin, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;
    const catalog = await api(admin, 'Catalog/AddCatalog', {
      departmentId,
      name: `Merkmalbaum ${Date.now()}`,
      currency: 'EUR',
      language: 'deu',
    });
    const job = await importFile(admin, { departmentId, catalogId: catalog.catalogId }, ONTO_FILE, 'onto.xml');
    expect(job).toMatchObject({ state: 'succeeded', summary: { rejected: 0, created: 2 } });

    const onto = await runExport(admin, { departmentId, catalogId: catalog.catalogId, exportType: 'BMEcat-2005onto' });
    expect(onto.job.state).toBe('succeeded');
    expect(onto.xml).toContain('xmlns="http://www.bmecat.org/bmecat/2005+onto"');
    expect(onto.xml).toContain('<FEATURE_GROUP');
    expect(featureCount(onto.xml)).toBe(featureCount(ONTO_FILE));
    expectValid(onto.xml.replace('bmecat/2005+onto"', 'bmecat/2005.1"'), 'BMEcat-2005.1');

    const flat = await runExport(admin, { departmentId, catalogId: catalog.catalogId, exportType: 'BMEcat' });
    expect(flat.job.state).toBe('succeeded');
    expect(flat.xml).not.toContain('<FEATURE_GROUP');
    expect(featureCount(flat.xml)).toBe(featureCount(ONTO_FILE));
    expectValid(flat.xml, 'BMEcat');
  });
});
