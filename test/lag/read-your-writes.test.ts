/**
 * Read-your-writes on every surface under a lagging replica (vitest.lag.config.ts binds
 * DB_REPLICA_SIM). Each test first shows that a read without the bookmark really is stale (so
 * the simulation bites), then that the same read with the bookmark never is.
 */
import { env, runInDurableObject } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { syncReplica } from '../../src/db/simulated-replica';
import { makeCatalog, makeProduct, makeSession } from '../helpers/factories';
import { call } from '../helpers/http';
import { callTool, mcp, MODERN_VERSION, openSession } from '../mcp-helpers';
import { makeAgentUser, ORIGIN, tokensFor } from '../oauth-helpers';

const BOOKMARK = 'x-d1-bookmark';
const inSync = () => syncReplica(env.DB, env.DB_REPLICA_SIM!);

async function webTenant() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const product = await makeProduct(session, catalog.catalogId, { name: 'before' });
  await inSync();
  return { session, catalog, product };
}

const getProduct = (cookie: string, productId: string, bookmark?: string | null) =>
  call('GET', `/api/Catalog/GetProduct?productId=${productId}`, {
    cookie,
    headers: bookmark ? { [BOOKMARK]: bookmark } : {},
  });

describe('REST (/api/Catalog)', () => {
  it('answers a write with a bookmark; a read without it may be stale, with it never is', async () => {
    const { session, catalog, product } = await webTenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'after',
      },
    });
    expect(updated.status, updated.text).toBe(200);
    const bookmark = updated.headers.get(BOOKMARK);
    expect(bookmark).toMatch(/^sim-[0-9a-f]{12}$/);

    const stale = await getProduct(session.cookie, product.productId);
    expect(stale.json.name).toBe('before');
    const fresh = await getProduct(session.cookie, product.productId, bookmark);
    expect(fresh.json.name).toBe('after');
    expect(fresh.headers.get(BOOKMARK)! >= bookmark!).toBe(true);
  });

  it('ignores a bookmark that is not one (no error, no internals)', async () => {
    const { session, product } = await webTenant();
    const res = await getProduct(session.cookie, product.productId, 'not a bookmark; drop table');
    expect(res.status).toBe(200);
    expect(res.json.name).toBe('before');
  });
});

async function agent(scope: 'api' | 'mcp') {
  const user = await makeAgentUser({ aiSwitch: true });
  const catalog = await makeCatalog(user);
  const tokens = await tokensFor(user, { scope });
  await inSync();
  return { user, catalog, token: tokens.access_token };
}

