/**
 * Mixed write-then-read operations under the simulated lagging replica, each read bringing the
 * bookmark its write answered with. Every write gives a product a new name (or adds one), so a
 * stale read is exact to detect; every fifth operation also reads once without the bookmark, to
 * show the lag is real.
 *
 * - Through the Worker (a few rounds, every surface): REST (UpdateProduct, then GetProduct),
 *   stateless MCP (upsert_products, then get_product with the bookmark in `_meta`) and an MCP
 *   session (the Durable Object keeps the bookmark).
 * - As the Worker's sessions do it (`STALE_OPS` operations; `npm run bench:stale` runs 10,000):
 *   each operation opens a session with the newest bookmark the "client" holds, as a request
 *   does, and runs a domain write (UpdateProduct, SetValue or AddProduct); the read opens a new
 *   session with the bookmark that write answered with.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { addProduct, updateProduct } from '../../src/catalog/products';
import { getProduct } from '../../src/catalog/product-queries';
import { setValue } from '../../src/catalog/values';
import { databaseOf } from '../../src/db/binding';
import type { Database } from '../../src/db/client';
import { newerBookmark, openSession } from '../../src/db/session';
import { syncReplica } from '../../src/db/simulated-replica';
import { asActor, makeCatalog, makeCompany, makeProduct } from '../helpers/factories';
import { call } from '../helpers/http';
import { callTool, mcp, MODERN_VERSION, openSession as openMcpSession } from '../mcp-helpers';
import { makeAgentUser, tokensFor } from '../oauth-helpers';

const BOOKMARK = 'x-d1-bookmark';
const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'stale-loop', version: '1.0.0' },
};

async function stateless(token: string, name: string, args: Record<string, unknown>, bookmark?: string) {
  const reply = await mcp('POST', {
    token,
    version: MODERN_VERSION,
    headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...meta, ...(bookmark ? { [BOOKMARK]: bookmark } : {}) } },
    },
  });
  return reply.messages[0].result;
}

describe('stale reads under lag', () => {
  it('none through the Worker: REST, MCP without and with session', async () => {
    const ops = 12;
    const user = await makeAgentUser({ aiSwitch: true });
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId, { name: 'start', sku: 'LOOP-1' });
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    await syncReplica(env.DB, env.DB_REPLICA_SIM!);
    const { sessionId } = await openMcpSession(token);
    const base = { departmentId: user.departmentId, catalogId: catalog.catalogId };
    const rest = async (name: string) => {
      const w = await call('POST', '/api/Catalog/UpdateProduct', {
        cookie: user.session,
        body: { ...base, productId: product.productId, name },
      });
      const bookmark = w.headers.get(BOOKMARK)!;
      const read = (b?: string) =>
        call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, {
          cookie: user.session,
          headers: b ? { [BOOKMARK]: b } : {},
        }).then((r) => r.json.name as string);
      return { bookmark, read };
    };
    const mcpStateless = async (name: string) => {
      const w = await stateless(token, 'upsert_products', { ...base, items: [{ sku: 'LOOP-1', name }] });
      const bookmark = w._meta[BOOKMARK] as string;
      const read = (b?: string) =>
        stateless(token, 'get_product', { productId: product.productId }, b).then((r) => r.structuredContent?.name);
      return { bookmark, read };
    };
    const mcpSession = async (name: string) => {
      await callTool(token, sessionId, 'upsert_products', { ...base, items: [{ sku: 'LOOP-1', name }] });
      const read = (b?: string) =>
        b === undefined
          ? stateless(token, 'get_product', { productId: product.productId }).then((r) => r.structuredContent?.name)
          : callTool(token, sessionId, 'get_product', { productId: product.productId }).then(
              (r) => r.structuredContent?.name,
            );
      return { bookmark: 'session', read };
    };
    const kinds = [rest, mcpStateless, mcpSession];
    let stale = 0;
    let staleWithout = 0;
    let controls = 0;
    const started = Date.now();
    for (let i = 0; i < ops; i++) {
      const name = `name-${i}`;
      const { bookmark, read } = await kinds[i % kinds.length]!(name);
      if (i % 5 === 0) {
        controls += 1;
        if ((await read()) !== name) staleWithout += 1;
      }
      if ((await read(bookmark)) !== name) stale += 1;
    }
    console.log(
      `stale-loop (Worker): ${ops} write-then-read operations (REST, MCP stateless, MCP session) in ${Date.now() - started} ms: ` +
        `${stale} stale with bookmark; ${staleWithout} of ${controls} control reads without bookmark were stale`,
    );
    expect(stale).toBe(0);
    // The replica lags: reads that ignore the bookmark do see old data.
    expect(staleWithout).toBe(controls);
  });

  it('none in STALE_OPS mixed domain writes and reads, each on its own session', async () => {
    const ops = Number(env.STALE_OPS ?? '30');
    const d1 = databaseOf(env);
    const tenant = asActor(await makeCompany());
    const catalog = await makeCatalog(tenant);
    const product = await makeProduct(tenant, catalog.catalogId, { name: 'start' });
    await syncReplica(env.DB, env.DB_REPLICA_SIM!);
    const base = { departmentId: tenant.departmentId, catalogId: catalog.catalogId };
    const name = async (bookmark: string | null, productId: string) => {
      try {
        return (await getProduct(openSession(d1, bookmark).db, tenant, productId)).name;
      } catch {
        return undefined;
      }
    };
    const writes = [
      async (db: Database, value: string) => {
        await updateProduct(db, tenant, { ...base, productId: product.productId, name: value });
        return product.productId;
      },
      async (db: Database, value: string) => {
        await setValue(db, tenant, {
          departmentId: tenant.departmentId,
          elementId: product.productId,
          field: 'name',
          value,
        });
        return product.productId;
      },
      async (db: Database, value: string) =>
        (await addProduct(db, tenant, { ...base, name: value, sku: `ADD-${value}` })).productId,
    ];
    let held: string | null = null;
    let stale = 0;
    let staleWithout = 0;
    let controls = 0;
    const started = Date.now();
    for (let i = 0; i < ops; i++) {
      if (i > 0 && i % 1000 === 0) console.log(`stale-loop (sessions): ${i} operations, ${stale} stale with bookmark`);
      const value = `v-${i}`;
      const request = openSession(d1, held);
      const productId = await writes[i % writes.length]!(request.db, value);
      const bookmark = request.bookmark();
      held = newerBookmark(held, bookmark);
      if (i % 5 === 0) {
        controls += 1;
        if ((await name(null, productId)) !== value) staleWithout += 1;
      }
      if ((await name(bookmark, productId)) !== value) stale += 1;
    }
    console.log(
      `stale-loop (sessions): ${ops} write-then-read operations (UpdateProduct, SetValue, AddProduct) in ${Date.now() - started} ms: ` +
        `${stale} stale with bookmark; ${staleWithout} of ${controls} control reads without bookmark were stale`,
    );
    expect(stale).toBe(0);
    expect(staleWithout).toBe(controls);
  });
});
