import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { classificationLinkClasses, classificationLinks, products, productUdx } from '../src/db/schema';
import { exportedFile } from './helpers/export-fixtures';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { importTextToEnd, reportRows } from './helpers/import-fixtures';
import { classFile, classProduct } from './helpers/xchange-class-files';

/**
 * Issue 32: the class version an ETIM xChange file gave (migration 0082) survives edits. A
 * classification edit that keeps the class keeps `classVersion` / `dynamicReleaseDate`; the
 * classification APIs take them as optional fields (null removes); history snapshots record them
 * and RestoreVersion brings them back; the ETIM BMEcat profile writes a DYNAMIC class's date as
 * UDX.EDXF.PRODUCT_ETIM_DYNAMIC, and a BMEcat import reads it back into the class.
 */
async function setup(classification: Record<string, unknown>) {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant, { language: 'deu' });
  await importTextToEnd(s.tenant, catalog.catalogId, classFile([classProduct('CV-1', classification)]));
  const row = await db().query.products.findFirst({
    where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, 'CV-1')),
  });
  const elementId = row!.id;
  const post = (path: string, body: Record<string, unknown>) =>
    call('POST', `/api/${path}`, { cookie: s.cookie, body: { departmentId: s.departmentId, ...body } });
  const get = (path: string) => call('GET', `/api/${path}`, { cookie: s.cookie });
  const set = (cls: Record<string, unknown>, value = '240') =>
    post('Classification/SetElementClassification', {
      elementId,
      classes: [{ group: 'ETIM', code: 'EC000042', ...cls }],
      features: [{ code: 'EF000008', value }],
    });
  const classes = async () =>
    (await get(`Catalog/GetProduct?productId=${elementId}`)).json.classification.classes as Record<string, unknown>[];
  return { s, catalog, elementId, post, get, set, classes };
}

