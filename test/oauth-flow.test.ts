import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  approve,
  authorizeQuery,
  exchangeCode,
  makeAgentUser,
  MCP_RESOURCE,
  ORIGIN,
  pkcePair,
  refresh,
  registerClient,
  REDIRECT_URI,
  send,
  tokensFor,
} from './oauth-helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('authorization code flow with PKCE S256', () => {
  it('registers a public client, authorizes, exchanges the code and calls /api/ai/GetStats', async () => {
    const user = await makeAgentUser();
    const client = await registerClient();
    expect(client.client_secret).toBeUndefined();
    const { verifier, challenge } = await pkcePair();
    const redirect = await approve(user.session, authorizeQuery(client.client_id, challenge));
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get('state')).toBe('state-123');
    expect(redirect.searchParams.get('iss')).toBe(ORIGIN);
    const token = await exchangeCode(client.client_id, redirect.searchParams.get('code')!, verifier);
    expect(token.status, token.text).toBe(200);
    expect(token.json).toMatchObject({ token_type: 'bearer', expires_in: 300, resource: MCP_RESOURCE });
    expect(token.json.scope.split(' ').sort()).toEqual(['api', 'mcp', 'offline_access']);
    expect(token.json.refresh_token).toEqual(expect.any(String));
    expect(token.json.access_token.startsWith(`${user.userId}:`)).toBe(true);
    const stats = await send('GET', '/api/ai/GetStats', { token: token.json.access_token });
    expect(stats.status, stats.text).toBe(200);
    expect(stats.json).toEqual({ catalogs: 0, categories: 0, products: 0 });
  });

  it('registers a confidential client (client_secret_post) that must send its secret', async () => {
    const user = await makeAgentUser();
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_post' });
    expect(client.client_secret).toEqual(expect.any(String));
    const { verifier, challenge } = await pkcePair();
    const code = (await approve(user.session, authorizeQuery(client.client_id, challenge))).searchParams.get('code')!;
    const wrong = await exchangeCode(client.client_id, code, verifier, { client_secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_client');
    const right = await exchangeCode(client.client_id, code, verifier, { client_secret: client.client_secret! });
    expect(right.status, right.text).toBe(200);
    expect(right.json.access_token).toEqual(expect.any(String));
  });

  it('issues no refresh token unless offline_access was granted', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user, { scope: 'api' });
    expect(tokens.scope).toBe('api');
    expect(tokens.refresh_token).toBeUndefined();
  });

  it('issues no refresh token when the user unticks offline_access on the consent page', async () => {
    const user = await makeAgentUser();
    const client = await registerClient();
    const { verifier, challenge } = await pkcePair();
    const redirect = await approve(user.session, authorizeQuery(client.client_id, challenge), ['api']);
    const token = await exchangeCode(client.client_id, redirect.searchParams.get('code')!, verifier);
    expect(token.json.scope).toBe('api');
    expect(token.json.refresh_token).toBeUndefined();
  });

  it('rotates the refresh token; an older one stops working once its successor is used', async () => {
    const user = await makeAgentUser();
    const first = await tokensFor(user);
    const second = await refresh(first.clientId, first.refresh_token!);
    expect(second.status, second.text).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(second.json.expires_in).toBe(300);
    const third = await refresh(first.clientId, second.json.refresh_token);
    expect(third.status, third.text).toBe(200);
    const replay = await refresh(first.clientId, first.refresh_token!);
    expect(replay.status).toBe(400);
    expect(replay.json.error).toBe('invalid_grant');
    const stats = await send('GET', '/api/ai/GetStats', { token: third.json.access_token });
    expect(stats.status).toBe(200);
  });

  it('refuses an access token after its 300 seconds', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 301_000);
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('token is invalid, expired or revoked');
    expect(res.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
  });
});

