/**
 * The SDK v2 client (`@modelcontextprotocol/client`, the stable line for the 2026-07-28
 * revision) against `wrangler dev`: OAuth with the SDK's provider hooks (RFC 9207 `iss`
 * checked), version negotiation to the stateless current revision (no session), tools listed
 * and called.
 */
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { describe, expect, inject, it } from 'vitest';
import { approveAuthorization } from '../../scripts/conformance-oauth';
import { PIM_TOOLS } from '../../src/mcp/tools';

const REDIRECT = 'http://127.0.0.1:45873/callback';
const ip = `10.89.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const fetchWithClientIp: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('CF-Connecting-IP', ip);
  return fetch(input, { ...init, headers });
};

function memoryProvider() {
  const state: { client?: any; tokens?: any; verifier: string; url?: URL } = { verifier: '' };
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return REDIRECT;
    },
    get clientMetadata() {
      return {
        client_name: 'E2E MCP v2 client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      };
    },
    clientInformation: () => state.client,
    saveClientInformation: (info) => void (state.client = info),
    tokens: () => state.tokens,
    saveTokens: (tokens) => void (state.tokens = tokens),
    redirectToAuthorization: (url) => void (state.url = url),
    saveCodeVerifier: (verifier) => void (state.verifier = verifier),
    codeVerifier: () => state.verifier,
  };
  return { provider, state };
}

describe('MCP with the SDK v2 client (current revision)', () => {
  it('authorizes, then lists and calls tools statelessly on 2026-07-28', async () => {
    const url = new URL(`${inject('baseUrl')}/mcp`);
    const { provider, state } = memoryProvider();
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: fetchWithClientIp });
    // The v2 client speaks the 2025 revision unless told to negotiate ('auto' probes server/discover).
    const client = new Client({ name: 'e2e-sdk-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const callback = await approveAuthorization(state.url!, 'editor@demo.test', 'demo-password-1');
    // The callback carries `iss` (RFC 9207); the SDK checks it against the discovered issuer.
    expect(callback.searchParams.get('iss')).toBe(url.origin);
    await first.finishAuth(callback.searchParams);

    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: fetchWithClientIp });
    await client.connect(transport);
    expect(transport.protocolVersion).toBe('2026-07-28');
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(PIM_TOOLS.map((t) => t.name));
    const stats = (await client.callTool({ name: 'get_statistics', arguments: {} })) as any;
    expect(stats.structuredContent.products).toBeGreaterThan(0);
    const missing = (await client.callTool({ name: 'get_job', arguments: { jobId: crypto.randomUUID() } })) as any;
    expect(missing.isError).toBe(true);
    expect(JSON.parse(missing.content[0].text)).toEqual({ error: 'job not found', code: 'not_found' });
    await client.close();
  });
});
