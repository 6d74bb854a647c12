import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { channelRules } from '../src/db/schema';
import { globError } from '../src/completeness/glob-pattern';
import { db, makeAttribute, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';
import { call } from './helpers/http';

type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

async function channel(admin: Admin, body: Record<string, unknown>) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', { languages: ['deu'], ...body });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  return res.json as { channelId: string };
}

/** [score, missing labels] of the product's first channel in German, or null when no rule applies to it. */
async function scoreOf(admin: Admin, productId: string) {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status, res.text).toBe(200);
  const entry = res.json.channels[0]?.languages.find((l: { language: string }) => l.language === 'deu');
  if (!entry) return null;
  return [entry.score, entry.missing.map((m: { requirement: string }) => m.requirement).sort()] as [number, string[]];
}

const update = (admin: Admin, catalogId: string, productId: string, body: Record<string, unknown>) =>
  post(admin.cookie, '/api/Catalog/UpdateProduct', { departmentId: admin.departmentId, catalogId, productId, ...body });

describe('Requirements per category subtree', () => {
  it('applies a rule only below its category, and moving a product between categories rescores it', async () => {
    const { admin, catalog } = await shopSetup();
    const tools = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Tools' });
    const drills = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Drills', parentId: tools.categoryId });
    const cables = await makeCategory(admin.tenant, catalog.catalogId, { name: 'Cables' });
    await channel(admin, {
      name: 'Shop',
      requirements: [
        { kind: 'field', field: 'name' },
        { kind: 'field', field: 'gtin', categoryId: tools.categoryId },
      ],
    });
    // In Drills, below Tools: the GTIN rule applies.
    const drill = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [drills.categoryId] });
    expect(await scoreOf(admin, drill.productId)).toEqual([50, ['gtin']]);
    // In Cables: only the name rule.
    const cable = await makeProduct(admin.tenant, catalog.catalogId, { categoryIds: [cables.categoryId] });
    expect(await scoreOf(admin, cable.productId)).toEqual([100, []]);
    // Moved from Cables to Drills, and back: rescored each time.
    const moved = await update(admin, catalog.catalogId, cable.productId, { categoryIds: [drills.categoryId] });
    expect(moved.status, moved.text).toBe(200);
    expect(await scoreOf(admin, cable.productId)).toEqual([50, ['gtin']]);
    await update(admin, catalog.catalogId, cable.productId, { categoryIds: [cables.categoryId] });
    expect(await scoreOf(admin, cable.productId)).toEqual([100, []]);
    // A variant is placed where its master is.
    const variant = await makeProduct(admin.tenant, catalog.catalogId, { parentId: drill.productId });
    expect(await scoreOf(admin, variant.productId)).toEqual([50, ['gtin']]);
  });

  it('answers 400 naming requirements[i].categoryId for a category of another company, writing nothing', async () => {
    const { admin, catalog } = await shopSetup();
    const other = await makeSession({ role: 'admin' });
    const { makeCatalog } = await import('./helpers/factories');
    const foreign = await makeCategory(other.tenant, (await makeCatalog(other.tenant)).catalogId);
    await makeCategory(admin.tenant, catalog.catalogId);
    const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'name' },
        { kind: 'field', field: 'gtin', categoryId: foreign.categoryId },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toContain('requirements[1].categoryId');
    const list = await get(admin.cookie, '/api/Catalog/GetChannels');
    expect(list.json.items).toEqual([]);
    const rules = await db()
      .select({ n: sql<number>`count(*)` })
      .from(channelRules)
      .where(sql`${channelRules.companyId} = ${admin.companyId}`);
    expect(rules[0]!.n).toBe(0);
  });
});

describe('Variant scores', () => {
  it('scores each variant with what it inherits counted as its master’s, and rescoring follows the master', async () => {
    const { admin, catalog } = await shopSetup();
    const colour = await makeAttribute(admin.tenant, { type: 'text', code: `colour_${Date.now()}` });
    await channel(admin, {
      name: 'Shop',
      requirements: [
        { kind: 'field', field: 'manufacturerName' },
        { kind: 'field', field: 'gtin' },
        { kind: 'attribute', attribute: colour.code },
      ],
    });
    const master = await makeProduct(admin.tenant, catalog.catalogId);
    const variant = await makeProduct(admin.tenant, catalog.catalogId, {
      parentId: master.productId,
      gtin: '4006381333931',
    });
    expect(await scoreOf(admin, variant.productId)).toEqual([33, ['manufacturerName', `values.${colour.code}`]]);
    // The master's manufacturer and colour are the variant's too: it is rescored by the master's writes.
    const m = await update(admin, catalog.catalogId, master.productId, { manufacturerName: 'ACME' });
    expect(m.status, m.text).toBe(200);
    const set = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: master.productId,
      field: colour.code,
      value: 'rot',
    });
    expect(set.status, set.text).toBe(200);
    expect(await scoreOf(admin, variant.productId)).toEqual([100, []]);
    // The GTIN is never inherited: the master still lacks its own.
    expect(await scoreOf(admin, master.productId)).toEqual([66, ['gtin']]);
    // The overview counts masters only.
    const overview = await get(admin.cookie, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items[0]).toMatchObject({ products: 1, complete: 0 });
  });
});

