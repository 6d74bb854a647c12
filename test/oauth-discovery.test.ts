import { describe, expect, it } from 'vitest';
import { makeAgentUser, MCP_RESOURCE, ORIGIN, randomIp, REDIRECT_URI, send, tokensFor } from './oauth-helpers';

describe('discovery documents', () => {
  it('publishes RFC 8414 authorization server metadata', async () => {
    const res = await send('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/connect/authorize`,
      token_endpoint: `${ORIGIN}/connect/token`,
      registration_endpoint: `${ORIGIN}/connect/register`,
      revocation_endpoint: `${ORIGIN}/connect/token`,
      scopes_supported: ['mcp', 'api', 'offline_access'],
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
      protected_resources: [MCP_RESOURCE],
      authorization_response_iss_parameter_supported: true,
    });
    expect(res.json.grant_types_supported).toEqual(['authorization_code', 'refresh_token']);
    expect(res.json.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['none', 'client_secret_post']),
    );
  });

  it.each(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'])(
    'publishes RFC 9728 protected resource metadata at %s',
    async (path) => {
      const res = await send('GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
      expect(res.json).toMatchObject({
        resource: MCP_RESOURCE,
        authorization_servers: [ORIGIN],
        scopes_supported: ['mcp', 'api'],
        bearer_methods_supported: ['header'],
      });
    },
  );

  it('offers no authorization server on a plain-http origin that is not loopback', async () => {
    const res = await send('GET', '/.well-known/oauth-authorization-server', { origin: 'http://pim.test' });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('route not found');
  });
});

describe('/mcp as a protected resource', () => {
  it('answers an unauthenticated request with 401 and the metadata address', async () => {
    const res = await send('POST', '/mcp', { json: { jsonrpc: '2.0', id: 1, method: 'initialize' } });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('bearer token required');
    const challenge = res.headers.get('WWW-Authenticate')!;
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="mcp"');
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('WWW-Authenticate');
  });

  it('answers a CORS preflight without a token', async () => {
    const res = await send('OPTIONS', '/mcp', {
      headers: {
        Origin: 'https://inspector.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
  });

  it('refuses a token without the mcp scope with 403 insufficient_scope', async () => {
    const tokens = await tokensFor(await makeAgentUser(), { scope: 'api' });
    const res = await send('POST', '/mcp', {
      token: tokens.access_token,
      json: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('this operation needs the scope mcp');
    expect(res.headers.get('WWW-Authenticate')).toContain('error="insufficient_scope"');
  });

  it('lets a token with the mcp scope through to the MCP handler', async () => {
    const tokens = await tokensFor(await makeAgentUser(), { scope: 'mcp' });
    const res = await send('POST', '/mcp', {
      token: tokens.access_token,
      headers: { Accept: 'application/json, text/event-stream' },
      json: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    });
    expect([401, 403]).not.toContain(res.status);
  });
});

describe('dynamic client registration', () => {
  it('rejects a registration without redirect_uris, without a name, or for client_credentials', async () => {
    const ip = randomIp();
    const cases = [
      { client_name: 'x' },
      { redirect_uris: [REDIRECT_URI] },
      { client_name: 'x', redirect_uris: [REDIRECT_URI], grant_types: ['client_credentials'] },
    ];
    for (const body of cases) {
      const res = await send('POST', '/connect/register', { json: body, headers: { 'CF-Connecting-IP': ip } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_client_metadata');
    }
  });

  it('allows 5 registrations per hour per IP, then answers 429 with Retry-After', async () => {
    const ip = randomIp();
    const body = { client_name: 'Burst', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 5; i++) {
      const ok = await send('POST', '/connect/register', { json: body, headers: { 'CF-Connecting-IP': ip } });
      expect(ok.status).toBe(201);
    }
    const limited = await send('POST', '/connect/register', { json: body, headers: { 'CF-Connecting-IP': ip } });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/too many requests/);
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const otherIp = await send('POST', '/connect/register', {
      json: body,
      headers: { 'CF-Connecting-IP': randomIp() },
    });
    expect(otherIp.status).toBe(201);
  });
});
