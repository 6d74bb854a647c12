import { describe, expect, it } from 'vitest';
import { api, expectSameAsApi, expectValid, loadCatalog, login, runExport, xmllint } from './export-harness';
import type { Format } from './export-expected';

const SALES = '0190a000-0000-7000-8000-000000000011';
const FORMATS: Format[] = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12'];

describe('BMEcat exports of the seeded demo catalogs', () => {
  for (const format of FORMATS) {
    it(`${format}: every demo catalog validates against its schema and reads back as the API shows it`, async () => {
      const cookie = await login('editor@demo.test');
      const catalogs = (await api(cookie, 'Catalog/GetCatalogs?limit=100')).items;
      expect(catalogs.length).toBeGreaterThanOrEqual(3);
      const etim: { name: string; values: string[] }[] = [];
      for (const catalog of catalogs) {
        const { job, xml } = await runExport(cookie, {
          departmentId: catalog.departmentId,
          catalogId: catalog.catalogId,
          exportType: format,
        });
        expect(job).toMatchObject({ state: 'succeeded', error: null });
        expectValid(xml, format);
        const data = await loadCatalog(cookie, catalog.catalogId);
        const products = expectSameAsApi(format, xml, data);
        expect(job.progress).toEqual({ done: products.length, total: products.length });
        expect(products.length).toBe(catalog.productCount);
        etim.push(
          ...products.flatMap((p) => p.blocks.filter((b) => b.system === 'ETIM-9.0').flatMap((b) => b.features)),
        );
      }
      // The demo data is classified: ETIM features with EF codes, EV codes, numbers, ranges (two FVALUEs) and logical values.
      expect(etim.length).toBeGreaterThan(50);
      expect(etim.every((f) => /^EF\d{6}$/.test(f.name))).toBe(true);
      expect(etim.some((f) => /^EV\d{6}$/.test(f.values[0]!))).toBe(true);
      expect(etim.some((f) => f.values.length === 2)).toBe(true);
      expect(etim.some((f) => f.values[0] === 'true' || f.values[0] === 'false')).toBe(true);
    });
  }

  it('BMEcat with the openTRANS namespace (template option) validates against the openTRANS 2.1 copy of the schema', async () => {
    const cookie = await login('editor@demo.test');
    const [catalog] = (await api(cookie, 'Catalog/GetCatalogs?limit=1')).items;
    const template = await api(cookie, 'Export/AddTemplate', {
      name: `openTRANS ${Date.now()}`,
      exportType: 'BMEcat',
      options: { namespace: '2005', priceType: 'nrp' },
    });
    const { job, xml } = await runExport(cookie, {
      departmentId: catalog.departmentId,
      catalogId: catalog.catalogId,
      templateId: template.templateId,
    });
    expect(job.state).toBe('succeeded');
    expect(xml).toContain('<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005">');
    expectValid(xml, 'BMEcat-openTRANS');
    expect(xmllint(xml, 'BMEcat').status).toBe(3); // the other namespace is a different schema
    expectSameAsApi('BMEcat', xml, await loadCatalog(cookie, catalog.catalogId), { priceType: 'nrp' });
  });

  it("a template's category subset exports that subtree only, still valid in every format", async () => {
    const cookie = await login('editor@demo.test');
    const [catalog] = (await api(cookie, 'Catalog/GetCatalogs?limit=1')).items;
    const [top] = (await api(cookie, `Catalog/GetCategoryTree?catalogId=${catalog.catalogId}`)).items;
    const inSubtree = new Set<string>();
    const walk = (n: { categoryId: string; children: any[] }): void => {
      inSubtree.add(n.categoryId);
      n.children.forEach(walk);
    };
    walk(top);
    const data = await loadCatalog(cookie, catalog.catalogId);
    const families = data.families.filter((f) => f.master.categoryIds.some((id) => inSubtree.has(id)));
    expect(families.length).toBeGreaterThan(0);
    expect(families.length).toBeLessThan(data.families.length);
    for (const format of FORMATS) {
      const template = await api(cookie, 'Export/AddTemplate', {
        name: `Subset ${format} ${Date.now()}`,
        exportType: format,
        options: { categoryId: top.categoryId },
      });
      const { job, xml } = await runExport(cookie, {
        departmentId: SALES,
        catalogId: catalog.catalogId,
        templateId: template.templateId,
      });
      expect(job.state).toBe('succeeded');
      expectValid(xml, format);
      // Only placements inside the subtree are mapped; the tree is the chosen category with its descendants.
      const placedInside = families.map((f) => ({
        ...f,
        master: { ...f.master, categoryIds: f.master.categoryIds.filter((id) => inSubtree.has(id)) },
      }));
      expectSameAsApi(format, xml, { ...data, families: placedInside, tree: [top] });
    }
  });
});