describe('Recompute and counters', () => {
  it('scores existing masters and variants in the job, and keeps the counters right when scores change in place', async () => {
    const { admin, catalog } = await shopSetup();
    const master = await makeProduct(admin.tenant, catalog.catalogId);
    const variant = await makeProduct(admin.tenant, catalog.catalogId, { parentId: master.productId });
    await channel(admin, {
      name: 'Shop',
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'field', field: 'name' },
      ],
    });
    expect(await scoreOf(admin, master.productId)).toEqual([50, ['gtin']]);
    expect(await scoreOf(admin, variant.productId)).toEqual([50, ['gtin']]);
    const overview = async () => (await get(admin.cookie, '/api/Catalog/GetCompletenessOverview')).json.items[0];
    expect(await overview()).toMatchObject({
      products: 1,
      complete: 0,
      averageScore: 50,
      missing: [{ requirement: 'gtin', products: 1 }],
    });
    await update(admin, catalog.catalogId, master.productId, { gtin: '4006381333931' });
    expect(await overview()).toMatchObject({ products: 1, complete: 1, averageScore: 100, missing: [] });
    const cleared = await update(admin, catalog.catalogId, master.productId, { gtin: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(await overview()).toMatchObject({
      products: 1,
      complete: 0,
      averageScore: 50,
      missing: [{ requirement: 'gtin', products: 1 }],
    });
  });
});

describe('Bulk writes rescore once', () => {
  it('scores masters and variants an UpsertProducts batch writes at its end, and leaves no deferral behind', async () => {
    const { admin, catalog } = await shopSetup();
    const colour = await makeAttribute(admin.tenant, { type: 'text', code: `colour_${Date.now()}` });
    const size = await makeAttribute(admin.tenant, { type: 'text', code: `size_${Date.now()}` });
    await channel(admin, {
      name: 'Shop',
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'attribute', attribute: colour.code },
        { kind: 'attribute', attribute: size.code },
      ],
    });
    const upsert = (items: unknown[]) =>
      call('POST', '/api/Catalog/UpsertProducts', {
        cookie: admin.cookie,
        headers: { Origin: 'http://pim.test' },
        body: { departmentId: admin.departmentId, catalogId: catalog.catalogId, items },
      });
    const res = await upsert([
      {
        sku: 'BULK-1',
        gtin: '4006381333931',
        values: { [colour.code]: 'rot', [size.code]: 'M' },
        variants: [{ sku: 'BULK-1-V', values: { [size.code]: 'L' } }],
      },
      { sku: 'BULK-2', values: { [colour.code]: 'blau' } },
    ]);
    expect(res.status, res.text).toBe(200);
    const id = (sku: string) =>
      res.json.items.flatMap((i: any) => [i, ...(i.variants ?? [])]).find((i: any) => i.sku === sku).productId;
    expect(await scoreOf(admin, id('BULK-1'))).toEqual([100, []]);
    expect(await scoreOf(admin, id('BULK-1-V'))).toEqual([66, ['gtin']]);
    expect(await scoreOf(admin, id('BULK-2'))).toEqual([33, ['gtin', `values.${size.code}`]]);
    const left = await db().all<{ n: number }>(
      sql`SELECT (SELECT count(*) FROM completeness_defer) + (SELECT count(*) FROM completeness_dirty) AS n`,
    );
    expect(left[0]!.n).toBe(0);
    // The next single write rescores at once again (the triggers are not left deferred).
    const set = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: id('BULK-2'),
      field: size.code,
      value: 'S',
    });
    expect(set.status, set.text).toBe(200);
    expect(await scoreOf(admin, id('BULK-2'))).toEqual([66, ['gtin']]);
  });
});

describe('Pattern rules', () => {
  it('checks an attribute value against a GLOB pattern; no value is not a violation', async () => {
    const { admin, catalog } = await shopSetup();
    const etim = await makeAttribute(admin.tenant, { type: 'text', code: `ec_${Date.now()}` });
    await channel(admin, {
      name: 'Pool',
      requirements: [
        { kind: 'quality', rule: 'pattern', attribute: etim.code, pattern: 'EC[0-9][0-9][0-9][0-9][0-9][0-9]' },
      ],
    });
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    expect(await scoreOf(admin, product.productId)).toEqual([100, []]);
    const setValue = (value: string) =>
      post(admin.cookie, '/api/Catalog/SetValue', {
        departmentId: admin.departmentId,
        elementId: product.productId,
        field: etim.code,
        value,
      });
    expect((await setValue('EC00042')).status).toBe(200);
    const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${product.productId}`);
    expect(res.json.channels[0].languages[0].missing).toEqual([
      { requirement: `quality.pattern.${etim.code}`, field: `values.${etim.code}` },
    ]);
    expect((await setValue('EC000042')).status).toBe(200);
    expect(await scoreOf(admin, product.productId)).toEqual([100, []]);
  });

  it('answers 400 naming the field for a bad pattern, a missing attribute or a pattern on another rule', async () => {
    const { admin } = await shopSetup();
    const attr = await makeAttribute(admin.tenant, { type: 'text' });
    const cases: [Record<string, unknown>, string][] = [
      [{ kind: 'quality', rule: 'pattern', attribute: attr.code, pattern: 'EC[0-9' }, 'requirements[0].pattern'],
      [{ kind: 'quality', rule: 'pattern', attribute: attr.code, pattern: '' }, 'requirements[0].pattern'],
      [{ kind: 'quality', rule: 'pattern', attribute: 'nope', pattern: '*' }, 'requirements[0].attribute'],
      [{ kind: 'quality', rule: 'gtinUnique', pattern: '*' }, 'requirements[0]'],
    ];
    for (const [requirement, field] of cases) {
      const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
        name: 'Pool',
        languages: ['deu'],
        requirements: [requirement],
      });
      expect(res.status, JSON.stringify(requirement)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    expect((await get(admin.cookie, '/api/Catalog/GetChannels')).json.items).toEqual([]);
  });

  it('accepts closed sets, negated sets and a ] first in a set', () => {
    expect(globError('EC[0-9]*')).toBeNull();
    expect(globError('[^]x]?')).toBeNull();
    expect(globError('[]]')).toBeNull();
    expect(globError('a[^')).toContain('character 2');
  });
});