const CLASS = { group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' };

describe('the class version through classification edits and history', () => {
  it('is kept by an edit of the same class, taken when given and removed by null', async () => {
    const { set, classes, get, elementId } = await setup({ EtimReleaseVersion: '9.0', EtimClassVersion: 3 });
    expect(await classes()).toEqual([{ ...CLASS, classVersion: 3 }]);

    const edited = await set({});
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json.classification.classes[0]).toMatchObject({ code: 'EC000042', classVersion: 3 });
    expect(await classes()).toEqual([{ ...CLASS, classVersion: 3 }]);
    const read = await get(`Classification/GetElementClassification?elementId=${elementId}`);
    expect(read.json.classification.classes[0].classVersion).toBe(3);

    expect((await set({ classVersion: 4 }, '250')).status).toBe(200);
    expect(await classes()).toEqual([{ ...CLASS, classVersion: 4 }]);
    expect((await set({ classVersion: null }, '260')).status).toBe(200);
    expect(await classes()).toEqual([CLASS]);
    const bad = await set({ classVersion: 'drei' });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/classVersion/);
  });

  it('is recorded in the history and brought back by RestoreVersion', async () => {
    const { set, classes, get, post, elementId } = await setup({ EtimReleaseVersion: '9.0', EtimClassVersion: 3 });
    expect((await set({ classVersion: null })).status).toBe(200);
    const history = (await get(`Catalog/GetHistory?elementId=${elementId}`)).json.items;
    expect(history[0].changes).toContainEqual(
      expect.objectContaining({ path: 'classification.classVersion.ETIM', before: 3, after: null }),
    );
    const withVersion = history[1].versionId;
    const restored = await post('Catalog/RestoreVersion', { elementId, versionId: withVersion });
    expect(restored.status, restored.text).toBe(200);
    expect(await classes()).toEqual([{ ...CLASS, classVersion: 3 }]);
  });

  it('RestoreVersion brings back a class a tolerant import kept verbatim: its system, unverified, its values as text', async () => {
    const { set, get, post, elementId } = await setup({
      EtimReleaseVersion: 'DYNAMIC',
      EtimClassCode: 'EC011533',
      EtimClassVersion: 7,
    });
    const classification = async () =>
      (await get(`Classification/GetElementClassification?elementId=${elementId}`)).json.classification;
    const kept = await classification();
    expect(kept.classes).toMatchObject([{ system: 'ETIM-DYNAMIC', code: 'EC011533', classVersion: 7 }]);
    expect((await set({})).status).toBe(200);
    expect((await classification()).classes).toMatchObject([{ system: 'ETIM-9.0', code: 'EC000042' }]);
    const history = (await get(`Catalog/GetHistory?elementId=${elementId}`)).json.items;
    expect(history[0].changes).toContainEqual(
      expect.objectContaining({ path: 'classification.keptSystem.ETIM', before: 'ETIM-DYNAMIC', after: null }),
    );
    const restored = await post('Catalog/RestoreVersion', { elementId, versionId: history[1].versionId });
    expect(restored.status, restored.text).toBe(200);
    expect(await classification()).toEqual(kept);
    const [row] = await db()
      .select({ unverified: classificationLinkClasses.unverified })
      .from(classificationLinkClasses)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkClasses.linkId))
      .where(eq(classificationLinks.elementId, elementId));
    expect(row!.unverified).toBe(true);
  });

  it('writes a DYNAMIC class date in the ETIM BMEcat profile as UDX.EDXF.PRODUCT_ETIM_DYNAMIC', async () => {
    const { s, catalog } = await setup({
      EtimReleaseVersion: 'DYNAMIC',
      EtimClassCode: 'EC011533',
      EtimClassVersion: 7,
      EtimDynamicReleaseDate: '2025-11-27',
    });
    const { text } = await exportedFile(s.tenant, catalog.catalogId, 'BMEcat-ETIM');
    expect(text.replace(/>\s+</g, '><')).toContain(
      '<UDX.EDXF.PRODUCT_ETIM_DYNAMIC><UDX.EDXF.PRODUCT_ETIM_RELEASE_DATE>2025-11-27</UDX.EDXF.PRODUCT_ETIM_RELEASE_DATE></UDX.EDXF.PRODUCT_ETIM_DYNAMIC>',
    );
  });

  it('reads UDX.EDXF.PRODUCT_ETIM_DYNAMIC of a BMEcat import into the class: export, import, export keeps the date once', async () => {
    const { s, catalog } = await setup({
      EtimReleaseVersion: 'DYNAMIC',
      EtimClassCode: 'EC011533',
      EtimDynamicReleaseDate: '2025-11-27',
    });
    const first = (await exportedFile(s.tenant, catalog.catalogId, 'BMEcat-ETIM')).text;
    const copy = await makeCatalog(s.tenant, { language: 'deu' });
    await importTextToEnd(s.tenant, copy.catalogId, first, { fileName: 'catalog.xml' });
    const row = await db().query.products.findFirst({
      where: and(eq(products.catalogId, copy.catalogId), eq(products.sku, 'CV-1')),
    });
    const read = await call('GET', `/api/Catalog/GetProduct?productId=${row!.id}`, { cookie: s.cookie });
    expect(read.json.classification.classes).toEqual([
      { group: 'ETIM', system: 'ETIM-DYNAMIC', code: 'EC011533', dynamicReleaseDate: '2025-11-27' },
    ]);
    const kept = await db().query.productUdx.findFirst({ where: eq(productUdx.productId, row!.id) });
    expect(kept?.xml ?? '').not.toContain('PRODUCT_ETIM_DYNAMIC');
    const second = (await exportedFile(s.tenant, copy.catalogId, 'BMEcat-ETIM')).text;
    expect(second.match(/<UDX\.EDXF\.PRODUCT_ETIM_RELEASE_DATE>2025-11-27</g)).toHaveLength(1);
  });

  it('keeps UDX.EDXF.PRODUCT_ETIM_DYNAMIC verbatim where no DYNAMIC class takes it, and reports a date that does not read', async () => {
    const { s, catalog } = await setup({
      EtimReleaseVersion: 'DYNAMIC',
      EtimClassCode: 'EC011533',
      EtimDynamicReleaseDate: '2025-11-27',
    });
    const exported = (await exportedFile(s.tenant, catalog.catalogId, 'BMEcat-ETIM')).text;
    const udx = (date: string) =>
      `<UDX.EDXF.PRODUCT_ETIM_DYNAMIC><UDX.EDXF.PRODUCT_ETIM_RELEASE_DATE>${date}</UDX.EDXF.PRODUCT_ETIM_RELEASE_DATE></UDX.EDXF.PRODUCT_ETIM_DYNAMIC>`;
    const imported = async (text: string) => {
      const copy = await makeCatalog(s.tenant, { language: 'deu' });
      const { jobId } = await importTextToEnd(s.tenant, copy.catalogId, text, { fileName: 'catalog.xml' });
      const row = await db().query.products.findFirst({
        where: and(eq(products.catalogId, copy.catalogId), eq(products.sku, 'CV-1')),
      });
      const kept = await db().query.productUdx.findFirst({ where: eq(productUdx.productId, row!.id) });
      const read = await call('GET', `/api/Catalog/GetProduct?productId=${row!.id}`, { cookie: s.cookie });
      return { classes: read.json.classification.classes, kept: kept?.xml ?? '', report: await reportRows(jobId) };
    };
    // A class of another release: the element is the supplier's, kept as it was.
    const other = await imported(exported.replace(/ETIM-DYNAMIC/g, 'ETIM-8.0'));
    expect(other.classes[0]).not.toHaveProperty('dynamicReleaseDate');
    expect(other.kept).toContain(udx('2025-11-27'));
    // A date that does not read: reported, kept verbatim, not with the class.
    const odd = await imported(exported.replace('>2025-11-27<', '>27.11.2025<'));
    expect(odd.classes[0]).not.toHaveProperty('dynamicReleaseDate');
    expect(odd.kept).toContain(udx('27.11.2025'));
    expect(odd.report.map((r) => r.join(' ')).join('\n')).toContain('class_field_dropped');
  });
});
