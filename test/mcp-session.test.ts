import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { makeCatalog } from './helpers/factories';
import { makeAgentUser, tokensFor } from './oauth-helpers';
import { callTool, LEGACY_VERSION, mcp, openSession, sessionCall } from './mcp-helpers';
import { PIM_TOOLS } from '../src/mcp/tools';

describe('MCP sessions (2025 revisions)', () => {
  it('opens a session in a Durable Object and lists the tools', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId, init } = await openSession(token);
    // Session answers are an SSE stream of one message (JSON answers hung the conformance suite's session scenarios).
    expect(init.headers.get('Content-Type')).toContain('text/event-stream');
    expect(init.messages[0].result).toMatchObject({
      protocolVersion: LEGACY_VERSION,
      serverInfo: { name: 'pim-service', version: '1.0.0' },
    });
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    expect(response.result.tools.map((t: any) => t.name)).toContain('get_statistics');
    const stats = await callTool(token, sessionId, 'get_statistics');
    expect(stats.structuredContent).toEqual({ catalogs: 0, categories: 0, products: 0 });
  });
});

describe('MCP session storage', () => {
  it("writes the stored record only when it must: not for a read, at once for a write's bookmark", async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId } = await openSession(token);
    const namespace = env.MCP_SESSION as unknown as DurableObjectNamespace;
    const stub = namespace.get(namespace.idFromName(sessionId));
    const stored = () =>
      runInDurableObject(stub, (_instance, state) => state.storage.get<Record<string, unknown>>('session'));
    // A marker in storage only: any write of the record (made from the object's memory) drops it.
    await runInDurableObject(stub, async (_instance, state) => {
      const record = (await state.storage.get<Record<string, unknown>>('session'))!;
      await state.storage.put('session', { ...record, marker: 'untouched' });
    });
    await callTool(token, sessionId, 'get_statistics');
    await sessionCall(token, sessionId, 'tools/list');
    expect((await stored())?.marker).toBe('untouched');

    // A write moves the session's bookmark: stored with the answer, so an eviction keeps it.
    const catalog = await makeCatalog(user);
    const { reply, response } = await sessionCall(token, sessionId, 'tools/call', {
      name: 'upsert_products',
      arguments: { departmentId: user.departmentId, catalogId: catalog.catalogId, items: [{ sku: 'BM-1' }] },
    });
    expect(response.result.isError, reply.text).toBeFalsy();
    const record = await stored();
    expect(record?.marker).toBeUndefined();
    // the answer streams (SSE): its header was set before the tool wrote; the record has the write's newer bookmark
    expect(record?.bookmark).toEqual(expect.any(String));
    expect(String(record?.bookmark) >= String(reply.headers.get('x-d1-bookmark'))).toBe(true);
  });

  it('refreshes lastSeenAt once the stored one is a minute old', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId } = await openSession(token);
    const namespace = env.MCP_SESSION as unknown as DurableObjectNamespace;
    const stub = namespace.get(namespace.idFromName(sessionId));
    const longAgo = Date.now() - 2 * 60 * 1000;
    await runInDurableObject(stub, async (instance, state) => {
      const record = (await state.storage.get<Record<string, unknown>>('session'))!;
      const aged = { ...record, lastSeenAt: longAgo };
      await state.storage.put('session', aged);
      (instance as unknown as { record?: unknown }).record = aged;
    });
    await callTool(token, sessionId, 'get_statistics');
    const record = await runInDurableObject(stub, (_i, state) => state.storage.get<{ lastSeenAt: number }>('session'));
    expect(record!.lastSeenAt).toBeGreaterThan(longAgo + 60 * 1000);
  });
});

describe('MCP session after an eviction', () => {
  it('rebuilds the session from storage when the object lost its memory', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId } = await openSession(token);
    const namespace = env.MCP_SESSION as unknown as DurableObjectNamespace;
    const stub = namespace.get(namespace.idFromName(sessionId));
    // What an eviction does: the in-memory SDK session is gone, the storage stays.
    await runInDurableObject(stub, (instance) => {
      (instance as unknown as { live?: unknown }).live = undefined;
    });
    const stats = await callTool(token, sessionId, 'get_statistics');
    expect(stats.structuredContent).toEqual({ catalogs: 0, categories: 0, products: 0 });
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    expect(response.result.tools).toHaveLength(PIM_TOOLS.length);
  });
});

describe('MCP session expiry', () => {
  it('ends a session idle for an hour; its id is then unknown', async () => {
    const user = await makeAgentUser();
    const { access_token: token } = await tokensFor(user);
    const { sessionId } = await openSession(token);
    const namespace = env.MCP_SESSION as unknown as DurableObjectNamespace;
    const stub = namespace.get(namespace.idFromName(sessionId));
    await runInDurableObject(stub, async (instance, state) => {
      const stillFresh = instance as unknown as { expireIfIdle(): Promise<void> };
      await stillFresh.expireIfIdle();
      expect(await state.storage.get('session')).toBeTruthy();
      const record = (await state.storage.get<Record<string, unknown>>('session'))!;
      await state.storage.put('session', { ...record, lastSeenAt: Date.now() - 61 * 60 * 1000 });
      await stillFresh.expireIfIdle();
      expect(await state.storage.get('session')).toBeUndefined();
    });
    const { reply } = await sessionCall(token, sessionId, 'tools/list');
    expect(reply.status).toBe(404);
  });
});