describe('token endpoint negative paths', () => {
  async function codeFor(extra: Record<string, string> = {}) {
    const user = await makeAgentUser();
    const client = await registerClient();
    const { verifier, challenge } = await pkcePair();
    const redirect = await approve(user.session, authorizeQuery(client.client_id, challenge, extra));
    return { clientId: client.client_id, verifier, code: redirect.searchParams.get('code')! };
  }

  it('refuses a wrong code_verifier', async () => {
    const { clientId, code } = await codeFor();
    const res = await exchangeCode(clientId, code, (await pkcePair()).verifier);
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
    expect(res.json.access_token).toBeUndefined();
  });

  it('refuses a code exchange without code_verifier', async () => {
    const { clientId, code } = await codeFor();
    const res = await send('POST', '/connect/token', {
      form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  });

  it('refuses a code used twice and revokes what the first use issued', async () => {
    const { clientId, code, verifier } = await codeFor();
    const first = await exchangeCode(clientId, code, verifier);
    expect(first.status).toBe(200);
    const second = await exchangeCode(clientId, code, verifier);
    expect(second.status).toBe(400);
    expect(second.json.error).toBe('invalid_grant');
    const call = await send('GET', '/api/ai/GetStats', { token: first.json.access_token });
    expect(call.status).toBe(401);
  });

  it('refuses a redirect_uri that differs from the authorization request', async () => {
    const { clientId, code, verifier } = await codeFor();
    const res = await exchangeCode(clientId, code, verifier, { redirect_uri: 'https://agent.example/other' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('refuses the client_credentials grant', async () => {
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_post' });
    const res = await send('POST', '/connect/token', {
      form: {
        grant_type: 'client_credentials',
        client_id: client.client_id,
        client_secret: client.client_secret!,
        scope: 'api',
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/unsupported_grant_type|unauthorized_client/);
    expect(res.json.access_token).toBeUndefined();
  });

  it('refuses a token request for another resource', async () => {
    const { clientId, code, verifier } = await codeFor();
    const res = await exchangeCode(clientId, code, verifier, { resource: 'https://elsewhere.example/mcp' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_target');
  });

  it('revokes an access token (RFC 7009) so the next call is refused', async () => {
    const user = await makeAgentUser();
    const tokens = await tokensFor(user);
    const revoke = await send('POST', '/connect/token', {
      form: { token: tokens.access_token, client_id: tokens.clientId },
    });
    expect(revoke.status).toBe(200);
    const res = await send('GET', '/api/ai/GetStats', { token: tokens.access_token });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe('token is invalid, expired or revoked');
  });
});

describe('resource binding (RFC 8707)', () => {
  it('refuses a token issued for another resource with 401', async () => {
    // The same service on a loopback origin is another authorization server with resource
    // http://127.0.0.1:8787/mcp; its token must not open https://pim.test.
    const loopback = 'http://127.0.0.1:8787';
    const user = await makeAgentUser();
    const reg = await send('POST', '/connect/register', {
      origin: loopback,
      json: { client_name: 'Loopback', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' },
      headers: { 'CF-Connecting-IP': '10.9.9.9' },
    });
    expect(reg.status).toBe(201);
    const { verifier, challenge } = await pkcePair();
    const query = authorizeQuery(reg.json.client_id, challenge, { resource: `${loopback}/mcp` });
    const page = await send('GET', `/connect/authorize?${query}`, { origin: loopback, cookie: user.session });
    const handle = /name="handle" value="([^"]+)"/.exec(page.text)![1]!;
    const consentCookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c!.startsWith('__Host-oauth-consent'))!;
    const post = await send('POST', '/connect/authorize', {
      origin: loopback,
      cookie: `${user.session}; ${consentCookie}`,
      form: { handle, userId: user.userId, decision: 'approve', scope: ['api'] },
    });
    const code = new URL(post.headers.get('Location')!).searchParams.get('code')!;
    const token = await send('POST', '/connect/token', {
      origin: loopback,
      form: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: reg.json.client_id,
        code_verifier: verifier,
      },
    });
    expect(token.json.resource).toBe(`${loopback}/mcp`);
    const there = await send('GET', '/api/ai/GetStats', { origin: loopback, token: token.json.access_token });
    expect(there.status).toBe(200);
    const here = await send('GET', '/api/ai/GetStats', { token: token.json.access_token });
    expect(here.status).toBe(401);
    expect(here.json.error).toBe('token is invalid, expired or revoked');
  });
});
