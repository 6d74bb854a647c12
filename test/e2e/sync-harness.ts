/**
 * What the sync e2e test runs next to the PIM of the global setup: the real connector Worker
 * (`wrangler dev --config connector/wrangler.toml`, fresh local state, demo shop seeded) and a
 * tiny Node proxy between the two that records /upsert bodies and can fail the next ones with
 * 503, as an overloaded shop would.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPlatformProxy, unstable_readConfig } from 'wrangler';
import { d1File } from '../../scripts/lib/d1-file';
import { freePort, migrate, startDevServer, type DevServer } from '../../scripts/lib/dev-server';
import { signRequest } from '../../src/sync/protocol/signing';

export const DEMO_KEY = { keyId: 'demo', secret: 'demo-connector-secret-1' };

/**
 * The connector with the demo key and the demo shop seeded; `allowPrivateTargets` lets it call
 * shops and media on 127.0.0.1 (`ALLOW_PRIVATE_TARGETS`, docs/shops.md "Safety"), as the
 * e2e tests against a local Vendure or Medusa need.
 */
export async function startConnector(
  options: { allowPrivateTargets?: boolean } = {},
): Promise<{ server: DevServer; stop(): void }> {
  const persistTo = mkdtempSync(join(tmpdir(), 'connector-e2e-'));
  await migrate(persistTo, 'connector/wrangler.toml');
  const { seedDemoShop } = await import('../../connector/scripts/demo-shop');
  const proxy = await getPlatformProxy<{ DB: D1Database }>({
    configPath: 'connector/wrangler.toml',
    persist: { path: `${persistTo}/v3` },
    remoteBindings: false,
  });
  try {
    await seedDemoShop(proxy.env.DB);
  } finally {
    await proxy.dispose();
  }
  const server = await startDevServer(persistTo, {
    args: [
      '--config',
      'connector/wrangler.toml',
      '--var',
      `CONNECTOR_KEYS:${JSON.stringify({ [DEMO_KEY.keyId]: DEMO_KEY.secret })}`,
      ...(options.allowPrivateTargets ? ['--var', 'ALLOW_PRIVATE_TARGETS:true'] : []),
    ],
  });
  return {
    server,
    stop() {
      server.stop();
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}

/** A signed request to the connector, as the PIM would send it. */
export async function connectorCall(baseUrl: string, method: 'GET' | 'POST', path: string, body?: string) {
  const url = new URL(baseUrl + path);
  const headers = await signRequest({
    ...DEMO_KEY,
    method,
    pathWithQuery: url.pathname + url.search,
    body: body ?? '',
  });
  const response = await fetch(url, {
    method,
    body,
    headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) },
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function inventoryOf(baseUrl: string): Promise<{ sku: string; fingerprint: string }[]> {
  const res = await connectorCall(baseUrl, 'GET', '/inventory');
  return res.text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export interface FaultProxy {
  url: string;
  upserts: string[];
  /** Answer the next N /upsert requests with 503 and Retry-After: 1. */
  failNext: number;
  injected: number;
  close(): Promise<void>;
}

export async function startProxy(target: string): Promise<FaultProxy> {
  const port = await freePort();
  const state: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    upserts: [],
    failNext: 0,
    injected: 0,
    close: async () => undefined,
  };
  const server: Server = createServer(async (request, response) => {
    const bytes = await body(request);
    if (request.url?.startsWith('/upsert')) {
      if (state.failNext > 0) {
        state.failNext--;
        state.injected++;
        response
          .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' })
          .end('{"error":"injected by the e2e proxy"}');
        return;
      }
      state.upserts.push(bytes.toString('utf8'));
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [
        string,
        string,
      ][],
    );
    const upstream = await fetch(target + request.url, {
      method: request.method,
      headers,
      body: bytes.length ? bytes : undefined,
    });
    const out = Buffer.from(await upstream.arrayBuffer());
    response.writeHead(
      upstream.status,
      Object.fromEntries(
        [...upstream.headers].filter(
          ([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name),
        ),
      ),
    );
    response.end(out);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}

/**
 * Rows of a local D1 (the e2e state dir), read with the sqlite3 CLI: by default the PIM's
 * directory database `DB`, which is also cell-1, where the demo company and seed:synthetic's
 * company live (another cell: its binding; the connector's store: `'DB', 'connector/wrangler.toml'`).
 */
export function pimQuery(persistDir: string, sql: string, binding = 'DB', config = 'wrangler.toml'): string[][] {
  const file = d1File(persistDir, binding, config);
  const out = execFileSync('sqlite3', ['-readonly', '-separator', '\t', file, sql], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}
