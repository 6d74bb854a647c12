import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getPrices, setPrices } from '../src/catalog/prices/prices';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { productPrices, products } from '../src/db/schema';
import { fingerprintsOf, syncRecord } from '../src/records/sync-record';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { callTool, openSession } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

/** A price's base (PRICE_BASE) through REST, the history, the sync record and MCP. */

const TIER_1 = { type: 'net_list', amount: '12.50', currency: 'EUR', lowerBound: '1' };
const TIER_10 = { type: 'net_list', amount: '11.00', currency: 'EUR', lowerBound: '10' };
const TIERS = [TIER_1, TIER_10];
const PER_100_M = { value: '100', unit: 'MTR', factor: '0,5' };

async function setup() {
  const user = await makeSession();
  const catalog = await makeCatalog(user.tenant);
  const product = await makeProduct(user.tenant, catalog.catalogId, { sku: 'BASE-1', price: '7.00' });
  return { user, product };
}

const post = (cookie: string, json: unknown) => send('POST', '/api/Catalog/SetPrices', { cookie, json });

describe('price base through REST', () => {
  it('sets and reads a base per price; a price without one reads base null', async () => {
    const { user, product } = await setup();
    const res = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [
        { ...TIER_1, base: PER_100_M },
        { ...TIER_10, base: { unit: 'KGM' } },
        { ...TIER_10, lowerBound: '100' },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.prices.map((p: { base: unknown }) => p.base)).toEqual([
      { value: '100', unit: 'MTR', factor: '0.5' },
      { value: null, unit: 'KGM', factor: null },
      null,
    ]);
    const read = await send('GET', `/api/Catalog/GetPrices?productId=${product.productId}`, { cookie: user.cookie });
    expect(read.json).toEqual(res.json);
    const detail = await send('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, { cookie: user.cookie });
    expect(detail.json.prices[0].base).toEqual({ value: '100', unit: 'MTR', factor: '0.5' });
    const rows = await db().select().from(productPrices).where(eq(productPrices.productId, product.productId));
    expect(rows.map((r) => [r.baseValue, r.baseUnit, r.baseFactor])).toEqual([
      ['100', 'MTR', '0.5'],
      [null, 'KGM', null],
      [null, null, null],
    ]);
  });

  it.each([
    [{ unit: 'Meter' }, 'prices.0.base.unit', /base\.unit must be a UN\/ECE Rec\. 20 unit code/],
    [{ value: '100' }, 'prices.0.base.unit', /base\.unit/],
    [{ unit: 'MTR', value: '0' }, 'prices.0.base.value', /base\.value must be greater than 0/],
    [{ unit: 'MTR', factor: 'viel' }, 'prices.0.base.factor', /base\.factor must be a non-negative amount/],
    [{ unit: 'MTR', per: '100' }, 'prices.0.base', /per/],
  ])('answers 400 for base %j naming %s, and writes nothing', async (base, field, message) => {
    const { user, product } = await setup();
    await setPrices(db(), asActor(user.tenant), {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: TIERS,
    });
    const before = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    const res = await post(user.cookie, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [{ ...TIER_1, amount: '99.00', base }],
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toMatch(message);
    expect(res.json.error).toContain(field);
    const after = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    expect(after!.revision).toBe(before!.revision);
    const read = await getPrices(db(), asActor(user.tenant), product.productId);
    expect(read.prices.map((p) => [p.amount, p.base])).toEqual([
      ['12.50', null],
      ['11.00', null],
    ]);
  });

  it('records the base in the history entry of the change, and a restore brings it back', async () => {
    const { user, product } = await setup();
    const tenant = asActor(user.tenant);
    await setPrices(db(), tenant, { departmentId: user.departmentId, productId: product.productId, prices: TIERS });
    await setPrices(db(), tenant, {
      departmentId: user.departmentId,
      productId: product.productId,
      prices: [{ ...TIER_1, base: { value: '100', unit: 'MTR', factor: '0.5' } }, TIER_10],
    });
    const history = await send('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`, {
      cookie: user.cookie,
    });
    const change = history.json.items[0];
    const prices = change.changes.find((c: { path: string }) => c.path === 'prices');
    expect(prices, JSON.stringify(change)).toBeDefined();
    expect(JSON.stringify(prices.before)).not.toContain('baseUnit');
    expect(prices.after[0]).toMatchObject({ baseValue: '100', baseUnit: 'MTR', baseFactor: '0.5' });
    expect(prices.after[1]).not.toHaveProperty('baseUnit');
    await setPrices(db(), tenant, { departmentId: user.departmentId, productId: product.productId, prices: TIERS });
    const restored = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: user.cookie,
      json: { departmentId: user.departmentId, elementId: product.productId, versionId: change.versionId },
    });
    expect(restored.status, restored.text).toBe(200);
    const back = await getPrices(db(), tenant, product.productId);
    expect(back.prices.map((p) => p.base)).toEqual([{ value: '100', unit: 'MTR', factor: '0.5' }, null]);
  });
});

