import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { classificationLinkFeatures, classificationLinks, historyVersions, products } from '../src/db/schema';
import { file, product } from './fixtures/bmecat-variants';
import { exportedText } from './helpers/export-fixtures';
import { asActor, db, makeCatalog, makeSession } from './helpers/factories';
import { planValueWrite } from '../src/catalog/values';
import { pathVersionStatement } from '../src/records/history-record';
import { call } from './helpers/http';
import { importTextToEnd } from './helpers/import-fixtures';
import { classFile, classProduct } from './helpers/xchange-class-files';

/**
 * Issue 32: the unit a file gave a feature value that a tolerant import kept as text (a class or
 * feature no reference data confirms) is kept, recorded in the history
 * (`classification.featureUnit.GROUP.code`) and brought back by RestoreVersion, so an export
 * after the restore writes it again (docs/classification-releases.md, docs/history.md).
 */

/** A BMEcat 2005 product with an eCl@ss class the reference data does not know, one feature with FUNIT. */
const keptClassFile = (unit: string, value = '12,5') =>
  file({
    root: 'version="2005"',
    records: [
      product(
        'KU-1',
        'Kabelkanal',
        `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ECLASS-5.1</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>27-99-99-99</REFERENCE_FEATURE_GROUP_ID><FEATURE><FNAME>AAB999</FNAME><FVALUE>${value}</FVALUE><FUNIT>${unit}</FUNIT></FEATURE></PRODUCT_FEATURES>`,
      ),
    ],
  });

async function setup() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant, { language: 'deu' });
  const post = (path: string, body: Record<string, unknown>) =>
    call('POST', `/api/${path}`, { cookie: s.cookie, body: { departmentId: s.departmentId, ...body } });
  const get = (path: string) => call('GET', `/api/${path}`, { cookie: s.cookie });
  const importText = (text: string, fileName = 'catalog.xml') =>
    importTextToEnd(s.tenant, catalog.catalogId, text, { fileName });
  const productId = async (sku: string) =>
    (await db().query.products.findFirst({
      where: and(eq(products.catalogId, catalog.catalogId), eq(products.sku, sku)),
    }))!.id;
  /** The stored feature rows of the element: code, value, unit, unverified. */
  const featureRows = async (elementId: string) =>
    (
      await db()
        .select({
          code: classificationLinkFeatures.code,
          value: classificationLinkFeatures.value,
          unit: classificationLinkFeatures.unit,
          unverified: classificationLinkFeatures.unverified,
        })
        .from(classificationLinkFeatures)
        .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
        .where(eq(classificationLinks.elementId, elementId))
    ).sort((a, b) => a.code.localeCompare(b.code));
  const history = async (elementId: string) =>
    (await get(`Catalog/GetHistory?elementId=${elementId}`)).json.items as {
      versionId: string;
      changes: { path: string; before: unknown; after: unknown }[];
    }[];
  const classification = async (elementId: string) =>
    (await get(`Classification/GetElementClassification?elementId=${elementId}`)).json.classification;
  const replaceClass = (elementId: string) =>
    post('Classification/SetElementClassification', {
      elementId,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000008', value: '230' }],
    });
  const restore = (elementId: string, versionId: string) => post('Catalog/RestoreVersion', { elementId, versionId });
  const exported = async (exportType: string) =>
    (await exportedText(s.tenant, catalog.catalogId, exportType)).replace(/>\s+</g, '><');
  return {
    s,
    catalog,
    post,
    importText,
    productId,
    featureRows,
    history,
    classification,
    replaceClass,
    restore,
    exported,
  };
}

const KEPT_BMECAT_FEATURE = '<FNAME>AAB999</FNAME><FVALUE>12,5</FVALUE><FUNIT>MMT</FUNIT>';

