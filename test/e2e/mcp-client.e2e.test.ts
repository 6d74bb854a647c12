/**
 * A new user's first connection, with the official MCP TypeScript SDK client and its OAuth
 * support against `wrangler dev` with the demo seed: the client discovers the authorization
 * server from the 401, registers itself, sends the user to sign in and consent, exchanges the
 * code with PKCE, opens a session (2025-11-25, a Durable Object), lists the tools and calls
 * every one of them; a user whose "AI may edit classifications" switch is off gets clean tool
 * errors from the writes.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, inject, it } from 'vitest';
import { approveAuthorization } from '../../scripts/conformance-oauth';
import { PIM_TOOLS } from '../../src/mcp/tools';

const PASSWORD = 'demo-password-1';
const REDIRECT = 'http://127.0.0.1:45872/callback';

/** The SDK's OAuth hooks, kept in memory; the "browser" step records where the user is sent. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'E2E MCP client',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Registration is limited to 5 per hour per IP: each test run registers from its own address. */
const ip = `10.88.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
const fetchWithClientIp: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('CF-Connecting-IP', ip);
  return fetch(input, { ...init, headers });
};

/** Connects as `email` the way a new user's client does the first time. */
async function connectAs(email: string) {
  const url = new URL(`${inject('baseUrl')}/mcp`);
  const provider = new MemoryOAuthProvider();
  const client = new Client({ name: 'e2e-sdk-client', version: '1.0.0' });
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: fetchWithClientIp });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toEqual(expect.any(String));
  expect(provider.authorizationUrl?.pathname).toBe('/connect/authorize');
  expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(url.href);
  const callback = await approveAuthorization(provider.authorizationUrl!, email, PASSWORD);
  await first.finishAuth(callback.searchParams.get('code')!);
  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: fetchWithClientIp });
  await client.connect(transport);
  return { client, transport };
}

type ToolResult = { isError?: boolean; structuredContent?: any; content: any };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

async function webSession(email: string) {
  const res = await fetch(`${inject('baseUrl')}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function addProduct(cookie: string, departmentId: string, catalogId: string, sku: string) {
  const res = await fetch(`${inject('baseUrl')}/api/Catalog/AddProduct`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ departmentId, catalogId, sku, name: 'LS-Schalter B13' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { productId: string };
}

describe('MCP with the official TypeScript SDK client', () => {
  it('connects a new client through OAuth and calls every tool as editor@demo.test', async () => {
    const { client, transport } = await connectAs('editor@demo.test');
    expect(client.getServerVersion()).toMatchObject({ name: 'pim-service', version: '1.0.0' });
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(PIM_TOOLS.map((t) => t.name));

    const stats = await call(client, 'get_statistics');
    expect(stats.structuredContent.products).toBeGreaterThan(0);
    const catalogs = (await call(client, 'list_catalogs', { limit: 10 })).structuredContent;
    const catalog = catalogs.items.find((c: any) => c.productCount > 0);
    expect((await call(client, 'get_catalog', { catalogId: catalog.catalogId })).structuredContent.name).toBe(
      catalog.name,
    );
    const categories = (await call(client, 'list_categories', { catalogId: catalog.catalogId })).structuredContent;
    expect(categories.items.length).toBeGreaterThan(0);
    const products = (await call(client, 'search_products', { catalogId: catalog.catalogId, limit: 5 }))
      .structuredContent;
    expect(products.items.length).toBeGreaterThan(0);
    const product = (await call(client, 'get_product', { productId: products.items[0].productId })).structuredContent;
    expect(product).toMatchObject({
      productId: products.items[0].productId,
      values: expect.any(Array),
      variants: expect.any(Array),
    });
    const groups = (await call(client, 'get_classification_groups')).structuredContent;
    expect(groups.items.map((g: any) => g.code)).toEqual(['ETIM', 'ECLASS', 'PROFICLASS']);
    const links = (await call(client, 'list_classifications', { limit: 2 })).structuredContent;
    expect(links.items.length).toBeGreaterThan(0);
    const link = (await call(client, 'get_classification', { linkId: links.items[0].linkId })).structuredContent;
    expect(link.linkId).toBe(links.items[0].linkId);

    const fresh = await addProduct(
      await webSession('editor@demo.test'),
      catalog.departmentId,
      catalog.catalogId,
      `E2E-MCP-${Date.now()}`,
    );
    const created = await call(client, 'create_classification', {
      elementId: fresh.productId,
      name: 'LS-Schalter B13',
      classificationGroups: 1,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000133', value: '13' }],
    });
    expect(created.isError).toBeFalsy();
    const updated = await call(client, 'update_classification', {
      linkId: created.structuredContent.linkId,
      features: [{ code: 'EF000133', value: '16' }],
    });
    expect(updated.structuredContent.features).toEqual([
      { group: 'ETIM', code: 'EF000133', name: 'Rated current', value: '16', unit: 'AMP' },
    ]);

    const { jobId } = (await call(client, 'start_export', { catalogId: catalog.catalogId, exportType: 'CSV' }))
      .structuredContent;
    let job: any;
    for (let i = 0; i < 60; i++) {
      job = (await call(client, 'get_job', { jobId })).structuredContent;
      if (job.state === 'succeeded' || job.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(job).toMatchObject({ state: 'succeeded', result: { contentType: expect.stringContaining('csv') } });

    const failed = await call(client, 'get_product', { productId: crypto.randomUUID() });
    expect(failed.isError).toBe(true);
    expect(JSON.parse(failed.content[0].text)).toEqual({ error: 'product not found', code: 'not_found' });

    // Ending the session (DELETE): the old session id is then unknown.
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const stale = await fetch(`${inject('baseUrl')}/mcp`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
        Authorization: `Bearer ${(transport as any)._authProvider.stored.access_token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(stale.status).toBe(404);
    await client.close();
  });

  it('gives noai@demo.test clean tool errors for classification writes', async () => {
    const { client } = await connectAs('noai@demo.test');
    const links = (await call(client, 'list_classifications', { limit: 1 })).structuredContent;
    const refused = await call(client, 'update_classification', {
      linkId: links.items[0].linkId,
      name: 'renamed by agent',
    });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0].text)).toMatchObject({
      code: 'forbidden',
      error: expect.stringContaining('AI may edit classifications'),
    });
    // Exactly what the read returned, one value changed: still "forbidden", never a validation error.
    const read = (await call(client, 'get_classification', { linkId: links.items[0].linkId })).structuredContent;
    const readBack = await call(client, 'update_classification', { ...read, name: 'renamed by agent' });
    expect(JSON.parse(readBack.content[0].text)).toMatchObject({ code: 'forbidden' });
    const unchanged = (await call(client, 'get_classification', { linkId: links.items[0].linkId })).structuredContent;
    expect(unchanged.name).toBe(links.items[0].name);
    // The session survives the refusal.
    expect((await call(client, 'get_statistics')).isError).toBeFalsy();
    await client.close();
  });
});
