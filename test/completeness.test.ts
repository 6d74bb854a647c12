import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { channelRules, channels } from '../src/db/schema';
import { db, makeAttribute, makeProduct, makeSession } from './helpers/factories';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

const SHOP = {
  name: 'Shop',
  languages: ['deu', 'eng'],
  requirements: [
    { kind: 'field', field: 'name' },
    { kind: 'field', field: 'gtin' },
    { kind: 'media', purpose: 'normal' },
  ],
};

const scoresOf = async (cookie: string, productId: string) => {
  const res = await get(cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  expect(res.status).toBe(200);
  return res.json.channels as {
    name: string;
    languages: {
      language: string;
      score: number;
      complete: boolean;
      missing: { requirement: string; field: string }[];
    }[];
  }[];
};

describe('Channels and their requirements', () => {
  it('stores a channel, computes the scores of existing products in a job, and lists what is missing', async () => {
    const { admin, catalog } = await shopSetup();
    const product = await makeProduct(admin.tenant, catalog.catalogId, { name: 'Schalter', gtin: '4006381333931' });
    const res = await post(admin.cookie, '/api/Catalog/AddChannel', SHOP);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Shop', languages: ['deu', 'eng'], requirements: SHOP.requirements });
    const job = await waitForJob(admin.cookie, res.json.jobId);
    expect(job.error).toBeNull();
    expect(job.state).toBe('succeeded');

    const [shop] = await scoresOf(admin.cookie, product.productId);
    expect(shop!.name).toBe('Shop');
    const [deu, eng] = shop!.languages;
    expect(deu).toMatchObject({ language: 'deu', score: 66, complete: false });
    expect(deu!.missing).toEqual([{ requirement: 'media.normal>=1', field: 'media' }]);
    expect(eng).toMatchObject({ language: 'eng', score: 33 });
    expect(eng!.missing.map((m) => m.field).sort()).toEqual(['media', 'name@eng']);
    const list = await get(admin.cookie, '/api/Catalog/GetChannels');
    expect(list.json.items.map((c: { name: string }) => c.name)).toEqual(['Shop']);
  });

  it('answers 400 naming an unknown field, attribute, language, media purpose or system, and writes nothing', async () => {
    const { admin } = await shopSetup();
    const bad: [unknown, string][] = [
      [{ kind: 'field', field: 'colour' }, 'requirements[0].field'],
      [{ kind: 'attribute', attribute: 'no_such' }, 'requirements[0].attribute'],
      [{ kind: 'media', purpose: 'poster' }, 'requirements[0].purpose'],
      [{ kind: 'classification', system: 'UNSPSC' }, 'requirements[0].system'],
      [{ kind: 'features', system: 'ETIM', share: 'mandatory' }, 'requirements[0].share'],
      [{ kind: 'features', system: 'ETIM', release: 'ETIM-99.0' }, 'requirements[0].release'],
      [{ kind: 'field', field: 'name', languages: ['fra'] }, 'requirements[0].languages[0]'],
    ];
    for (const [requirement, field] of bad) {
      const res = await post(admin.cookie, '/api/Catalog/AddChannel', {
        name: 'X',
        languages: ['deu'],
        requirements: [requirement],
      });
      expect(res.status, JSON.stringify(requirement)).toBe(400);
      expect(res.json.error).toContain(field);
    }
    const language = await post(admin.cookie, '/api/Catalog/AddChannel', { ...SHOP, languages: ['deu', 'fra'] });
    expect(language.status).toBe(400);
    expect(language.json.error).toContain('languages[1]');
    expect(await db().$count(channels, eq(channels.companyId, admin.companyId))).toBe(0);
    expect(await db().$count(channelRules, eq(channelRules.companyId, admin.companyId))).toBe(0);
  });

  it('lets only an admin write channels (403 before validation)', async () => {
    const editor = await makeSession();
    const res = await post(editor.cookie, '/api/Catalog/AddChannel', { name: 1 });
    expect(res.status).toBe(403);
    expect(await db().$count(channels, eq(channels.companyId, editor.companyId))).toBe(0);
  });

  it('keeps scores current through writes: a fixed field raises the score at once', async () => {
    const { admin, catalog } = await shopSetup();
    const colour = await makeAttribute(admin.tenant, { type: 'text', code: 'colour' });
    const channel = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Print',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'description' },
        { kind: 'attribute', attribute: colour.code },
      ],
    });
    await waitForJob(admin.cookie, channel.json.jobId);
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    expect((await scoresOf(admin.cookie, product.productId))[0]!.languages[0]!.score).toBe(0);
    const set = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: product.productId,
      field: 'colour',
      value: 'rot',
    });
    expect(set.status).toBe(200);
    const after = (await scoresOf(admin.cookie, product.productId))[0]!.languages[0]!;
    expect(after).toMatchObject({ score: 50, missing: [{ requirement: 'description', field: 'description' }] });
  });
});
