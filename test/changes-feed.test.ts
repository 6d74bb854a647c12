import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteProduct, updateProduct } from '../src/catalog/products';
import { changeFeed, historyVersions } from '../src/db/schema';
import { encodeJsonCursor } from '../src/kernel/pagination';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { post, shopSetup, waitForJob } from './helpers/completeness';
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
    // include=events on all three
    const restEvents = await changes(user.session, 'limit=10&include=events');
    expect(restEvents.status, restEvents.text).toBe(200);
    const aiEvents = await send('GET', '/api/ai/GetChanges?limit=10&include=events', { token: api.access_token });
    expect(aiEvents.json).toEqual(restEvents.json);
    const toolEvents = await callTool(mcp.access_token, sessionId, 'get_changes', { limit: 10, include: 'events' });
    expect(toolEvents.structuredContent).toEqual(restEvents.json);
    const badInclude = await send('GET', '/api/ai/GetChanges?include=all', { token: api.access_token });
    expect(badInclude.status).toBe(400);
  });
});

describe('Changes/GetChanges include=events: review and completeness events in the feed (migration 0069)', () => {
  it('answers the events as typed items in commit order with the changes, same cursor, without any webhook endpoint', async () => {
    const { admin, catalog } = await shopSetup();
    const product = await makeProduct(admin.tenant, catalog.catalogId, { sku: 'EV-1' });
    const added = await post(admin.cookie, '/api/Catalog/AddChannel', {
      name: 'Shop',
      languages: ['deu'],
      requirements: [{ kind: 'field', field: 'description', languages: ['deu'] }],
    });
    expect(added.status, added.text).toBe(200);
    expect((await waitForJob(admin.cookie, added.json.jobId)).state).toBe('succeeded');
    const start = (await drain(admin.cookie, undefined, 100)).cursor;

    const set = await post(admin.cookie, '/api/Catalog/SetValue', {
      departmentId: admin.departmentId,
      elementId: product.productId,
      field: 'description',
      value: 'Beschreibung',
    });
    expect(set.status, set.text).toBe(200);
    const review = await post(admin.cookie, '/api/Catalog/SetChannelReview', {
      channelId: added.json.channelId,
      enabled: true,
      rule: { kind: 'any' },
    });
    expect(review.status, review.text).toBe(200);
    const submit = await post(admin.cookie, '/api/Catalog/SubmitForReview', {
      channelId: added.json.channelId,
      productIds: [product.productId],
    });
    expect(submit.status, submit.text).toBe(200);

    // without the option: only the product's change, as before
    const plain = await drain(admin.cookie, start, 100);
    expect(plain.items.map((i) => [i.type, i.elementId, i.action])).toEqual([['change', product.productId, 'update']]);

    const res = await changes(admin.cookie, `since=${start}&include=events&limit=100`);
    expect(res.status, res.text).toBe(200);
    const items = res.json.items;
    expect(items.map((i: any) => [i.type, i.elementId ?? i.data.productId])).toEqual([
      ['change', product.productId],
      ['completeness.reached', product.productId],
      ['review.submitted', product.productId],
    ]);
    expect(items[1]).toEqual({
      type: 'completeness.reached',
      eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      cursor: expect.any(String),
      at: expect.any(String),
      data: {
        productId: product.productId,
        sku: 'EV-1',
        channelId: added.json.channelId,
        channelName: 'Shop',
        complete: true,
        scores: { deu: 100 },
      },
    });
    expect(items[2].data).toMatchObject({ state: 'in_review', userId: admin.userId, surface: 'web' });
    expect(res.json.cursor).toBe(items[2].cursor);
    // the cursor is the feed's: an event's resumes right after it, in either mode
    const after = await changes(admin.cookie, `since=${items[1].cursor}&include=events`);
    expect(after.json.items.map((i: any) => i.eventId)).toEqual([items[2].eventId]);
    const plainAfter = await changes(admin.cookie, `since=${items[1].cursor}`);
    expect(plainAfter.json).toEqual({ items: [], cursor: items[1].cursor, hasMore: false });
    // pages of one keep the order
    const paged: any[] = [];
    let cursor = start;
    for (let i = 0; i < 5; i++) {
      const page = await changes(admin.cookie, `since=${cursor}&include=events&limit=1`);
      paged.push(...page.json.items);
      cursor = page.json.cursor;
      if (!page.json.hasMore) break;
    }
    expect(paged).toEqual(items);

    // the same on /api/ai is covered by the shared schema; a bad include is 400
    const bad = await changes(admin.cookie, 'include=everything');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('include');
  });

  it("reads the events' page as one range of the feed's (company_id, seq) index", async () => {
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT f.seq, h.*, e.* FROM change_feed f LEFT JOIN history_versions h ON h.id = f.version_id
        LEFT JOIN domain_events e ON e.id = f.version_id
        WHERE f.company_id = ? AND f.seq > ? AND (h.id IS NOT NULL OR e.id IS NOT NULL) ORDER BY f.seq LIMIT 101`,
    )
      .bind('c', 0)
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    expect(details[0]).toMatch(
      /SEARCH f USING (COVERING )?INDEX change_feed_company_seq_idx \(company_id=\? AND seq>\?\)/,
    );
    expect(details.some((d) => /SEARCH h USING (COVERING )?INDEX \S+ \(id=\?\)/.test(d))).toBe(true);
    expect(details.some((d) => /SEARCH e USING (COVERING )?INDEX \S+ \(id=\?\)/.test(d))).toBe(true);
    expect(details.join('\n')).not.toMatch(/SCAN|TEMP B-TREE/);
  });
});
