import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { getProduct } from '../src/catalog/product-queries';
import { historyVersions, media, products } from '../src/db/schema';
import { attachMedia, deleteMedia, reorderMedia } from '../src/media/media';
import { asActor, db, makeAttribute, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { callTool, openSession } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

const MCB = {
  name: 'MCB B16',
  classificationGroups: 1,
  classes: [{ group: 'ETIM', code: 'EC000042' }],
  features: [{ code: 'EF000008', value: '230' }],
};

async function history(cookie: string, elementId: string, query = '') {
  return send('GET', `/api/Catalog/GetHistory?elementId=${elementId}${query}`, { cookie });
}

async function rowCount(elementId: string) {
  return (await db().select().from(historyVersions).where(eq(historyVersions.elementId, elementId))).length;
}

describe('Change history across surfaces', () => {
  it('records a web, an /api/ai and an MCP change with user, surface, client and exact before/after; a restore brings the first state back', async () => {
    const user = await makeAgentUser({ aiSwitch: true });
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId, { name: 'Original', sku: 'H-1' });
    const created = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    const api = await tokensFor(user, { scope: 'api', clientName: 'Agent Smith' });
    const mcpToken = await tokensFor(user, { scope: 'mcp', clientName: 'Desk Copilot' });

    const web = await send('POST', '/api/Catalog/SetValue', {
      cookie: user.session,
      json: { departmentId: user.departmentId, elementId: product.productId, field: 'name', value: 'Web name' },
    });
    expect(web.status, web.text).toBe(200);
    const ai = await send('POST', '/api/ai/CreateClassification', {
      token: api.access_token,
      json: { ...MCB, elementId: product.productId },
    });
    expect(ai.status, ai.text).toBe(200);
    const { sessionId } = await openSession(mcpToken.access_token);
    const tool = await callTool(mcpToken.access_token, sessionId, 'update_classification', {
      linkId: ai.json.linkId,
      features: [{ code: 'EF000008', value: '400' }],
    });
    expect(tool.isError, JSON.stringify(tool)).toBeFalsy();

    const page = await history(user.session, product.productId);
    expect(page.status, page.text).toBe(200);
    const [viaMcp, viaAi, viaWeb, creation] = page.json.items;
    expect(page.json.items).toHaveLength(4);
    expect(viaMcp).toMatchObject({
      action: 'update',
      surface: 'mcp',
      clientName: 'Desk Copilot',
      user: { userId: user.userId, name: 'Test User' },
    });
    expect(viaMcp.changes).toEqual([{ path: 'classification.feature.ETIM.EF000008', before: '230', after: '400' }]);
    expect(viaAi).toMatchObject({
      action: 'update',
      surface: 'agent',
      clientName: 'Agent Smith',
      user: { userId: user.userId },
    });
    expect(viaAi.changes).toEqual([
      { path: 'classification.class.ETIM', before: null, after: 'EC000042' },
      { path: 'classification.feature.ETIM.EF000008', before: null, after: '230' },
      { path: 'classification.groups', before: null, after: 1 },
      { path: 'classification.name', before: null, after: 'MCB B16' },
    ]);
    expect(viaWeb).toMatchObject({
      action: 'update',
      surface: 'web',
      user: { userId: user.userId, name: 'Test User' },
    });
    expect(viaWeb.clientName).toBeUndefined();
    expect(viaWeb.changes).toEqual([{ path: 'name', before: 'Original', after: 'Web name' }]);
    expect(creation).toMatchObject({ action: 'create', elementKind: 'product' });
    expect(creation.changes).toContainEqual({ path: 'sku', before: null, after: 'H-1' });
    expect(Date.parse(viaMcp.at)).toBeGreaterThanOrEqual(Date.parse(creation.at));

    // The agent surface and the MCP tool read the same history.
    const aiRead = await send('GET', `/api/ai/GetHistory?elementId=${product.productId}&limit=1`, {
      token: api.access_token,
    });
    expect(aiRead.json.items[0].versionId).toBe(viaMcp.versionId);
    expect(aiRead.json.nextCursor).toBeTruthy();
    const toolRead = await callTool(mcpToken.access_token, sessionId, 'get_history', {
      elementId: product.productId,
      limit: 2,
    });
    expect(toolRead.structuredContent.items.map((i: any) => i.versionId)).toEqual([viaMcp.versionId, viaAi.versionId]);

    const restored = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: user.session,
      json: { departmentId: user.departmentId, elementId: product.productId, versionId: creation.versionId },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.skipped).toEqual([]);
    const after = await getProduct(db(), asActor(user), product.productId);
    expect(after.name).toBe('Original');
    expect(after.classification).toBeNull();
    const top = (await history(user.session, product.productId)).json.items[0];
    expect(top).toMatchObject({ versionId: restored.json.versionId, action: 'restore', surface: 'web' });
    expect(top.changes).toContainEqual({ path: 'name', before: 'Web name', after: 'Original' });
    expect(top.changes).toContainEqual({ path: 'classification.class.ETIM', before: 'EC000042', after: null });
    // The fingerprint is current and equals the one of the first state.
    const row = await db().query.products.findFirst({ where: eq(products.id, product.productId) });
    expect(row!.fingerprintRevision).toBe(row!.revision);
    expect(row!.fingerprint).toBe(created!.fingerprint);
  });

  it('restores the order of the files the product still has; a deleted file and a later upload are listed in skipped', async () => {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const product = await makeProduct(s, catalog.catalogId, { name: 'With files' });
    const deps = { db: db(), files: env.FILES };
    const attach = async (fileName: string) =>
      (
        await attachMedia(deps, s, {
          departmentId: s.departmentId,
          elementId: product.productId,
          fileName,
          purpose: 'normal',
          contentType: 'image/jpeg',
          bytes: new Uint8Array([255, 216, 255, fileName.charCodeAt(0)]),
        })
      ).mediaId;
    const a = await attach('a.jpg');
    const b = await attach('b.jpg');
    const c = await attach('c.jpg');
    const order = async () =>
      (
        await db()
          .select({ id: media.id, sortOrder: media.sortOrder })
          .from(media)
          .where(eq(media.elementId, product.productId))
          .orderBy(asc(media.sortOrder), asc(media.id))
      ).map((m) => [m.id, m.sortOrder]);
    const before = await order();
    const point = (await history(s.cookie, product.productId)).json.items[0];

    await reorderMedia(db(), s, { departmentId: s.departmentId, elementId: product.productId, mediaIds: [c, b, a] });
    await deleteMedia(deps, s, { departmentId: s.departmentId, mediaId: c });
    const d = await attach('d.jpg');
    expect(await order()).not.toEqual(before);

    const res = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: s.cookie,
      json: { departmentId: s.departmentId, elementId: product.productId, versionId: point.versionId },
    });
    expect(res.status, res.text).toBe(200);
    const after = await order();
    expect(after.filter(([id]) => id !== d)).toEqual(before.filter(([id]) => id !== c));
    expect(after.map(([id]) => id)).toContain(d);
    expect(res.json.skipped).toEqual(
      expect.arrayContaining([
        {
          elementId: product.productId,
          path: `media.${c}`,
          reason: expect.stringContaining('deleted after this version'),
        },
        {
          elementId: product.productId,
          path: `media.${d}`,
          reason: expect.stringContaining('uploaded after this version'),
        },
      ]),
    );
    expect(res.json.skipped).toHaveLength(2);
    const top = (await history(s.cookie, product.productId)).json.items[0];
    expect(top).toMatchObject({ versionId: res.json.versionId, action: 'restore' });
    // a went from first to last (c, b, a) and comes back first; b kept its place in between.
    const moved = top.changes.filter((ch: { path: string }) => ch.path.startsWith('media.'));
    expect(moved).toEqual([
      {
        path: `media.${a}`,
        before: expect.objectContaining({ fileName: 'a.jpg', sortOrder: 2 }),
        after: expect.objectContaining({ fileName: 'a.jpg', sortOrder: 0 }),
      },
    ]);
  });

  it('restores a master with its variants and values as they were after a version', async () => {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const attr = await makeAttribute(s, { type: 'number', unit: 'KGM' });
    const master = await makeProduct(s, catalog.catalogId, { name: 'Master' });
    const keep = await makeProduct(s, catalog.catalogId, { parentId: master.productId, name: 'Variant A' });
    const point = (await history(s.cookie, master.productId)).json.items[0];
    expect(point.changes).toEqual([{ path: 'variants', before: null, after: [keep.productId] }]);
    const set = (elementId: string, field: string, value: string) =>
      send('POST', '/api/Catalog/SetValue', {
        cookie: s.cookie,
        json: { departmentId: s.departmentId, elementId, field, value },
      });
    expect((await set(keep.productId, 'name', 'Variant A renamed')).status).toBe(200);
    expect((await set(master.productId, attr.code, '1,5')).status).toBe(200);
    const extra = await makeProduct(s, catalog.catalogId, { parentId: master.productId, name: 'Variant B' });

    const res = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: s.cookie,
      json: { departmentId: s.departmentId, elementId: master.productId, versionId: point.versionId },
    });
    expect(res.status, res.text).toBe(200);
    const now = await getProduct(db(), s, master.productId);
    expect(now.values).toEqual([]);
    expect(now.variants.map((v: any) => [v.productId, v.name])).toEqual([[keep.productId, 'Variant A']]);
    expect((await history(s.cookie, extra.productId)).json.items[0]).toMatchObject({
      action: 'restore',
      changes: expect.arrayContaining([{ path: 'name', before: 'Variant B', after: null }]),
    });
    expect((await history(s.cookie, keep.productId)).json.items[0].changes).toEqual([
      { path: 'name', before: 'Variant A renamed', after: 'Variant A' },
    ]);
  });

  it('records nothing for failed writes', async () => {
    const s = await makeSession();
    const catalog = await makeCatalog(s);
    const product = await makeProduct(s, catalog.catalogId, { sku: 'TAKEN-1' });
    const before = await rowCount(product.productId);
    const bad = await send('POST', '/api/Catalog/SetValue', {
      cookie: s.cookie,
      json: { departmentId: s.departmentId, elementId: product.productId, field: 'price', value: 'twelve' },
    });
    expect(bad.status).toBe(400);
    const clash = await send('POST', '/api/Catalog/UpdateProduct', {
      cookie: s.cookie,
      json: {
        departmentId: s.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'x',
        categoryIds: ['0190a000-0000-7000-8000-00000000dead'],
      },
    });
    expect(clash.status).toBe(404);
    const dup = await send('POST', '/api/Catalog/AddCatalog', {
      cookie: s.cookie,
      json: { departmentId: s.departmentId, catalogId: catalog.catalogId, name: 'Again' },
    });
    expect(dup.status).toBe(400); // a taken id answers as any unusable id (docs/reliability.md)
    expect(await rowCount(product.productId)).toBe(before);
    expect(await rowCount(catalog.catalogId)).toBe(1);
    // A batch that fails in the database (duplicate SKU) rolls its history entry back too.
    const other = await makeProduct(s, catalog.catalogId, { sku: 'FREE-1' });
    const count = await rowCount(other.productId);
    const race = await send('POST', '/api/Catalog/SetValue', {
      cookie: s.cookie,
      json: { departmentId: s.departmentId, elementId: other.productId, field: 'sku', value: 'TAKEN-1' },
    });
    expect(race.status).toBe(409);
    expect(await rowCount(other.productId)).toBe(count);
    // A write that changes nothing records no version.
    expect(
      (
        await send('POST', '/api/Catalog/SetValue', {
          cookie: s.cookie,
          json: { departmentId: s.departmentId, elementId: other.productId, field: 'sku', value: 'FREE-1' },
        })
      ).status,
    ).toBe(200);
    expect(await rowCount(other.productId)).toBe(count);
  });

  it('keeps tenants apart and validates its input', async () => {
    const mine = await makeSession();
    const theirs = await makeSession();
    const product = await makeProduct(mine, (await makeCatalog(mine)).catalogId);
    const version = (await history(mine.cookie, product.productId)).json.items[0].versionId;
    expect((await history(theirs.cookie, product.productId)).status).toBe(404);
    expect((await history(theirs.cookie, product.productId)).json).toEqual({
      error: 'element not found',
      code: 'not_found',
    });
    const foreign = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: theirs.cookie,
      json: { departmentId: theirs.departmentId, elementId: product.productId, versionId: version },
    });
    expect(foreign.status).toBe(404);
    const otherDept = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: mine.cookie,
      json: { departmentId: theirs.departmentId, elementId: product.productId, versionId: version },
    });
    expect(otherDept.status).toBe(403);
    const wrongElement = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: mine.cookie,
      json: { departmentId: mine.departmentId, elementId: (await makeCatalog(mine)).catalogId, versionId: version },
    });
    expect(wrongElement.json).toEqual({ error: 'version not found', code: 'not_found' });
    expect((await history(mine.cookie, 'not-a-uuid')).status).toBe(400);
    expect((await history(mine.cookie, product.productId, '&cursor=%25%25')).status).toBe(400);
    expect((await history(mine.cookie, product.productId, '&limit=0')).status).toBe(400);
    expect((await send('GET', `/api/Catalog/GetHistory?elementId=${product.productId}`)).status).toBe(401);
    const missing = await send('POST', '/api/Catalog/RestoreVersion', {
      cookie: mine.cookie,
      json: { departmentId: mine.departmentId, elementId: product.productId },
    });
    expect(missing.json.error).toBe('versionId is required');
  });
});
