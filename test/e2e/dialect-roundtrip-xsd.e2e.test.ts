import { describe, expect, it } from 'vitest';
import { SUPPLIER_DIALECTS, supplierFile, type SupplierDialect } from '../fixtures/supplier-dialects';
import { api, expectValid, importFile, login, runExport } from './export-harness';

const catalogOf = (d: SupplierDialect) =>
  d.englishDefault
    ? { language: 'eng' }
    : d.twoLanguages
      ? { language: 'deu', languages: ['eng'] }
      : { language: 'deu' };

/**
 * Issue 19 part 9: every export of the round trip (test/import-dialect-roundtrip.test.ts) is
 * valid against the official XSD, whatever came in: the supplier file of each dialect is
 * imported through the API and exported as BMEcat 2005 (the ETIM guideline's also through the
 * ETIM profile), and xmllint checks each file against schemas/bmecat/.
 */
describe('the exports of the dialect round trip', () => {
  it('validate against the BMEcat 2005 (and ETIM profile) XSD with 0 errors for every supplier dialect', async () => {
    const admin = await login('admin@demo.test');
    const current = await api(admin, 'Catalog/GetLanguages');
    const enabled = [...new Set([...current.languages.map((l: { code: string }) => l.code), 'deu', 'eng'])];
    await api(admin, 'Catalog/SetLanguages', { languages: enabled, defaultLanguage: current.defaultLanguage });
    const [department] = (await api(admin, 'Catalog/GetCatalogs?limit=1')).items;
    const departmentId = department.departmentId;

    for (const d of SUPPLIER_DIALECTS) {
      const catalog = await api(admin, 'Catalog/AddCatalog', {
        departmentId,
        name: `Rundreise ${d.name} ${Date.now()}`,
        currency: 'EUR',
        ...catalogOf(d),
      });
      const job = await importFile(admin, { departmentId, catalogId: catalog.catalogId }, supplierFile(d));
      expect(job, d.name).toMatchObject({ state: 'succeeded', summary: { rejected: 0 } });
      expect(job.summary.created, d.name).toBe(d.articles ? 2 : 3);
      for (const format of d.etim ? (['BMEcat', 'BMEcat-ETIM'] as const) : (['BMEcat'] as const)) {
        const { job: exported, xml } = await runExport(admin, {
          departmentId,
          catalogId: catalog.catalogId,
          exportType: format,
        });
        expect(exported.state, `${d.name} ${format}`).toBe('succeeded');
        expectValid(xml, format);
        // What the file carries (so "valid" cannot mean "left out").
        const compact = xml.replace(/>\s+</g, '><');
        expect(compact, d.name).toContain('<LOWER_BOUND>100</LOWER_BOUND>');
        expect(compact, d.name).toContain('<PROD_ID_TO>GRIFF-99</PROD_ID_TO>');
        expect(compact, d.name).toContain('https://cdn.example.com/docs/zange-180.pdf');
        expect(compact, d.name).toContain('udf-LF-1.0');
        if (d.twoLanguages) expect(compact, d.name).toContain('lang="eng"');
      }
    }
  });
});
