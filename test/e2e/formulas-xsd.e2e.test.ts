import { describe, expect, it } from 'vitest';
import { formulaCatalog, KUPFER, RABATT } from '../fixtures/formulas-2005';
import { api, expectValid, importFile, login, runExport } from './export-harness';

const compact = (xml: string) => xml.replace(/>\s+</g, '><').trim();

/**
 * Issue 32, the last of the supplier's data: a supplier's BMEcat 2005 file with FORMULAS and
 * prices by formula, imported through the API, exported as BMEcat 2005: the file carries the
 * FORMULAS as they came (content and order), names no formula it does not define, and validates
 * against schemas/bmecat/xsd/bmecat_2005.xsd with xmllint; imported again, it exports the same.
 */
describe('price formulas in the BMEcat 2005 export', () => {
  it('writes the FORMULAS of the supplier file back, valid against the 2005 XSD, and again after a round trip', async () => {
    const editor = await login('editor@demo.test');
    const [department] = (await api(editor, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;
    const newCatalog = (name: string) =>
      api(editor, 'Catalog/AddCatalog', {
        departmentId,
        name: `${name} ${Date.now()}`,
        currency: 'EUR',
        language: 'deu',
      });

    const supplierFile = formulaCatalog();
    const catalog = await newCatalog('Kabel');
    const imported = await importFile(editor, { departmentId, catalogId: catalog.catalogId }, supplierFile);
    expect(imported).toMatchObject({ state: 'succeeded', summary: { created: 2, rejected: 0, warnings: 0 } });

    const first = await runExport(editor, { departmentId, catalogId: catalog.catalogId, exportType: 'BMEcat' });
    expect(first.job.state).toBe('succeeded');
    expectValid(first.xml, 'BMEcat');
    const written = compact(first.xml);
    expect(written).toContain(
      `</CATALOG_GROUP_SYSTEM><FORMULAS>${compact(KUPFER)}${compact(RABATT)}</FORMULAS><PRODUCT `,
    );
    expect(written.match(/<FORMULA_IDREF>/g)).toHaveLength(3);
    expect((first.job.warnings ?? []).join('\n')).not.toMatch(/formula/i);

    // The 2005+onto document carries them too (checked against 2005.1, as test/e2e/feature-trees-xsd.e2e.test.ts explains).
    const onto = await runExport(editor, { departmentId, catalogId: catalog.catalogId, exportType: 'BMEcat-2005onto' });
    expect(compact(onto.xml)).toContain(`<FORMULAS>${compact(KUPFER)}${compact(RABATT)}</FORMULAS>`);
    expectValid(onto.xml.replace('bmecat/2005+onto"', 'bmecat/2005.1"'), 'BMEcat-2005.1');

    const again = await newCatalog('Kabel wieder');
    const reimported = await importFile(editor, { departmentId, catalogId: again.catalogId }, first.xml);
    expect(reimported).toMatchObject({ state: 'succeeded', summary: { created: 2, rejected: 0 } });
    const second = await runExport(editor, { departmentId, catalogId: again.catalogId, exportType: 'BMEcat' });
    expectValid(second.xml, 'BMEcat');
    const formulas = (xml: string) => compact(xml).match(/<FORMULAS>.*<\/FORMULAS>/s)?.[0];
    expect(formulas(second.xml)).toBe(formulas(first.xml));
  });
});
