import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { productPrices, products } from '../src/db/schema';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { syncPriceList } from '../src/model/price-records';
import { productSchema } from '../src/sync/protocol/wire';
import { fingerprintsOf } from '../src/records/sync-record';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';
import { callTool, openSession } from './mcp-helpers';

const TIERS = [
  { type: 'net_list', amount: '10.00', currency: 'EUR', tax: '0.19', lowerBound: '1' },
  { type: 'net_list', amount: '9.50', currency: 'EUR', tax: '0.19', lowerBound: '10' },
  { type: 'net_list', amount: '9.00', currency: 'EUR', tax: '0.19', lowerBound: '100' },
  {
    type: 'nrp',
    amount: '14.99',
    currency: 'EUR',
    tax: '0.19',
    territory: ['DE', 'AT'],
    validFrom: '2026-01-01',
    validTo: '2026-12-31',
  },
];

async function setup() {
  const user = await makeSession();
  const catalog = await makeCatalog(user.tenant);
  const product = await makeProduct(user.tenant, catalog.catalogId, { sku: 'P-1', price: '7.00' });
  return { user, catalog, product };
}

const post = (cookie: string, json: unknown) => send('POST', '/api/Catalog/SetPrices', { cookie, json });

describe('Price lists', () => {
  it('replaces the list, makes the first price not on request the product price, and reads it back', async () => {
    const { user, product } = await setup();
    const res = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: TIERS,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.price).toBe('10.00');
    expect(res.json.prices).toHaveLength(4);
    expect(res.json.prices[3]).toEqual({
      type: 'nrp',
      amount: '14.99',
      currency: 'EUR',
      tax: '0.19',
      factor: null,
      lowerBound: null,
      territory: ['DE', 'AT'],
      validFrom: '2026-01-01',
      validTo: '2026-12-31',
      daily: false,
      base: null,
    });
    const read = await send('GET', `/api/Catalog/GetPrices?productId=${product.productId}`, { cookie: user.cookie });
    expect(read.json).toEqual(res.json);
    const detail = await send('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: user.cookie });
    expect(detail.json.price).toBe('10.00');
    expect(detail.json.prices.map((p: { amount: string }) => p.amount)).toEqual(['10.00', '9.50', '9.00', '14.99']);
    // The default row's amount has one home: products.price.
    const rows = await db().select().from(productPrices).where(eq(productPrices.productId, product.productId));
    expect(rows.find((r) => r.position === 0)!.amount).toBeNull();
  });

  it('follows a SetValue of price in the list, and drops the default row when price is cleared', async () => {
    const { user, product } = await setup();
    const tenant = asActor(user.tenant);
    await setPrices(db(), tenant, { departmentId: user.departmentId, productId: product.productId, prices: TIERS });
    const set = await send('POST', '/api/Catalog/SetValue', {
      cookie: user.cookie,
      json: { departmentId: user.departmentId, elementId: product.productId, field: 'price', value: '11,25' },
    });
    expect(set.status, set.text).toBe(200);
    expect((await getPrices(db(), tenant, product.productId)).prices[0]!.amount).toBe('11.25');
    await send('POST', '/api/Catalog/SetValue', {
      cookie: user.cookie,
      json: { departmentId: user.departmentId, elementId: product.productId, field: 'price', value: '' },
    });
    const after = await getPrices(db(), tenant, product.productId);
    expect(after.price).toBeNull();
    expect(after.prices.map((p) => p.amount)).toEqual(['9.50', '9.00', '14.99']);
  });

  it('refuses an empty list without clear: true and changes nothing; with it, empties the list and keeps price', async () => {
    const { user, product } = await setup();
    const tenant = asActor(user.tenant);
    await setPrices(db(), tenant, { departmentId: user.departmentId, productId: product.productId, prices: TIERS });
    const refused = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/clear: true/);
    expect((await getPrices(db(), tenant, product.productId)).prices).toHaveLength(4);
    const cleared = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [],
      clear: true,
    });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json).toEqual({ productId: product.productId, price: '10.00', prices: [] });
  });

  it.each([
    ['currency', { currency: 'euro' }, /currency/],
    ['amount', { amount: '12.123456789012345678901' }, /amount/],
    ['amount', { amount: null }, /amount is missing/],
    ['tax', { tax: '19' }, /tax/],
    ['lowerBound', { lowerBound: '0' }, /lowerBound/],
    ['territory', { territory: ['Germany'] }, /territory/],
    ['validTo', { validFrom: '2026-02-01', validTo: '2026-01-01' }, /validFrom must not be after validTo/],
    ['type', { type: 'cheap' }, /type/],
  ])('answers 400 naming %s and changes nothing', async (_field, patch, message) => {
    const { user, product } = await setup();
    const res = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [{ ...TIERS[0], ...patch }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect((await getPrices(db(), asActor(user.tenant), product.productId)).prices).toEqual([]);
  });

  it('keeps amounts of 6 and more decimals exactly as written, through REST and the sync wire', async () => {
    const { user, product } = await setup();
    const prices = [
      { type: 'net_list', amount: '21.157010', currency: 'EUR', lowerBound: '1' },
      { type: 'net_list', amount: '0,0012345', currency: 'EUR', lowerBound: '1000' },
      { type: 'nrp', amount: '11.899999999999999', currency: 'EUR' },
    ];
    const res = await post(user.cookie, { departmentId: user.departmentId, productId: product.productId, prices });
    expect(res.status, res.text).toBe(200);
    expect(res.json.price).toBe('21.157010');
    expect(res.json.prices.map((p: { amount: string }) => p.amount)).toEqual([
      '21.157010',
      '0.0012345',
      '11.899999999999999',
    ]);
    const [aggregate] = await loadProductAggregates(db(), user.tenant.companyId, [product.productId]);
    const wired = productSchema.shape.prices.parse(syncPriceList(aggregate!.prices ?? [], aggregate!.product.price));
    expect(wired!.map((p) => p.amount)).toEqual(['21.157010', '0.0012345', '11.899999999999999']);
  });

  it('keeps a price on request without amount beside priced tiers and a udp_ type with underscores', async () => {
    const { user, product } = await setup();
    const res = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [
        { type: 'net_list', amount: '10.00', currency: 'EUR' },
        { type: 'on_request', currency: 'EUR', lowerBound: '500' },
        { type: 'udp_my_list_2', amount: '8.5', currency: 'EUR' },
        { type: 'udp_customer_specific_list', amount: '7', currency: 'EUR' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.prices.map((p: { type: string; amount: string | null }) => [p.type, p.amount])).toEqual([
      ['net_list', '10.00'],
      ['on_request', null],
      ['udp_my_list_2', '8.5'],
      ['udp_customer_specific_list', '7'],
    ]);
    const rows = await db().select().from(productPrices).where(eq(productPrices.productId, product.productId));
    expect(rows.find((r) => r.position === 1)!.amount).toBeNull();
    // The price stays the default row's, not the on-request row's absent amount.
    expect((await getPrices(db(), asActor(user.tenant), product.productId)).price).toBe('10.00');
  });

  it('answers 404 for a product of another company', async () => {
    const { product } = await setup();
    const other = await makeSession();
    const res = await post(other.cookie, {
      departmentId: other.departmentId,
      productId: product.productId,
      prices: TIERS,
    });
    expect(res.status).toBe(404);
    const read = await send('GET', `/api/Catalog/GetPrices?productId=${product.productId}`, { cookie: other.cookie });
    expect(read.status).toBe(404);
  });

  it('changes the sync fingerprint in the same batch, exactly as a fresh computation', async () => {
    const { user, product } = await setup();
    const before = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    await setPrices(db(), asActor(user.tenant), {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: TIERS,
    });
    const after = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    expect(after!.fingerprint).not.toBe(before!.fingerprint);
    expect(after!.fingerprintRevision).toBe(after!.revision);
    const fresh = await fingerprintsOf(
      db(),
      user.companyId,
      await loadProductAggregates(db(), user.companyId, [product.productId]),
    );
    expect(fresh.get(product.productId)).toBe(after!.fingerprint);
  });

  it('records the change in the history and a restore brings the old list back', async () => {
    const { user, product } = await setup();
    const tenant = asActor(user.tenant);
    await setPrices(db(), tenant, { departmentId: user.departmentId, productId: product.productId, prices: TIERS });
    const history = await send('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`, {
      cookie: user.cookie,
    });
    const [change, creation] = history.json.items;
    expect(change.changes.map((c: { path: string }) => c.path).sort()).toEqual(['price', 'prices']);
    await setPrices(db(), tenant, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [{ type: 'net_customer', amount: '5.00', currency: 'CHF' }],
    });
    const restored = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: user.cookie,
      json: { departmentId: user.departmentId, elementId: product.productId, versionId: change.versionId },
    });
    expect(restored.status, restored.text).toBe(200);
    const back = await getPrices(db(), tenant, product.productId);
    expect(back.price).toBe('10.00');
    expect(back.prices.map((p) => `${p.type}:${p.amount}`)).toEqual([
      'net_list:10.00',
      'net_list:9.50',
      'net_list:9.00',
      'nrp:14.99',
    ]);
    const toCreation = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: user.cookie,
      json: { departmentId: user.departmentId, elementId: product.productId, versionId: creation.versionId },
    });
    expect(toCreation.status, toCreation.text).toBe(200);
    expect(await getPrices(db(), tenant, product.productId)).toEqual({
      productId: product.productId,
      price: '7.00',
      prices: [],
    });
  });

  it('MCP: set_prices replaces the list, get_product shows it, and an empty list needs clear', async () => {
    const user = await makeAgentUser();
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId, { sku: 'MCP-P' });
    const token = await tokensFor(user, { scope: 'mcp', clientName: 'Price Bot' });
    const { sessionId } = await openSession(token.access_token);
    const set = await callTool(token.access_token, sessionId, 'set_prices', {
      productId: product.productId,
      prices: TIERS.slice(0, 2),
    });
    expect(set.isError, JSON.stringify(set)).toBeFalsy();
    expect(set.structuredContent.price).toBe('10.00');
    const read = await callTool(token.access_token, sessionId, 'get_product', { productId: product.productId });
    expect(read.structuredContent.prices.map((p: { lowerBound: string }) => p.lowerBound)).toEqual(['1', '10']);
    const empty = await callTool(token.access_token, sessionId, 'set_prices', {
      productId: product.productId,
      prices: [],
    });
    expect(empty.isError).toBe(true);
    expect(JSON.stringify(empty.content)).toMatch(/clear: true/);
    expect((await getPrices(db(), asActor(user), product.productId)).prices).toHaveLength(2);
  });
});