describe('price base in the sync record', () => {
  it('changes the fingerprint when only the base changes; a list without bases carries no base key', async () => {
    const { user, product } = await setup();
    const tenant = asActor(user.tenant);
    const fingerprint = async () =>
      (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!.fingerprint;
    const set = (prices: unknown[]) =>
      setPrices(db(), tenant, {
        departmentId: user.departmentId,
        productId: product.productId,
        prices: prices as typeof TIERS,
      });
    await set(TIERS);
    const plain = await fingerprint();
    const [aggregate] = await loadProductAggregates(db(), user.companyId, [product.productId]);
    const record = syncRecord(aggregate!, { path: () => undefined, links: () => undefined });
    expect(record.prices).toHaveLength(2);
    expect(record.prices!.some((p) => 'base' in p)).toBe(false);

    await set([{ ...TIER_1, base: { unit: 'MTR', factor: '100' } }, TIER_10]);
    const withBase = await fingerprint();
    expect(withBase).not.toBe(plain);
    await set([{ ...TIER_1, base: { unit: 'MTR', factor: '50' } }, TIER_10]);
    const otherFactor = await fingerprint();
    expect(otherFactor).not.toBe(withBase);
    const fresh = await fingerprintsOf(
      db(),
      user.companyId,
      await loadProductAggregates(db(), user.companyId, [product.productId]),
    );
    expect(fresh.get(product.productId)).toBe(otherFactor);
    await set(TIERS);
    expect(await fingerprint()).toBe(plain);
  });
});

describe('price base through MCP', () => {
  it('set_prices takes a base and get_product shows it; a bad unit is an error that changes nothing', async () => {
    const user = await makeAgentUser();
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId, { sku: 'MCP-BASE' });
    const token = await tokensFor(user, { scope: 'mcp', clientName: 'Base Bot' });
    const { sessionId } = await openSession(token.access_token);
    const set = await callTool(token.access_token, sessionId, 'set_prices', {
      productId: product.productId,
      prices: [{ ...TIER_1, base: { value: '100', unit: 'MTR' } }],
    });
    expect(set.isError, JSON.stringify(set)).toBeFalsy();
    const read = await callTool(token.access_token, sessionId, 'get_product', { productId: product.productId });
    expect(read.structuredContent.prices[0].base).toEqual({ value: '100', unit: 'MTR', factor: null });
    const bad = await callTool(token.access_token, sessionId, 'set_prices', {
      productId: product.productId,
      prices: [{ ...TIER_1, base: { unit: 'metres' } }],
    });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/base\.unit/);
    const after = await getPrices(db(), asActor(user), product.productId);
    expect(after.prices[0]!.base).toEqual({ value: '100', unit: 'MTR', factor: null });
  });
});
