/**
 * Agent latency: the same read (the department's statistics) through `GET /api/ai/GetStats`
 * with a bearer token and as the MCP tool `get_statistics` through the official SDK clients,
 * stateless (SDK v2, revision 2026-07-28) and in a session (SDK v1, 2025 revision, the
 * session's Durable Object), against a real `wrangler dev` with local D1. Prints p50 / p95 in
 * milliseconds and the MCP / REST ratio of the p50s (issue 22 asks for at most 1.3).
 *
 * The surfaces take turns call by call (REST, stateless, session, then the next order), so a
 * change of the machine's load during the run weighs on all three alike; each round prints its
 * own ratios, so the spread between rounds shows the noise.
 *
 *   npm run bench:mcp                       # 1,000 master products, 200 calls per surface
 *   npm run bench:mcp -- --samples 500      # more calls
 *   npm run bench:mcp -- --rounds 3 --state /tmp/mcp-state   # three rounds, seeded dir kept
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
  rounds: { type: 'string', default: '1', help: 'rounds of `samples` calls per surface, each reported' },
  state: { type: 'string', value: 'DIR', help: 'keep the seeded catalog in DIR/<masters> and reuse it next time' },
});
const SAMPLES = positiveInt('samples', args.samples);
const ROUNDS = positiveInt('rounds', args.rounds);
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

interface Surface {
  label: string;
  call: () => Promise<unknown>;
}

/** Warms every surface up, then times `SAMPLES` calls of each, taking turns call by call. */
async function timeInTurns(surfaces: Surface[]) {
  for (let i = 0; i < WARMUP; i++) for (const s of surfaces) await s.call();
  const ms = surfaces.map(() => [] as number[]);
  for (let i = 0; i < SAMPLES; i++) {
    for (let k = 0; k < surfaces.length; k++) {
      const at = (i + k) % surfaces.length;
      const started = performance.now();
      await surfaces[at]!.call();
      ms[at]!.push(performance.now() - started);
    }
  }
  return surfaces.map((s, at) => {
    const sorted = ms[at]!.sort((a, b) => a - b);
    return { label: s.label, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
  });
}

const state = await seededState(positiveInt('masters', args.masters), args.state);
try {
  const server = await startDevServer(state.dir);
  try {
    const { baseUrl } = server;
    const token = await agentToken(baseUrl, state.seeded.email, state.seeded.password);
    const auth = { headers: { Authorization: `Bearer ${token}` } };
    const v2 = new ClientV2({ name: 'bench-v2', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await v2.connect(new TransportV2(new URL(`${baseUrl}/mcp`), { requestInit: auth }));
    const v1 = new ClientV1({ name: 'bench-v1', version: '1' });
    await v1.connect(new TransportV1(new URL(`${baseUrl}/mcp`), { requestInit: auth }));
    const surfaces: Surface[] = [
      {
        label: 'REST GET /api/ai/GetStats',
        call: async () => {
          const res = await fetch(`${baseUrl}/api/ai/GetStats`, auth);
          if (res.status !== 200) throw new Error(`GetStats ${res.status}`);
          await res.json();
        },
      },
      {
        label: 'MCP get_statistics, stateless (SDK v2)',
        call: () => v2.callTool({ name: 'get_statistics', arguments: {} }),
      },
      {
        label: 'MCP get_statistics, session (SDK v1)',
        call: () => v1.callTool({ name: 'get_statistics', arguments: {} }),
      },
    ];
    const loadavg = (await import('node:os')).loadavg;
    for (let round = 1; round <= ROUNDS; round++) {
      const rows = await timeInTurns(surfaces);
      console.log(
        `bench:mcp  round ${round}/${ROUNDS}  ${SAMPLES} calls each  (load average ${loadavg()[0]!.toFixed(2)})`,
      );
      const rest = rows[0]!;
      for (const row of rows) {
        const ratio = row === rest ? '' : `  ${(row.p50 / rest.p50).toFixed(2)}x REST p50`;
        console.log(`${row.label.padEnd(42)} p50 ${row.p50.toFixed(2)} ms  p95 ${row.p95.toFixed(2)} ms${ratio}`);
      }
    }
    await v2.close();
    await v1.close();
  } finally {
    server.stop();
  }
} finally {
  releaseState(state);
}
