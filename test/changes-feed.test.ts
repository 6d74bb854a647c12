import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteProduct, updateProduct } from '../src/catalog/products';
import { changeFeed, historyVersions } from '../src/db/schema';
import { encodeJsonCursor } from '../src/kernel/pagination';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { callTool, openSession } from './mcp-helpers';
import { makeAgentUser, send, tokensFor } from './oauth-helpers';

async function changes(cookie: string, query = '') {
  return call('GET', `/api/Changes/GetChanges${query ? `?${query}` : ''}`, { cookie });
}

/** Every item of the feed after `since`, page by page with `limit`. */
async function drain(cookie: string, since: string | undefined, limit: number) {
  const items: any[] = [];
  let cursor = since;
  for (let page = 0; page < 50; page++) {
    const res = await changes(
      cookie,
      new URLSearchParams({ ...(cursor ? { since: cursor } : {}), limit: String(limit) }).toString(),
    );
    expect(res.status, res.text).toBe(200);
    items.push(...res.json.items);
    cursor = res.json.cursor;
    if (!res.json.hasMore) return { items, cursor: cursor! };
  }
  throw new Error('feed did not end');
}

describe('Changes/GetChanges: the changes feed', () => {
  it('answers every change in commit order, deletes included, and resumes from its cursor', async () => {
    const user = await makeSession();
    const actor = asActor(user.tenant);
    const catalog = await makeCatalog(user.tenant);
    const a = await makeProduct(user.tenant, catalog.catalogId, { name: 'Alpha', sku: 'CF-A' });
    const b = await makeProduct(user.tenant, catalog.catalogId, { name: 'Beta', sku: 'CF-B' });
    await updateProduct(db(), actor, {
      departmentId: user.departmentId,
      catalogId: catalog.catalogId,
      productId: a.productId,
      name: 'Alpha 2',
    });

    const first = await drain(user.cookie, undefined, 2);
    expect(first.items.map((i) => [i.elementId, i.action])).toEqual([
      [catalog.catalogId, 'create'],
      [a.productId, 'create'],
      [b.productId, 'create'],
      [a.productId, 'update'],
    ]);
    const update = first.items[3];
    expect(update).toMatchObject({
      elementKind: 'product',
      surface: 'web',
      userId: user.userId,
      fields: ['name'],
      languages: [],
    });
    expect(update.changes).toEqual([{ path: 'name', before: 'Alpha', after: 'Alpha 2' }]);

    // nothing new: the same cursor comes back, no items
    const idle = await changes(user.cookie, `since=${first.cursor}`);
    expect(idle.json).toEqual({ items: [], cursor: first.cursor, hasMore: false });

    await deleteProduct({ db: db(), files: env.FILES }, actor, {
      departmentId: user.departmentId,
      productId: b.productId,
    });
    const next = await drain(user.cookie, first.cursor, 10);
    expect(next.items.map((i) => [i.elementId, i.action, i.elementKind])).toEqual([[b.productId, 'delete', 'product']]);
    expect(next.items[0].changes).toContainEqual({ path: 'sku', before: 'CF-B', after: null });

    // each item's cursor resumes right after it
    const fromSecond = await drain(user.cookie, first.items[1].cursor, 100);
    expect(fromSecond.items.map((i) => i.changeId)).toEqual(
      [...first.items.slice(2), ...next.items].map((i) => i.changeId),
    );
  });

  it('orders by commit, not by version id: a version committed later with an older id is still not missed', async () => {
    const user = await makeSession();
    const catalog = await makeCatalog(user.tenant);
    const seen = await drain(user.cookie, undefined, 100);
    expect(seen.items).toHaveLength(1);
    // a writer that made its UUIDv7 before the catalog's but committed after it
    const lateId = '00000000-0000-7000-8000-000000000001';
    await db()
      .insert(historyVersions)
      .values({
        id: lateId,
        companyId: user.companyId,
        elementId: catalog.catalogId,
        elementKind: 'catalog',
        action: 'update',
        userId: user.userId,
        surface: 'web',
        changes: JSON.stringify([
          ['name@eng', null, 'Late'],
          ['description', null, 'x'],
        ]),
      });
    const after = await drain(user.cookie, seen.cursor, 100);
    expect(after.items.map((i) => i.changeId)).toEqual([lateId]);
    expect(after.items[0]).toMatchObject({ fields: ['description', 'name'], languages: ['eng'] });
    // retention deletes a version: the feed skips its row
    expect(await db().select().from(changeFeed).where(eq(changeFeed.versionId, lateId))).toHaveLength(1);
    await db().delete(historyVersions).where(eq(historyVersions.id, lateId));
    expect((await drain(user.cookie, seen.cursor, 100)).items).toEqual([]);
  });

  it('keeps companies apart: no change of another company, and its cursor is refused with 400', async () => {
    const one = await makeSession();
    const two = await makeSession();
    await makeCatalog(one.tenant, { name: 'One' });
    await makeCatalog(two.tenant, { name: 'Two' });
    const pageOne = await drain(one.cookie, undefined, 100);
    const pageTwo = await drain(two.cookie, undefined, 100);
    expect(pageOne.items.every((i) => i.changes.some((c: any) => c.after === 'One'))).toBe(true);
    expect(pageTwo.items.every((i) => i.changes.some((c: any) => c.after === 'Two'))).toBe(true);
    const foreign = await changes(two.cookie, `since=${pageOne.cursor}`);
    expect(foreign.status).toBe(400);
    expect(foreign.json.error).toMatch(/another company/);
  });

  it('refuses a malformed cursor and a limit out of bounds with 400', async () => {
    const user = await makeSession();
    for (const query of [
      'since=not-a-cursor!!',
      `since=${encodeJsonCursor({ c: user.companyId, s: -1 })}`,
      `since=${encodeJsonCursor({ c: user.companyId, s: 'x' })}`,
      `since=${encodeJsonCursor([1, 2])}`,
      'limit=0',
      'limit=1001',
      'limit=abc',
      'unknown=1',
    ]) {
      const res = await changes(user.cookie, query);
      expect(res.status, query).toBe(400);
      expect(res.json.error, query).toEqual(expect.any(String));
    }
    expect((await changes(user.cookie, 'limit=1000')).status).toBe(200);
    expect((await call('GET', '/api/Changes/GetChanges')).status).toBe(401);
  });

  it('is the same feed on /api/ai and as the MCP tool get_changes', async () => {
    const user = await makeAgentUser();
    const catalog = await makeCatalog(user);
    await makeProduct(user, catalog.catalogId, { name: 'Agent product' });
    const rest = await changes(user.session, 'limit=10');
    const api = await tokensFor(user, { scope: 'api' });
    const ai = await send('GET', '/api/ai/GetChanges?limit=10', { token: api.access_token });
    expect(ai.status, ai.text).toBe(200);
    expect(ai.json).toEqual(rest.json);
    const mcp = await tokensFor(user, { scope: 'mcp' });
    const { sessionId } = await openSession(mcp.access_token);
    const tool = await callTool(mcp.access_token, sessionId, 'get_changes', { limit: 10 });
    expect(tool.isError, JSON.stringify(tool)).toBeFalsy();
    expect(tool.structuredContent).toEqual(rest.json);
    const bad = await callTool(mcp.access_token, sessionId, 'get_changes', { since: 'garbage!' });
    expect(bad.isError).toBe(true);
  });
});
