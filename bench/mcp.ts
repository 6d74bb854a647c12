/**
 * Agent latency: the same read (the department's statistics) through `GET /api/ai/GetStats`
 * with a bearer token and as the MCP tool `get_statistics` through the official SDK clients,
 * stateless (SDK v2, revision 2026-07-28) and in a session (SDK v1, 2025 revision, the
 * session's Durable Object), against a real `wrangler dev` with local D1. Prints p50 / p95 in
 * milliseconds and the MCP / REST ratio of the p50s (issue 22 asks for at most 1.3).
 *
 *   npm run bench:mcp                       # 1,000 master products, 200 calls per surface
 *   npm run bench:mcp -- --samples 500      # more calls
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startDevServer } from '../scripts/lib/dev-server';
import { approveAuthorization } from '../scripts/conformance-oauth';
import { benchArgs, positiveInt } from './lib/args';
import { releaseState, seededState } from './lib/state';
import { percentile } from './lib/stats';

const args = benchArgs('npm run bench:mcp -- [flags]: MCP tool call vs /api/ai latency', {
  samples: { type: 'string', default: '200', help: 'timed calls per surface (after 20 warm-up calls)' },
  masters: { type: 'string', default: '1000', help: 'master products of the seeded catalog' },
});
const SAMPLES = positiveInt('samples', args.samples);
const WARMUP = 20;
const REDIRECT = 'http://127.0.0.1:45873/callback';

const b64url = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(new Uint8Array(bytes)).toString('base64url');

/** The OAuth code flow by hand: a token for {mcp_url} with scopes `mcp` and `api`. */
async function agentToken(baseUrl: string, email: string, password: string): Promise<string> {
  const registered = await fetch(`${baseUrl}/connect/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client_name: 'bench', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const authorize = new URL(`${baseUrl}/connect/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id,
    redirect_uri: REDIRECT,
    scope: 'mcp api',
    state: 's',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: `${baseUrl}/mcp`,
  }))
    authorize.searchParams.set(k, v);
  const callback = await approveAuthorization(authorize, email, password);
  const token = await fetch(`${baseUrl}/connect/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      client_id,
      code_verifier: verifier,
      resource: `${baseUrl}/mcp`,
    }),
  });
  const body = (await token.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

async function time(label: string, call: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await call();
  const ms: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  return { label, p50: percentile(ms, 50), p95: percentile(ms, 95) };
}

const state = await seededState(positiveInt('masters', args.masters));
try {
  const server = await startDevServer(state.dir);
  try {
    const { baseUrl } = server;
    const token = await agentToken(baseUrl, state.seeded.email, state.seeded.password);
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const rest = await time('REST GET /api/ai/GetStats', async () => {
      const res = await fetch(`${baseUrl}/api/ai/GetStats`, auth);
      if (res.status !== 200) throw new Error(`GetStats ${res.status}`);
      await res.json();
    });
    const v2 = new ClientV2({ name: 'bench-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await v2.connect(new TransportV2(new URL(`${baseUrl}/mcp`), { requestInit: auth }));
    const stateless = await time('MCP get_statistics, stateless (SDK v2)', () =>
      v2.callTool({ name: 'get_statistics', arguments: {} }),
    );
    await v2.close();
    const v1 = new ClientV1({ name: 'bench-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(`${baseUrl}/mcp`), { requestInit: auth }));
    const session = await time('MCP get_statistics, session (SDK v1)', () =>
      v1.callTool({ name: 'get_statistics', arguments: {} }),
    );
    await v1.close();
    console.log(
      `bench:mcp  ${SAMPLES} calls each  (load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)})`,
    );
    for (const row of [rest, stateless, session]) {
      const ratio = row === rest ? '' : `  ${(row.p50 / rest.p50).toFixed(2)}x REST p50`;
      console.log(`${row.label.padEnd(42)} p50 ${row.p50.toFixed(2)} ms  p95 ${row.p95.toFixed(2)} ms${ratio}`);
    }
  } finally {
    server.stop();
  }
} finally {
  releaseState(state);
}
