import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import {
  channelRules,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  classificationReleases,
  releaseClassFeatures,
  releaseFeatures,
} from '../src/db/schema';
import { classifyAsMcb, db, makeCategory, makeProduct } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

async function channel(admin: Admin, requirements: unknown[]) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', { name: 'Shop', languages: ['deu'], requirements });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
}

/** [score, missing labels, fields to fix] of the product's first channel in German. */
async function scoreOf(admin: Admin, productId: string) {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const entry = res.json.channels[0].languages[0];
  const missing = entry.missing as { requirement: string; field: string }[];
  return [entry.score, missing.map((m) => m.requirement), [...new Set(missing.map((m) => m.field))]];
}

/** Sets the stored value of one feature of the product's classification (the triggers see any write). */
async function setFeature(productId: string, code: string, value: string) {
  const [link] = await db().select().from(classificationLinks).where(eq(classificationLinks.elementId, productId));
  await db()
    .update(classificationLinkFeatures)
    .set({ value })
    .where(and(eq(classificationLinkFeatures.linkId, link!.id), eq(classificationLinkFeatures.code, code)));
  return link!.id;
}

const RANGE = 'quality.range.ETIM.EF000008';

describe('Range rules on numeric feature values', () => {
  it("lists a value outside the channel's range with the product and counts it per channel", async () => {
    const { admin, catalog } = await shopSetup();
    await channel(admin, [
      { kind: 'field', field: 'name' },
      { kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', min: 0, max: 100 },
    ]);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    // No value is not a violation.
    expect(await scoreOf(admin, product.productId)).toEqual([100, [], []]);
    await classifyAsMcb(admin.tenant, product.productId, [{ code: 'EF000008', value: '230' }]);
    expect(await scoreOf(admin, product.productId)).toEqual([50, [RANGE], ['classification']]);
    const overview = await get(admin.cookie, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items[0].missing).toEqual([{ requirement: RANGE, products: 1 }]);
    const listed = await get(admin.cookie, `/api/Catalog/GetIncompleteProducts?channel=shop&requirement=${RANGE}`);
    expect(listed.json.items.map((i: { productId: string }) => i.productId)).toEqual([product.productId]);
    await setFeature(product.productId, 'EF000008', '100');
    expect(await scoreOf(admin, product.productId)).toEqual([100, [], []]);
    // A range value counts with both ends; text that is no number is outside any range.
    await setFeature(product.productId, 'EF000008', '10..150');
    expect((await scoreOf(admin, product.productId))[0]).toBe(50);
    await setFeature(product.productId, 'EF000008', '10..90');
    expect((await scoreOf(admin, product.productId))[0]).toBe(100);
    await setFeature(product.productId, 'EF000008', 'about 50');
    expect((await scoreOf(admin, product.productId))[0]).toBe(50);
  });

  it('checks the unit when the rule and the value name one', async () => {
    const { admin, catalog } = await shopSetup();
    await channel(admin, [
      { kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', max: 400, unit: 'EU570' },
    ]);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    await classifyAsMcb(admin.tenant, product.productId, [{ code: 'EF000008', value: '230' }]);
    const [link] = await db()
      .select()
      .from(classificationLinks)
      .where(eq(classificationLinks.elementId, product.productId));
    const setUnit = (unit: string | null) =>
      db().update(classificationLinkFeatures).set({ unit }).where(eq(classificationLinkFeatures.linkId, link!.id));
    await setUnit('EU570');
    expect((await scoreOf(admin, product.productId))[0]).toBe(100);
    await setUnit(null);
    expect((await scoreOf(admin, product.productId))[0]).toBe(100);
    await setUnit('EU999');
    expect(await scoreOf(admin, product.productId)).toEqual([0, [RANGE], ['classification']]);
  });

  it("checks values against the release's ranges, a class's own bound over the feature's", async () => {
    const { admin, catalog } = await shopSetup();
    const [release] = await db()
      .insert(classificationReleases)
      .values({ system: 'ETIM', version: '9.0r', status: 'loaded', format: 'etim' })
      .returning();
    await db()
      .insert(releaseFeatures)
      .values({ releaseId: release!.id, code: 'EF000008', type: 'N', minValue: 0, maxValue: 1000 });
    await db()
      .insert(releaseClassFeatures)
      .values({ releaseId: release!.id, classCode: 'EC000042', featureCode: 'EF000008', sort: 1, maxValue: 250 });
    await channel(admin, [{ kind: 'quality', rule: 'releaseRanges', system: 'ETIM', release: 'ETIM-9.0r' }]);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    await classifyAsMcb(admin.tenant, product.productId, [{ code: 'EF000008', value: '230' }]);
    const linkId = await setFeature(product.productId, 'EF000008', '300');
    await db()
      .update(classificationLinkClasses)
      .set({ system: 'ETIM-9.0r' })
      .where(eq(classificationLinkClasses.linkId, linkId));
    expect(await scoreOf(admin, product.productId)).toEqual([
      0,
      ['quality.releaseRanges.ETIM-9.0r'],
      ['classification'],
    ]);
    await setFeature(product.productId, 'EF000008', '230');
    expect((await scoreOf(admin, product.productId))[0]).toBe(100);
    await setFeature(product.productId, 'EF000008', '-1');
    expect((await scoreOf(admin, product.productId))[0]).toBe(0);
  });

  it('answers 400 naming the part for an unknown feature, min > max and fields of another rule, writing nothing', async () => {
    const { admin } = await shopSetup();
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF999999', max: 1 }, 'requirements[0].feature'],
      [{ kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', min: 5, max: 1 }, 'requirements[0].min'],
      [{ kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008' }, 'requirements[0].min'],
      [{ kind: 'quality', rule: 'range', system: 'NOPE', feature: 'EF000008', max: 1 }, 'requirements[0].system'],
      [{ kind: 'quality', rule: 'range', system: 'ETIM', max: 1 }, 'requirements[0].feature'],
      [
        { kind: 'quality', rule: 'range', system: 'ETIM', feature: 'EF000008', max: 1, pattern: '*' },
        'requirements[0].pattern',
      ],
      [{ kind: 'quality', rule: 'gtinUnique', min: 1 }, 'requirements[0].min'],
      [{ kind: 'quality', rule: 'releaseRanges', system: 'ETIM' }, 'requirements[0].release'],
      [{ kind: 'quality', rule: 'releaseRanges', system: 'ETIM', release: 'ETIM-0.1' }, 'requirements[0].release'],
    ];
    for (const [requirement, field] of cases) {
      const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
        name: 'Shop',
        languages: ['deu'],
        requirements: [requirement],
      });
      expect(res.status, JSON.stringify(requirement)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    expect((await get(admin.cookie, '/api/Catalog/GetChannels')).json.items).toEqual([]);
    const [rules] = await db()
      .select({ n: sql<number>`count(*)` })
      .from(channelRules)
      .where(eq(channelRules.companyId, admin.companyId));
    expect(rules!.n).toBe(0);
  });
});

describe('Requirements sharing a label', () => {
  it('count the label once for a product in both subtrees', async () => {
    const { admin, catalog } = await shopSetup();
    const tools = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Tools' });
    const drills = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Drills', parentId: tools.categoryId });
    await channel(admin, [
      { kind: 'field', field: 'name' },
      { kind: 'field', field: 'gtin', categoryId: tools.categoryId },
      { kind: 'field', field: 'gtin', categoryId: drills.categoryId },
    ]);
    const both = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [drills.categoryId] });
    expect(await scoreOf(admin, both.productId)).toEqual([50, ['gtin'], ['gtin']]);
    const one = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [tools.categoryId] });
    expect(await scoreOf(admin, one.productId)).toEqual([50, ['gtin'], ['gtin']]);
    const overview = await get(admin.cookie, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items[0].missing).toEqual([{ requirement: 'gtin', products: 2 }]);
  });
});
