import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { productReferences, products } from '../src/db/schema';
import { fingerprintsOf } from '../src/records/sync-record';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { db, makeCatalog, makeProduct } from './helpers/factories';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';
import { callTool, openSession } from './mcp-helpers';

type User = Awaited<ReturnType<typeof makeAgentUser>>;

async function setup() {
  const user = await makeAgentUser();
  const catalog = await makeCatalog(user);
  const source = await makeProduct(user, catalog.catalogId, { sku: 'SRC-1', name: 'Drill' });
  const bit = await makeProduct(user, catalog.catalogId, { sku: 'BIT-1', name: 'Bit' });
  return { user, catalog, source, bit };
}

function setRefs(user: User, productId: string, references: unknown[], extra: Record<string, unknown> = {}) {
  return send('POST', '/api/Catalog/SetReferences', {
    cookie: user.session,
    json: { departmentId: user.departmentId, productId, references, ...extra },
  });
}

const getRefs = (user: User, productId: string) =>
  send('GET', `/api/Catalog/GetReferences?productId=${productId}`, { cookie: user.session });

async function storedFingerprint(productId: string) {
  return (await db().query.products.findFirst({ where: eq(products.id, productId) }))!.fingerprint;
}

describe('Product references', () => {
  it('sets outgoing references in order, shows them incoming on the target, and keeps an unknown SKU pending', async () => {
    const { user, source, bit } = await setup();
    const res = await setRefs(user, source.productId, [
      { type: 'accessories', targetSku: 'BIT-1', quantity: 2 },
      { type: 'sparepart', targetSku: 'MOTOR-9' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.json.outgoing).toEqual([
      {
        position: 0,
        type: 'accessories',
        targetSku: 'BIT-1',
        targetKind: 'sku',
        quantity: 2,
        descr: null,
        targetCatalog: null,
        targetCatalogVersion: null,
        targetProductId: bit.productId,
        targetName: 'Bit',
        pending: false,
      },
      {
        position: 1,
        type: 'sparepart',
        targetSku: 'MOTOR-9',
        targetKind: 'sku',
        quantity: null,
        descr: null,
        targetCatalog: null,
        targetCatalogVersion: null,
        targetProductId: null,
        targetName: null,
        pending: true,
      },
    ]);
    const incoming = await getRefs(user, bit.productId);
    expect(incoming.status, incoming.text).toBe(200);
    expect(incoming.json.incoming).toEqual([
      { productId: source.productId, sku: 'SRC-1', name: 'Drill', type: 'accessories', quantity: 2 },
    ]);
    expect(incoming.json.outgoing).toEqual([]);
  });

  it('answers 400 naming the field for an unknown type, a self-reference, a quantity of 0 and an accidental empty list, and writes nothing', async () => {
    const { user, source } = await setup();
    const cases: [unknown[], Record<string, unknown>, RegExp][] = [
      [[{ type: 'cousin', targetSku: 'BIT-1' }], {}, /references.*type/],
      [[{ type: 'similar', targetSku: 'SRC-1' }], {}, /references\[0\]\.targetSku: a product cannot reference itself/],
      [[{ type: 'similar', targetSku: 'BIT-1', quantity: 0 }], {}, /references.*quantity/],
      [[], {}, /references: an empty list removes every reference/],
      [
        [
          { type: 'similar', targetSku: 'BIT-1' },
          { type: 'similar', targetSku: 'BIT-1' },
        ],
        {},
        /references\[1\]: the similar reference to BIT-1 is listed twice/,
      ],
    ];
    for (const [references, extra, message] of cases) {
      const res = await setRefs(user, source.productId, references, extra);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatch(message);
    }
    const rows = await db().select().from(productReferences).where(eq(productReferences.productId, source.productId));
    expect(rows).toEqual([]);
  });

  it('clears the list only with clear: true, and 404s for a product of another company', async () => {
    const { user, source } = await setup();
    expect((await setRefs(user, source.productId, [{ type: 'similar', targetSku: 'BIT-1' }])).status).toBe(200);
    const cleared = await setRefs(user, source.productId, [], { clear: true });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.outgoing).toEqual([]);
    const stranger = await makeAgentUser();
    const foreign = await send('GET', `/api/Catalog/GetReferences?productId=${source.productId}`, {
      cookie: stranger.session,
    });
    expect(foreign.status).toBe(404);
    const write = await setRefs(stranger, source.productId, [{ type: 'similar', targetSku: 'X' }]);
    expect(write.status).toBe(404);
  });

  it('resolves a pending reference when the target is added, falls back to pending when it is deleted, and follows a SKU change', async () => {
    const { user, catalog, source } = await setup();
    await setRefs(user, source.productId, [{ type: 'followup', targetSku: 'NEW-1' }]);
    const fingerprint = await storedFingerprint(source.productId);
    const target = await makeProduct(user, catalog.catalogId, { sku: 'NEW-1' });
    let refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing[0]).toMatchObject({ targetProductId: target.productId, pending: false });
    // The record is by SKU: the resolution does not change the source's fingerprint.
    expect(await storedFingerprint(source.productId)).toBe(fingerprint);

    const renamed = await send('POST', '/api/Catalog/SetValue', {
      cookie: user.session,
      json: { departmentId: user.departmentId, elementId: target.productId, field: 'sku', value: 'NEW-2' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing[0]).toMatchObject({ targetSku: 'NEW-1', targetProductId: null, pending: true });
    const back = await send('POST', '/api/Catalog/SetValue', {
      cookie: user.session,
      json: { departmentId: user.departmentId, elementId: target.productId, field: 'sku', value: 'NEW-1' },
    });
    expect(back.status, back.text).toBe(200);
    refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing[0]).toMatchObject({ targetProductId: target.productId, pending: false });

    const deleted = await send('POST', '/api/Catalog/DeleteProduct', {
      cookie: user.session,
      json: { departmentId: user.departmentId, productId: target.productId },
    });
    expect(deleted.status, deleted.text).toBe(200);
    refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing).toEqual([
      expect.objectContaining({ targetSku: 'NEW-1', targetProductId: null, pending: true }),
    ]);
  });

  it('resolves pending references when the target arrives by UpsertProducts, and writes references given there', async () => {
    const { user, catalog, source } = await setup();
    await setRefs(user, source.productId, [{ type: 'mandatory', targetSku: 'UP-1', quantity: 3 }]);
    const res = await send('POST', '/api/Catalog/UpsertProducts', {
      cookie: user.session,
      json: {
        departmentId: user.departmentId,
        catalogId: catalog.catalogId,
        items: [
          { sku: 'UP-1', name: 'Upserted', references: [{ type: 'consists_of', targetSku: 'UP-2', quantity: 4 }] },
          { sku: 'UP-2', name: 'Part' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const [up1, up2] = res.json.items.map((i: { productId: string }) => i.productId);
    const refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing[0]).toMatchObject({ targetSku: 'UP-1', targetProductId: up1, quantity: 3 });
    const own = await getRefs(user, up1);
    expect(own.json.outgoing).toEqual([
      expect.objectContaining({ type: 'consists_of', targetSku: 'UP-2', quantity: 4, targetProductId: up2 }),
    ]);
    expect(own.json.incoming).toEqual([expect.objectContaining({ productId: source.productId, type: 'mandatory' })]);
    // The fingerprint stored by the upsert is the one a fresh computation gives.
    const [aggregate] = await loadProductAggregates(db(), user.companyId, [up1]);
    const fresh = await fingerprintsOf(db(), user.companyId, [aggregate!]);
    expect(await storedFingerprint(up1)).toBe(fresh.get(up1));
  });

  it('changes the fingerprint to the fresh computation in the same write, records history, and restores a version', async () => {
    const { user, source } = await setup();
    const before = await storedFingerprint(source.productId);
    await setRefs(user, source.productId, [{ type: 'similar', targetSku: 'BIT-1' }]);
    const after = await storedFingerprint(source.productId);
    expect(after).not.toBe(before);
    const [aggregate] = await loadProductAggregates(db(), user.companyId, [source.productId]);
    expect(aggregate!.references).toEqual([
      expect.objectContaining({ type: 'similar', targetSku: 'BIT-1', quantity: null }),
    ]);
    const fresh = await fingerprintsOf(db(), user.companyId, [aggregate!]);
    expect(after).toBe(fresh.get(source.productId));

    await setRefs(user, source.productId, [{ type: 'others', targetSku: 'ZZ-1', quantity: 5 }]);
    const history = await send('GET', `/api/Catalog/GetHistory?elementId=${source.productId}`, {
      cookie: user.session,
    });
    expect(history.status, history.text).toBe(200);
    const [latest, first] = history.json.items;
    expect(latest.changes).toEqual([
      {
        path: 'references',
        before: [{ type: 'similar', targetSku: 'BIT-1', quantity: null }],
        after: [{ type: 'others', targetSku: 'ZZ-1', quantity: 5 }],
      },
    ]);
    const restored = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: user.session,
      json: { departmentId: user.departmentId, elementId: source.productId, versionId: first.versionId },
    });
    expect(restored.status, restored.text).toBe(200);
    const refs = await getRefs(user, source.productId);
    expect(refs.json.outgoing).toEqual([
      expect.objectContaining({ type: 'similar', targetSku: 'BIT-1', pending: false }),
    ]);
  });

  it('sets references through the MCP tool set_references and shows both directions in get_product', async () => {
    const { user, source, bit } = await setup();
    const token = (await tokensFor(user, { scope: 'mcp', clientName: 'Ref Agent' })).access_token;
    const { sessionId } = await openSession(token);
    const set = await callTool(token, sessionId, 'set_references', {
      departmentId: user.departmentId,
      productId: source.productId,
      references: [{ type: 'select', targetSku: 'BIT-1', quantity: 6 }],
    });
    expect(set.isError, JSON.stringify(set)).toBeFalsy();
    expect(set.structuredContent.outgoing).toEqual([
      expect.objectContaining({ type: 'select', targetProductId: bit.productId, quantity: 6, pending: false }),
    ]);
    const read = await callTool(token, sessionId, 'get_product', { productId: bit.productId });
    expect(read.isError, JSON.stringify(read)).toBeFalsy();
    expect(read.structuredContent.references.incoming).toEqual([
      expect.objectContaining({ productId: source.productId, type: 'select', quantity: 6 }),
    ]);
    const refused = await callTool(token, sessionId, 'set_references', {
      departmentId: user.departmentId,
      productId: source.productId,
      references: [],
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused)).toContain('clear');
  });
});
