import { describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { addChannel } from '../src/completeness/channels';
import { asActor, db, makeCatalog, makeProduct } from './helpers/factories';
import { get, post, waitForJob } from './helpers/completeness';
import { callTool, openSession } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

const GTIN = '4006381333931';

/** A shop requiring a GTIN; a complete master with three variants, two of them without a GTIN. */
async function setup() {
  // The agent's user is an editor (admins cannot authorize agents): the channel is added as an admin would.
  const user = await makeAgentUser();
  const catalog = await makeCatalog(user, {});
  const res = await addChannel({ db: db(), queue: env.JOB_QUEUE }, asActor(user), {
    name: 'Shop',
    languages: ['deu'],
    requirements: [
      { kind: 'field', field: 'gtin' },
      { kind: 'field', field: 'name' },
    ],
  });
  expect((await waitForJob(user.session, res.jobId)).state).toBe('succeeded');
  const master = await makeProduct(user, catalog.catalogId, { sku: 'M-1', name: 'Drill', gtin: GTIN });
  const lacking = await makeProduct(user, catalog.catalogId, { sku: 'V-1', parentId: master.productId });
  const lacking2 = await makeProduct(user, catalog.catalogId, { sku: 'V-2', parentId: master.productId });
  await makeProduct(user, catalog.catalogId, { sku: 'V-3', parentId: master.productId, gtin: '4006381333948' });
  const loner = await makeProduct(user, catalog.catalogId, { sku: 'L-1', name: 'Loner' });
  return { user, catalog, master, lacking, lacking2, loner, channelId: res.channelId };
}

describe('Incomplete variants', () => {
  it('lists them per channel and language with their master, keyset paginated, and counts them in the overview', async () => {
    const { user, master, lacking, lacking2, loner } = await setup();
    const first = await get(user.session, '/api/Catalog/GetIncompleteProducts?channel=shop&level=variants&limit=1');
    expect(first.status, first.text).toBe(200);
    expect(first.json.items).toEqual([
      {
        productId: lacking.productId,
        masterId: master.productId,
        masterSku: 'M-1',
        catalogId: master.catalogId,
        sku: 'V-1',
        name: 'Test product',
        language: 'deu',
        score: 50,
        missing: [{ requirement: 'gtin', field: 'gtin' }],
      },
    ]);
    expect(first.json.nextCursor).toMatch(/^v:deu:50:\d+$/);
    const second = await get(
      user.session,
      `/api/Catalog/GetIncompleteProducts?channel=shop&level=variants&limit=1&cursor=${first.json.nextCursor}`,
    );
    expect(second.json.items.map((i: { productId: string }) => i.productId)).toEqual([lacking2.productId]);
    expect(second.json.nextCursor).toBeNull();
    expect(second.json.summary[0]).toMatchObject({ products: 2, complete: 1, variants: 3, incompleteVariants: 2 });
    // The masters' list is unchanged: only the master without GTIN, with no master of its own.
    const masters = await get(user.session, '/api/Catalog/GetIncompleteProducts?channel=shop');
    expect(masters.json.items).toMatchObject([{ productId: loner.productId, masterId: null, masterSku: null }]);
    // A cursor of the other list is refused.
    const mixed = await get(
      user.session,
      `/api/Catalog/GetIncompleteProducts?channel=shop&cursor=${first.json.nextCursor}`,
    );
    expect(mixed.status).toBe(400);
    expect(mixed.json.error).toContain('cursor');
    const level = await get(user.session, '/api/Catalog/GetIncompleteProducts?channel=shop&level=children');
    expect(level.status).toBe(400);
    expect(level.json.error).toContain('level');
    // Fixing one variant takes it off the list and moves the counters at once.
    const fixed = await post(user.session, '/api/Catalog/UpdateProduct', {
      departmentId: user.departmentId,
      catalogId: master.catalogId,
      productId: lacking.productId,
      gtin: '4006381333962',
    });
    expect(fixed.status, fixed.text).toBe(200);
    const overview = await get(user.session, '/api/Catalog/GetCompletenessOverview');
    expect(overview.json.items[0]).toMatchObject({ variants: 3, incompleteVariants: 1 });
  });

  it('reads alike through /api/ai and MCP', async () => {
    const { user, lacking, lacking2, master } = await setup();
    const { access_token: agent } = await tokensFor(user);
    const ai = await send('GET', '/api/ai/GetIncompleteProducts?channel=Shop&level=variants', { token: agent });
    expect(ai.status, ai.text).toBe(200);
    expect(ai.json.items.map((i: { productId: string }) => i.productId)).toEqual([
      lacking.productId,
      lacking2.productId,
    ]);
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(token);
    const result = await callTool(token, sessionId, 'list_incomplete_products', { channel: 'shop', level: 'variants' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.items.map((i: { masterId: string }) => i.masterId)).toEqual([
      master.productId,
      master.productId,
    ]);
  });

  it('filters the grid to masters with incomplete variants (incompleteVariantsFor), by language and requirement', async () => {
    const { user, catalog, master, lacking, lacking2, channelId } = await setup();
    const list = async (query: string) => {
      const res = await get(user.session, `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&${query}`);
      expect(res.status, res.text).toBe(200);
      return res.json.items.map((p: { sku: string }) => p.sku);
    };
    // M-1 is complete itself; L-1 has no variants: only M-1, once although two variants lack a GTIN.
    expect(await list(`incompleteVariantsFor=${channelId}`)).toEqual(['M-1']);
    expect(await list(`incompleteVariantsFor=${channelId}&channelLanguage=deu`)).toEqual(['M-1']);
    expect(await list(`incompleteVariantsFor=${channelId}&channelLanguage=eng`)).toEqual([]);
    expect(await list(`incompleteVariantsFor=${channelId}&missingRequirement=gtin`)).toEqual(['M-1']);
    expect(await list(`incompleteVariantsFor=${channelId}&missingRequirement=name`)).toEqual([]);
    // Combined with the masters' own filter: M-1 is not incomplete itself.
    expect(await list(`incompleteVariantsFor=${channelId}&incompleteFor=${channelId}`)).toEqual([]);
    expect(await list(`incompleteVariantsFor=${channelId}&sort=name&limit=1`)).toEqual(['M-1']);
    // Another company's user finds nothing with this channel.
    const stranger = await makeAgentUser();
    const theirs = await makeCatalog(stranger, {});
    await makeProduct(stranger, theirs.catalogId, { sku: 'X-1' });
    const foreign = await get(
      stranger.session,
      `/api/Catalog/GetProducts?catalogId=${theirs.catalogId}&incompleteVariantsFor=${channelId}`,
    );
    expect(foreign.json.items).toEqual([]);
    // Fixing both variants takes the master out at once.
    for (const [variant, gtin] of [
      [lacking, '4006381333962'],
      [lacking2, '4006381333979'],
    ] as const) {
      const fixed = await post(user.session, '/api/Catalog/UpdateProduct', {
        departmentId: user.departmentId,
        catalogId: master.catalogId,
        productId: variant.productId,
        gtin,
      });
      expect(fixed.status, fixed.text).toBe(200);
    }
    expect(await list(`incompleteVariantsFor=${channelId}`)).toEqual([]);
  });
});
