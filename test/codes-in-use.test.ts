import { describe, expect, it } from 'vitest';
import { setFeatureBlocks } from '../src/catalog/feature-blocks/feature-blocks';
import { setPrices } from '../src/catalog/prices/prices';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** A catalog whose products use price types and feature systems, one of them only on a variant. */
async function catalogWithCodes(session: Session) {
  const { catalogId } = await makeCatalog(session.tenant);
  const actor = asActor(session.tenant);
  const departmentId = session.departmentId;
  const a = await makeProduct(session.tenant, catalogId, { sku: 'A' });
  const b = await makeProduct(session.tenant, catalogId, { sku: 'B' });
  const variant = await makeProduct(session.tenant, catalogId, { sku: 'B-1', parentId: b.productId });
  await setPrices(db(), actor, {
    departmentId,
    productId: a.productId,
    prices: [
      { type: 'net_list', amount: '1.00', currency: 'EUR' },
      { type: 'nrp', amount: '2.00', currency: 'EUR' },
    ],
  });
  await setPrices(db(), actor, {
    departmentId,
    productId: variant.productId,
    prices: [{ type: 'net_customer', amount: '1.50', currency: 'EUR' }],
  });
  const block = (system: string) => ({ system, features: [{ name: 'Farbe', values: ['rot'] }] });
  await setFeatureBlocks(db(), actor, {
    departmentId,
    productId: a.productId,
    featureBlocks: [block('UNSPSC'), block('udf_NMNG')],
  });
  await setFeatureBlocks(db(), actor, { departmentId, productId: b.productId, featureBlocks: [block('UNSPSC')] });
  return catalogId;
}

const get = (session: Session, query: Record<string, string | number>) =>
  call(
    'GET',
    `/api/Catalog/GetCodesInUse?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    {
      cookie: session.cookie,
    },
  );

describe('Catalog/GetCodesInUse', () => {
  it("lists a catalog's price types and feature systems once each, in code order, variants included", async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const prices = await get(session, { catalogId, list: 'priceTypes' });
    expect(prices.status, prices.text).toBe(200);
    expect(prices.json).toEqual({
      items: [{ code: 'net_customer' }, { code: 'net_list' }, { code: 'nrp' }],
      nextCursor: null,
    });
    const systems = await get(session, { catalogId, list: 'featureSystems' });
    expect(systems.json).toEqual({ items: [{ code: 'UNSPSC' }, { code: 'udf_NMNG' }], nextCursor: null });
  });

  it('pages by the code with limit and cursor', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const first = await get(session, { catalogId, list: 'priceTypes', limit: 2 });
    expect(first.json.items).toEqual([{ code: 'net_customer' }, { code: 'net_list' }]);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const next = await get(session, { catalogId, list: 'priceTypes', limit: 2, cursor: first.json.nextCursor });
    expect(next.json).toEqual({ items: [{ code: 'nrp' }], nextCursor: null });
  });

  it('answers an empty list for a catalog without any, and nothing of another catalog', async () => {
    const session = await makeSession();
    await catalogWithCodes(session);
    const { catalogId } = await makeCatalog(session.tenant);
    expect((await get(session, { catalogId, list: 'featureSystems' })).json).toEqual({ items: [], nextCursor: null });
  });

  it("answers 404 for another company's catalog and 400 for a bad list, limit or cursor", async () => {
    const session = await makeSession();
    const other = await makeSession();
    const foreign = await catalogWithCodes(other);
    const res = await get(session, { catalogId: foreign, list: 'priceTypes' });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: expect.any(String) });
    const { catalogId } = await makeCatalog(session.tenant);
    for (const [query, field] of [
      [{ catalogId, list: 'units' }, 'list'],
      [{ catalogId, list: 'priceTypes', limit: 501 }, 'limit'],
      [{ catalogId, list: 'priceTypes', limit: 0 }, 'limit'],
      [{ catalogId, list: 'priceTypes', cursor: '%%%' }, 'cursor'],
      [{ list: 'priceTypes' }, 'catalogId'],
    ] as const) {
      const bad = await get(session, query);
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.json.error).toContain(field);
    }
  });
});
