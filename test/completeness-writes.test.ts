import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { classificationLinkFeatures, classificationLinks, products } from '../src/db/schema';
import { runBatch } from '../src/db/client';
import { writeTranslationStatements } from '../src/model/translation-store';
import { env } from 'cloudflare:workers';
import { addChannel } from '../src/completeness/channels';
import { asActor, classifyAsMcb, db, makeCatalog, makeProduct } from './helpers/factories';
import { callTool, openSession, toolError } from './mcp-helpers';
import { makeAgentUser, tokensFor } from './oauth-helpers';
import { get, post, shopSetup, waitForJob } from './helpers/completeness';

type Admin = Awaited<ReturnType<typeof shopSetup>>['admin'];

async function channel(admin: Admin, body: Record<string, unknown>) {
  const res = await post(admin.cookie, '/api/Catalog/AddChannel', { languages: ['deu'], ...body });
  expect(res.status, res.text).toBe(200);
  expect((await waitForJob(admin.cookie, res.json.jobId)).state).toBe('succeeded');
  return res.json as { channelId: string };
}

/** The product's [score, missing labels] for its first channel in `language`. */
async function scoreOf(admin: Admin, productId: string, language = 'deu') {
  const res = await get(admin.cookie, `/api/Catalog/GetCompleteness?productId=${productId}`);
  const entry = res.json.channels[0].languages.find((l: { language: string }) => l.language === language);
  return [entry.score, entry.missing.map((m: { requirement: string }) => m.requirement).sort()] as [number, string[]];
}

describe('Completeness kept current by every write', () => {
  it('follows media, prices, classification, features and translations', async () => {
    const { admin, catalog } = await shopSetup();
    await channel(admin, {
      name: 'Data pool',
      languages: ['deu', 'eng'],
      requirements: [
        { kind: 'media', purpose: 'data_sheet' },
        { kind: 'price', priceType: 'nrp' },
        { kind: 'features', system: 'ETIM' },
        { kind: 'field', field: 'description', languages: ['eng'] },
      ],
    });
    const product = await makeProduct(admin.tenant, catalog.catalogId);
    expect(await scoreOf(admin, product.productId)).toEqual([
      0,
      ['features.ETIM', 'media.data_sheet>=1', 'prices.nrp'],
    ]);

    const link = await post(admin.cookie, '/api/Media/AddLink', {
      departmentId: admin.departmentId,
      elementId: product.productId,
      url: 'https://files.example/sheet.pdf',
      purpose: 'data_sheet',
    });
    expect(link.status, link.text).toBe(200);
    const prices = await post(admin.cookie, '/api/Catalog/SetPrices', {
      departmentId: admin.departmentId,
      productId: product.productId,
      prices: [{ type: 'nrp', amount: '9.90' }],
    });
    expect(prices.status, prices.text).toBe(200);
    expect(await scoreOf(admin, product.productId)).toEqual([66, ['features.ETIM']]);

    // Classified with one of the class's six features: still missing; with all six: complete.
    await classifyAsMcb(admin.tenant, product.productId, [{ code: 'EF000008', value: '230' }]);
    expect(await scoreOf(admin, product.productId)).toEqual([66, ['features.ETIM']]);
    const [classLink] = await db()
      .select()
      .from(classificationLinks)
      .where(eq(classificationLinks.elementId, product.productId));
    // Written below the API (values of every type are not the point here): the triggers see any write.
    await db()
      .insert(classificationLinkFeatures)
      .values(
        ['EF000010', 'EF000133', 'EF000073', 'EF000049', 'EF000001'].map((code) => ({
          linkId: classLink!.id,
          group: 'ETIM' as const,
          code,
          value: '1',
        })),
      );
    expect(await scoreOf(admin, product.productId)).toEqual([100, []]);

    expect((await scoreOf(admin, product.productId, 'eng'))[1]).toEqual(['description']);
    await runBatch(db(), writeTranslationStatements(db(), product.productId, 'eng', { description: 'A breaker' }));
    expect(await scoreOf(admin, product.productId, 'eng')).toEqual([100, []]);
    await runBatch(db(), writeTranslationStatements(db(), product.productId, 'eng', { description: null }));
    expect(await scoreOf(admin, product.productId, 'eng')).toEqual([75, ['description']]);
  });

  it('lists quality violations: a wrong GTIN check digit, a GTIN held twice, a name over the BMEcat limit', async () => {
    const { admin, catalog } = await shopSetup();
    await channel(admin, {
      name: 'Quality',
      requirements: [
        { kind: 'quality', rule: 'gtinCheckDigit' },
        { kind: 'quality', rule: 'gtinUnique' },
        { kind: 'quality', rule: 'bmecatLengths' },
      ],
    });
    const a = await makeProduct(admin.tenant, catalog.catalogId, { gtin: '4006381333931' });
    const b = await makeProduct(admin.tenant, catalog.catalogId);
    expect(await scoreOf(admin, a.productId)).toEqual([100, []]);
    // An import may keep what REST refuses: written here below the API, the triggers still judge it.
    await db()
      .update(products)
      .set({ gtin: '4006381333932', name: 'x'.repeat(151) })
      .where(eq(products.id, b.productId));
    expect(await scoreOf(admin, b.productId)).toEqual([33, ['quality.bmecatLengths', 'quality.gtinCheckDigit']]);
    // b takes a's GTIN: both are now duplicates, a without being written.
    await db().update(products).set({ gtin: '4006381333931', name: 'ok' }).where(eq(products.id, b.productId));
    expect(await scoreOf(admin, b.productId)).toEqual([66, ['quality.gtinUnique']]);
    expect(await scoreOf(admin, a.productId)).toEqual([66, ['quality.gtinUnique']]);
    // b is deleted: a is unique again.
    const del = await post(admin.cookie, '/api/Catalog/DeleteProduct', {
      departmentId: admin.departmentId,
      productId: b.productId,
    });
    expect(del.status, del.text).toBe(200);
    expect(await scoreOf(admin, a.productId)).toEqual([100, []]);
  });

  it('filters the grid by "incomplete for X", counts per channel, and forgets a deleted channel', async () => {
    const { admin, catalog } = await shopSetup();
    const shop = await channel(admin, { name: 'Shop', requirements: [{ kind: 'field', field: 'gtin' }] });
    const complete = await makeProduct(admin.tenant, catalog.catalogId, { gtin: '4006381333931' });
    const lacking = await makeProduct(admin.tenant, catalog.catalogId);
    const list = await get(
      admin.cookie,
      `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&incompleteFor=${shop.channelId}&channelLanguage=deu`,
    );
    expect(list.status, list.text).toBe(200);
    expect(list.json.items.map((p: { productId: string }) => p.productId)).toEqual([lacking.productId]);
    const missingGtin = await get(
      admin.cookie,
      `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&incompleteFor=${shop.channelId}&missingRequirement=name`,
    );
    expect(missingGtin.json.items).toEqual([]);

    const overview = await get(admin.cookie, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items).toEqual([
      {
        channelId: shop.channelId,
        name: 'Shop',
        language: 'deu',
        products: 2,
        complete: 1,
        averageScore: 50,
        missing: [{ requirement: 'gtin', products: 1 }],
        variants: 0,
        incompleteVariants: 0,
      },
    ]);
    const incomplete = await get(admin.cookie, '/api/Catalog/GetIncompleteProducts?channel=shop');
    expect(incomplete.json.items).toMatchObject([
      { productId: lacking.productId, score: 0, missing: [{ field: 'gtin' }] },
    ]);
    expect(complete.productId).not.toBe(lacking.productId);

    const del = await post(admin.cookie, '/api/Catalog/DeleteChannel', { channelId: shop.channelId });
    expect(del.status).toBe(200);
    expect((await waitForJob(admin.cookie, del.json.jobId)).state).toBe('succeeded');
    const left = await db().all<{ n: number }>(
      sql`SELECT count(*) AS n FROM completeness c JOIN products p ON p.rowid = c.product_key WHERE p.catalog_id = ${catalog.catalogId}`,
    );
    expect(left[0]!.n).toBe(0);
    expect((await get(admin.cookie, '/api/Catalog/GetCompletenessOverview')).json.items).toEqual([]);
  });
});

