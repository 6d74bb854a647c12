import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../src/db/schema';
import { guardStream } from '../src/mcp/stream-watch';
import { PIM_TOOLS } from '../src/mcp/tools';
import { db, makeCatalog, PASSWORD } from './helpers/factories';
import { call } from './helpers/http';
import { callTool, LEGACY_VERSION, mcp, mcpRequest, MODERN_VERSION, openSession, sessionCall } from './mcp-helpers';
import { makeAgentUser, ORIGIN, send, tokensFor } from './oauth-helpers';

async function agentToken(options: { scope?: string; aiSwitch?: boolean } = {}) {
  const user = await makeAgentUser({ aiSwitch: options.aiSwitch });
  const tokens = await tokensFor(user, { scope: options.scope ?? 'mcp' });
  return { user, token: tokens.access_token };
}

/** Reads a stream to its end; resolves with how long that took, or rejects after `ms`. */
async function timeUntilClosed(body: ReadableStream<Uint8Array>, ms: number): Promise<number> {
  const started = Date.now();
  const reader = body.getReader();
  const deadline = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`stream still open after ${ms} ms`)), ms),
  );
  for (;;) {
    const { done } = await Promise.race([reader.read(), deadline]);
    if (done) return Date.now() - started;
  }
}

describe('MCP authorization discovery', () => {
  it('walks a new client from the 401 to a working session', async () => {
    const challenge = await mcp('POST', { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} } });
    expect(challenge.status).toBe(401);
    const header = challenge.headers.get('WWW-Authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(header)?.[1];
    expect(metadataUrl).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);
    expect(header).toContain('scope="mcp"');

    const resource = await send('GET', new URL(metadataUrl!).pathname);
    expect(resource.json).toMatchObject({ resource: `${ORIGIN}/mcp`, authorization_servers: [ORIGIN] });
    const as = await send('GET', '/.well-known/oauth-authorization-server');
    expect(as.json).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/connect/authorize`,
      token_endpoint: `${ORIGIN}/connect/token`,
      registration_endpoint: `${ORIGIN}/connect/register`,
      code_challenge_methods_supported: ['S256'],
    });

    const { token } = await agentToken();
    const { sessionId } = await openSession(token);
    const { response } = await sessionCall(token, sessionId, 'tools/list');
    expect(response.result.tools).toHaveLength(PIM_TOOLS.length);
  });

  it('answers 403 insufficient_scope to a token without the mcp scope', async () => {
    const { token } = await agentToken({ scope: 'api' });
    const res = await mcp('POST', { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text).error).toBe('this operation needs the scope mcp');
    expect(res.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"');
  });
});

describe('MCP sessions', () => {
  it("binds a session to its user: another user's token with the session id is refused", async () => {
    const owner = await agentToken();
    const intruder = await agentToken();
    const { sessionId } = await openSession(owner.token);
    const stolen = await sessionCall(intruder.token, sessionId, 'tools/call', {
      name: 'get_statistics',
      arguments: {},
    });
    expect(stolen.reply.status).toBe(404);
    expect(JSON.parse(stolen.reply.text)).toMatchObject({ error: { message: 'Session not found' } });
    const stream = await mcp('GET', { token: intruder.token, sessionId, version: LEGACY_VERSION });
    expect(stream.status).toBe(404);
    expect((await callTool(owner.token, sessionId, 'get_statistics')).isError).toBeFalsy();
  });

  it('requires a session id after initialize and answers 404 for an unknown one', async () => {
    const { token } = await agentToken();
    const missing = await mcp('POST', {
      token,
      version: LEGACY_VERSION,
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).error.message).toMatch(/Mcp-Session-Id/);
    const unknown = await mcp('POST', {
      token,
      sessionId: crypto.randomUUID(),
      version: LEGACY_VERSION,
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(unknown.status).toBe(404);
    const malformed = await mcp('POST', {
      token,
      sessionId: 'abc',
      version: LEGACY_VERSION,
      body: { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    });
    expect(malformed.status).toBe(404);
  });

  it('ends a session on DELETE', async () => {
    const { token } = await agentToken();
    const { sessionId } = await openSession(token);
    const ended = await mcp('DELETE', { token, sessionId, version: LEGACY_VERSION });
    expect(ended.status).toBe(200);
    const after = await sessionCall(token, sessionId, 'tools/list');
    expect(after.reply.status).toBe(404);
  });

  it('refuses a protocol version it does not speak on an open session', async () => {
    const { token } = await agentToken();
    const { sessionId } = await openSession(token);
    const res = await mcp('POST', {
      token,
      sessionId,
      version: '1999-01-01',
      body: { jsonrpc: '2.0', id: 5, method: 'tools/list' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/[Uu]nsupported protocol version/);
  });
});

describe('MCP Origin validation', () => {
  it('refuses a browser request from a foreign origin and changes nothing', async () => {
    const { token } = await agentToken();
    const res = await mcp('POST', {
      token,
      headers: { Origin: 'https://evil.example' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.text)).toEqual({
      error: 'requests from origin https://evil.example are not allowed',
      code: 'forbidden',
    });
    expect(res.headers.get('Mcp-Session-Id')).toBeNull();
    const junk = await mcp('POST', {
      token,
      headers: { Origin: 'null' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(junk.status).toBe(403);
  });

  it("accepts the service's own origin", async () => {
    const { token } = await agentToken();
    const res = await mcp('POST', {
      token,
      headers: { Origin: ORIGIN },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('Mcp-Session-Id')).toBeTruthy();
  });
});

describe('MCP revocation', () => {
  it('ends an open SSE stream within seconds of a password change, and refuses the next message', async () => {
    const { user, token } = await agentToken();
    const { sessionId } = await openSession(token);
    const stream = await mcpRequest('GET', { token, sessionId, version: LEGACY_VERSION });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('Content-Type')).toContain('text/event-stream');
    const closed = timeUntilClosed(stream.body!, 15_000);
    // Control: nothing revoked yet, so the stream stays open.
    const early = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('open'), 2_500)),
    ]);
    expect(early).toBe('open');
    const revokedAt = Date.now();
    const change = await call('POST', '/api/Account/ChangePassword', {
      cookie: user.session,
      body: { currentPassword: PASSWORD, newPassword: 'another-password-456' },
    });
    expect(change.status, change.text).toBe(200);
    await closed;
    expect(Date.now() - revokedAt).toBeLessThan(5_000);
    const next = await sessionCall(token, sessionId, 'tools/list');
    expect(next.reply.status).toBe(401);
    expect(next.reply.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });
});

describe('MCP revocation by an administrator', () => {
  it('refuses the next message of an open session once AI access is revoked', async () => {
    const { user, token } = await agentToken();
    const { sessionId } = await openSession(token);
    expect((await callTool(token, sessionId, 'get_statistics')).isError).toBeFalsy();
    // What RevokeAiAccess does to the user (tested with its route in oauth-revocation.test.ts).
    await db().update(users).set({ securityStamp: crypto.randomUUID() }).where(eq(users.id, user.userId));
    const next = await sessionCall(token, sessionId, 'tools/call', { name: 'get_statistics', arguments: {} });
    expect(next.reply.status).toBe(401);
    expect(JSON.parse(next.reply.text).error).toBe('token revoked; authorize again');
  });
});

describe('MCP current revision (2026-07-28, stateless)', () => {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'pool-test', version: '1.0.0' },
  };

  it('serves tools/list and tools/call per request, without a session', async () => {
    const { token } = await agentToken();
    const headers = { 'Mcp-Method': 'tools/list' };
    const list = await mcp('POST', {
      token,
      version: MODERN_VERSION,
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } },
    });
    expect(list.status, list.text).toBe(200);
    expect(list.headers.get('Mcp-Session-Id')).toBeNull();
    expect(list.messages[0].result.tools.map((t: any) => t.name)).toContain('search_products');
    const stats = await mcp('POST', {
      token,
      version: MODERN_VERSION,
      headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_statistics' },
      body: {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_statistics', arguments: {}, _meta: meta },
      },
    });
    expect(stats.status, stats.text).toBe(200);
    expect(stats.messages[0].result.structuredContent).toEqual({ catalogs: 0, categories: 0, products: 0 });
  });

  it('answers concurrent calls of two users each with their own data (servers are reused once idle, never shared)', async () => {
    const a = await agentToken();
    const b = await agentToken();
    await makeCatalog(b.user);
    const stats = (token: string) =>
      mcp('POST', {
        token,
        version: MODERN_VERSION,
        headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_statistics' },
        body: {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'get_statistics', arguments: {}, _meta: meta },
        },
      }).then((r) => r.messages[0].result.structuredContent.catalogs);
    for (let round = 0; round < 3; round++) {
      expect(await Promise.all([stats(a.token), stats(b.token), stats(a.token), stats(b.token)])).toEqual([0, 1, 0, 1]);
    }
  });
});

describe('MCP current revision: streams', () => {
  it('acknowledges subscriptions/listen and completes it at once: the tool list never changes', async () => {
    const { token } = await agentToken();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'pool-test', version: '1.0.0' },
    };
    const listen = await mcp('POST', {
      token,
      version: MODERN_VERSION,
      headers: { 'Mcp-Method': 'subscriptions/listen' },
      body: {
        jsonrpc: '2.0',
        id: 7,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: meta },
      },
    });
    expect(listen.headers.get('Content-Type')).toContain('text/event-stream');
    expect(listen.messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {} },
    });
    expect(listen.messages[1]).toMatchObject({ id: 7, result: { resultType: 'complete' } });
  });

  it('cuts a guarded stream as soon as the access check says no', async () => {
    let allowed = true;
    const endless = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const guarded = guardStream(
      new Response(endless, { headers: { 'Content-Type': 'text/event-stream' } }),
      async () => allowed,
      50,
    );
    const closed = timeUntilClosed(guarded.body!, 5_000);
    const early = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(() => resolve('open'), 300)),
    ]);
    expect(early).toBe('open');
    allowed = false;
    expect(await closed).toBeLessThan(1_000);
  });
});