describe('the unit of a value kept as text, through history and RestoreVersion', () => {
  it('a BMEcat import keeps FUNIT of a kept value; a restore after the class was replaced brings it back and the export writes it again', async () => {
    const t = await setup();
    await t.importText(keptClassFile('MMT'));
    const id = await t.productId('KU-1');
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: 'MMT', unverified: true }]);
    const kept = await t.classification(id);
    expect(kept.classes).toMatchObject([{ group: 'ECLASS', system: 'ECLASS-5.1', code: '27-99-99-99' }]);
    expect(await t.exported('BMEcat')).toContain(KEPT_BMECAT_FEATURE);

    const replaced = await t.replaceClass(id);
    expect(replaced.status, replaced.text).toBe(200);
    const versions = await t.history(id);
    expect(versions[0]!.changes).toContainEqual({
      path: 'classification.featureUnit.ECLASS.AAB999',
      before: 'MMT',
      after: null,
    });
    expect(await t.exported('BMEcat')).not.toContain('<FUNIT>MMT</FUNIT>');

    const restored = await t.restore(id, versions[1]!.versionId);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.changes).toContainEqual({
      path: 'classification.featureUnit.ECLASS.AAB999',
      before: null,
      after: 'MMT',
    });
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: 'MMT', unverified: true }]);
    expect({ ...(await t.classification(id)), linkId: undefined }).toEqual({ ...kept, linkId: undefined });
    expect(await t.exported('BMEcat')).toContain(KEPT_BMECAT_FEATURE);

    // Restoring the state the product is in changes nothing: no statement, no version.
    const count = (await t.history(id)).length;
    const again = await t.restore(id, (await t.history(id))[0]!.versionId);
    expect(again.status, again.text).toBe(200);
    expect(again.json).toMatchObject({ versionId: null, changes: [] });
    expect(await t.history(id)).toHaveLength(count);
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: 'MMT', unverified: true }]);
  });

  it('a re-import that gives the kept value another FUNIT changes it, and the history shows the unit change', async () => {
    const t = await setup();
    await t.importText(keptClassFile('MMT'));
    const id = await t.productId('KU-1');
    const { job } = await t.importText(keptClassFile('CMT'));
    expect(job.summary).toMatchObject({ updated: 1, unchanged: 0 });
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: 'CMT', unverified: true }]);
    const versions = await t.history(id);
    expect(versions[0]!.changes).toEqual([
      { path: 'classification.featureUnit.ECLASS.AAB999', before: 'MMT', after: 'CMT' },
    ]);
    // The same file again changes nothing.
    const same = await t.importText(keptClassFile('CMT'));
    expect(same.job.summary).toMatchObject({ updated: 0, unchanged: 1 });
    expect(await t.history(id)).toHaveLength(versions.length);

    const restored = await t.restore(id, versions[1]!.versionId);
    expect(restored.status, restored.text).toBe(200);
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: 'MMT', unverified: true }]);
  });

  it('an ETIM xChange import keeps ClassificationFeatureUnit of a kept eCl@ss value; a restore brings it back and the xChange export writes it', async () => {
    const t = await setup();
    const withOther = {
      ...classProduct('XU-1', { EtimReleaseVersion: '9.0' }),
      OtherClassifications: [
        {
          ClassificationName: 'ECLASS',
          ClassificationVersion: '5.1',
          ClassificationClassCode: '27-99-99-99',
          ClassificationFeatures: [
            {
              ClassificationFeatureName: 'AAB999',
              ClassificationFeatureValue1: '12.5',
              ClassificationFeatureUnit: 'MMT',
            },
          ],
        },
      ],
    };
    await t.importText(classFile([withOther]), 'catalog.json');
    const id = await t.productId('XU-1');
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12.5', unit: 'MMT', unverified: true }]);
    const unitOut =
      '"ClassificationFeatureName":"AAB999","ClassificationFeatureValue1":"12.5","ClassificationFeatureUnit":"MMT"';
    expect(await t.exported('ETIMxChange')).toContain(unitOut);

    expect((await t.replaceClass(id)).status).toBe(200);
    expect(await t.exported('ETIMxChange')).not.toContain('"ClassificationFeatureUnit":"MMT"');
    const versions = await t.history(id);
    const restored = await t.restore(id, versions[1]!.versionId);
    expect(restored.status, restored.text).toBe(200);
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12.5', unit: 'MMT', unverified: true }]);
    expect(await t.exported('ETIMxChange')).toContain(unitOut);
  });

  it('SetValue of a value kept as text records its unit going; a restore gives the kept value its unit back', async () => {
    const t = await setup();
    const refused = file({
      root: 'version="2005"',
      records: [
        product(
          'KV-1',
          'Schalter',
          '<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>EC000042</REFERENCE_FEATURE_GROUP_ID><FEATURE><FNAME>EF000008</FNAME><FVALUE>zweihundert</FVALUE></FEATURE></PRODUCT_FEATURES>',
        ),
      ],
    });
    await t.importText(refused);
    const id = await t.productId('KV-1');
    expect(await t.featureRows(id)).toEqual([
      { code: 'EF000008', value: 'zweihundert', unit: 'VLT', unverified: true },
    ]);
    const set = await t.post('Catalog/SetValue', { elementId: id, field: 'EF000008', value: '230' });
    expect(set.status, set.text).toBe(200);
    await expectUnitGoneThenRestored(t, id);
  });

  it('SetValue after lost races (its version built in SQL) records the kept unit going too; only what changes', async () => {
    const t = await setup();
    const refusedFile = (value: string) =>
      file({
        root: 'version="2005"',
        records: [
          product(
            'KC-1',
            'Schalter',
            `<PRODUCT_FEATURES><REFERENCE_FEATURE_SYSTEM_NAME>ETIM-9.0</REFERENCE_FEATURE_SYSTEM_NAME><REFERENCE_FEATURE_GROUP_ID>EC000042</REFERENCE_FEATURE_GROUP_ID><FEATURE><FNAME>EF000008</FNAME><FVALUE>${value}</FVALUE></FEATURE></PRODUCT_FEATURES>`,
          ),
        ],
      });
    await t.importText(refusedFile('zweihundert'));
    const id = await t.productId('KC-1');
    const element = {
      kind: 'product' as const,
      id,
      catalogId: t.catalog.catalogId,
      departmentId: t.s.departmentId,
      masterId: id,
    };
    const actor = asActor(t.s.tenant);
    /** SetValue's contended write: the version's before read by SQL in the write's batch. */
    const contendedWrite = async (value: string) => {
      const plan = await planValueWrite(db(), actor, element, 'EF000008', value);
      expect(plan.keptUnit?.path).toBe('classification.featureUnit.ETIM.EF000008');
      await db().batch([
        pathVersionStatement(db(), actor, {
          elementId: id,
          kind: 'product',
          place: { catalogId: element.catalogId, masterId: id },
          path: plan.path,
          currentSql: plan.currentSql,
          after: plan.stored,
          exists: sql`1`,
          keptUnit: plan.keptUnit,
        }),
        plan.statement,
      ]);
    };
    await contendedWrite('230');
    await expectUnitGoneThenRestored(t, id);
    // A value kept as text "230": writing 230 verifies it, the value's path unchanged, the unit's going.
    await t.importText(refusedFile('230 Volt'));
    const [link] = await db()
      .select({ id: classificationLinks.id })
      .from(classificationLinks)
      .where(eq(classificationLinks.elementId, id));
    await db()
      .update(classificationLinkFeatures)
      .set({ value: '230' })
      .where(and(eq(classificationLinkFeatures.linkId, link!.id), eq(classificationLinkFeatures.code, 'EF000008')));
    expect(await t.featureRows(id)).toEqual([{ code: 'EF000008', value: '230', unit: 'VLT', unverified: true }]);
    const count = (await t.history(id)).length;
    await contendedWrite('230');
    const last = await t.history(id);
    expect(last).toHaveLength(count + 1);
    expect(last[0]!.changes).toEqual([
      { path: 'classification.featureUnit.ETIM.EF000008', before: 'VLT', after: null },
    ]);
    // Now verified: the same write again records nothing.
    await contendedWrite('230');
    expect(await t.history(id)).toHaveLength(count + 1);
  });

  it('a version written before the unit was recorded still restores: the kept value as text, without unit, as before', async () => {
    const t = await setup();
    await t.importText(keptClassFile('MMT'));
    const id = await t.productId('KU-1');
    expect((await t.replaceClass(id)).status).toBe(200);
    // The replacing version as it was recorded before issue 32: no unit path.
    const [latest] = await t.history(id);
    const old = latest!.changes
      .filter((c) => !c.path.startsWith('classification.featureUnit.'))
      .map((c) => [c.path, c.before, c.after]);
    expect(old.length).toBe(latest!.changes.length - 1);
    await db()
      .update(historyVersions)
      .set({ changes: JSON.stringify(old) })
      .where(eq(historyVersions.id, latest!.versionId));

    const versions = await t.history(id);
    const restored = await t.restore(id, versions[1]!.versionId);
    expect(restored.status, restored.text).toBe(200);
    expect(await t.featureRows(id)).toEqual([{ code: 'AAB999', value: '12,5', unit: null, unverified: true }]);
    expect(restored.json.changes.map((c: { path: string }) => c.path)).not.toContain(
      'classification.featureUnit.ECLASS.AAB999',
    );
    // And a restore of that state changes nothing.
    const count = (await t.history(id)).length;
    const again = await t.restore(id, (await t.history(id))[0]!.versionId);
    expect(again.json).toMatchObject({ versionId: null, changes: [] });
    expect(await t.history(id)).toHaveLength(count);
  });
});

/**
 * The last version wrote 230 over the kept "zweihundert" (unit VLT): it records the value and the
 * unit going, and restoring the version before brings both back, unverified.
 */
async function expectUnitGoneThenRestored(t: Awaited<ReturnType<typeof setup>>, id: string) {
  const versions = await t.history(id);
  expect(versions[0]!.changes).toEqual([
    { path: 'classification.feature.ETIM.EF000008', before: 'zweihundert', after: '230' },
    { path: 'classification.featureUnit.ETIM.EF000008', before: 'VLT', after: null },
  ]);
  const restored = await t.restore(id, versions[1]!.versionId);
  expect(restored.status, restored.text).toBe(200);
  expect(await t.featureRows(id)).toEqual([{ code: 'EF000008', value: 'zweihundert', unit: 'VLT', unverified: true }]);
}