describe('/api/ai', () => {
  it('reads a write made just before when it brings the bookmark', async () => {
    const { user, catalog, token } = await agent('api');
    const stats = (bookmark?: string | null) =>
      exports.default.fetch(
        new Request(`${ORIGIN}/api/ai/GetStats`, {
          headers: { Authorization: `Bearer ${token}`, ...(bookmark ? { [BOOKMARK]: bookmark } : {}) },
        }),
      );
    const added = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Catalog/AddProduct`, {
        method: 'POST',
        headers: { Cookie: user.session, 'Content-Type': 'application/json', Origin: ORIGIN },
        body: JSON.stringify({ departmentId: user.departmentId, catalogId: catalog.catalogId, name: 'new' }),
      }),
    );
    expect(added.status, await added.clone().text()).toBe(200);
    const bookmark = added.headers.get(BOOKMARK);
    expect(bookmark).toBeTruthy();

    expect(((await (await stats()).json()) as any).products).toBe(0);
    const fresh = await stats(bookmark);
    expect(fresh.status).toBe(200);
    expect(((await fresh.json()) as any).products).toBe(1);
    expect(fresh.headers.get(BOOKMARK)! >= bookmark!).toBe(true);
  });
});

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'lag-test', version: '1.0.0' },
};

/** One stateless (2026-07-28) tools/call; `bookmark` goes in `_meta` or in the header. */
async function statelessCall(
  token: string,
  name: string,
  args: Record<string, unknown>,
  bookmark?: { meta?: string; header?: string },
) {
  const reply = await mcp('POST', {
    token,
    version: MODERN_VERSION,
    headers: {
      'Mcp-Method': 'tools/call',
      'Mcp-Name': name,
      ...(bookmark?.header ? { [BOOKMARK]: bookmark.header } : {}),
    },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: { ...modernMeta, ...(bookmark?.meta ? { [BOOKMARK]: bookmark.meta } : {}) },
      },
    },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.messages[0].result;
}

const upsertOne = (a: Awaited<ReturnType<typeof agent>>, sku: string) => ({
  departmentId: a.user.departmentId,
  catalogId: a.catalog.catalogId,
  items: [{ sku, name: sku }],
});

describe('MCP without a session', () => {
  it('puts the bookmark in the result _meta and reads its own write when it is sent back (in _meta or as header)', async () => {
    const a = await agent('mcp');
    for (const via of ['meta', 'header'] as const) {
      const written = await statelessCall(a.token, 'upsert_products', upsertOne(a, `SKU-${via}`));
      const productId = written.structuredContent.items[0].productId;
      const bookmark = written._meta[BOOKMARK];
      expect(bookmark).toMatch(/^sim-/);

      const stale = await statelessCall(a.token, 'get_product', { productId });
      expect(stale.isError).toBe(true);
      const fresh = await statelessCall(a.token, 'get_product', { productId }, { [via]: bookmark });
      expect(fresh.isError, JSON.stringify(fresh)).toBeUndefined();
      expect(fresh.structuredContent.sku).toBe(`SKU-${via}`);
      expect(fresh._meta[BOOKMARK] >= bookmark).toBe(true);
    }
  });
});

describe('MCP with a session', () => {
  it("keeps the session's newest bookmark in its Durable Object: the next call reads the write", async () => {
    const a = await agent('mcp');
    const { sessionId } = await openSession(a.token);
    const written = await callTool(a.token, sessionId, 'upsert_products', upsertOne(a, 'SKU-SESSION'));
    const productId = written.structuredContent.items[0].productId;

    // The replica still lacks it: a stateless call without bookmark does not find it.
    expect((await statelessCall(a.token, 'get_product', { productId })).isError).toBe(true);
    const read = await callTool(a.token, sessionId, 'get_product', { productId });
    expect(read.isError, JSON.stringify(read)).toBeUndefined();
    expect(read.structuredContent.sku).toBe('SKU-SESSION');
  });

  it("keeps a write's bookmark across an eviction of the session's object", async () => {
    const a = await agent('mcp');
    const { sessionId } = await openSession(a.token);
    const written = await callTool(a.token, sessionId, 'upsert_products', upsertOne(a, 'SKU-EVICTED'));
    const productId = written.structuredContent.items[0].productId;
    expect((await statelessCall(a.token, 'get_product', { productId })).isError).toBe(true);
    // What an eviction does: everything in the object's memory is gone, its storage stays.
    const namespace = env.MCP_SESSION as unknown as DurableObjectNamespace;
    await runInDurableObject(namespace.get(namespace.idFromName(sessionId)), (instance) => {
      Object.assign(instance as object, { live: undefined, record: undefined, bookmark: null });
    });
    const read = await callTool(a.token, sessionId, 'get_product', { productId });
    expect(read.isError, JSON.stringify(read)).toBeUndefined();
    expect(read.structuredContent.sku).toBe('SKU-EVICTED');
  });
});

describe('jobs', () => {
  it('carry the bookmark of the request that started them: the consumer finds the job and the data', async () => {
    const { session, catalog, product } = await webTenant();
    const updated = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        name: 'x',
      },
    });
    const started = await call('POST', '/api/Catalog/StartMassEdit', {
      cookie: session.cookie,
      headers: { [BOOKMARK]: updated.headers.get(BOOKMARK)! },
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productIds: [product.productId],
        field: 'status',
        value: 'discontinued',
      },
    });
    expect(started.status, started.text).toBe(200);
    const jobId = started.json.jobId;
    // Watched on the primary itself, so the test never brings the replica forward for the job.
    let state = 'queued';
    for (let i = 0; i < 100 && (state === 'queued' || state === 'running'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      const row = await env.DB.prepare('SELECT state FROM jobs WHERE id = ?').bind(jobId).first<{ state: string }>();
      state = row!.state;
    }
    expect(state).toBe('succeeded');
    const final = await env.DB.prepare('SELECT status, name FROM products WHERE id = ?')
      .bind(product.productId)
      .first<{ status: string; name: string }>();
    expect(final).toEqual({ status: 'discontinued', name: 'x' });
  });
});