describe('Completeness for agents', () => {
  it('answers "what is missing for the shop?" from one MCP call', async () => {
    const user = await makeAgentUser();
    const catalog = await makeCatalog(user, {});
    // An admin defined the channel (the agent's user is an editor); its scores come from the job.
    const added = await addChannel({ db: db(), queue: env.JOB_QUEUE }, asActor(user), {
      name: 'Shop',
      languages: ['deu'],
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'media', purpose: 'normal' },
      ],
    });
    await waitForJob(user.session, added.jobId);
    const lacking = await makeProduct(user, catalog.catalogId, { sku: 'NO-GTIN' });
    await makeProduct(user, catalog.catalogId, { sku: 'HALF', gtin: '4006381333931' });
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const result = await callTool(token, sessionId, 'list_incomplete_products', { channel: 'shop' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent;
    expect(out.name).toBe('Shop');
    expect(out.summary).toEqual([
      {
        language: 'deu',
        products: 2,
        complete: 0,
        averageScore: 25,
        missing: [
          { requirement: 'media.normal>=1', products: 2 },
          { requirement: 'gtin', products: 1 },
        ],
        variants: 0,
        incompleteVariants: 0,
      },
    ]);
    expect(out.items.map((i: { sku: string; score: number }) => [i.sku, i.score])).toEqual([
      ['NO-GTIN', 0],
      ['HALF', 50],
    ]);
    expect(out.items[0].productId).toBe(lacking.productId);
    const unknown = await callTool(token, sessionId, 'list_incomplete_products', { channel: 'Print' });
    expect(toolError(unknown).error).toContain('channel "Print" not found');
  });
});
