/**
 * Mixed write-then-read operations under the simulated lagging replica, each read bringing the
 * bookmark its write answered with: REST (UpdateProduct, then GetProduct), stateless MCP
 * (upsert_products, then get_product with the bookmark in `_meta`) and an MCP session (the
 * Durable Object keeps the bookmark). Every write gives the product a new name, so a stale read
 * is exact to detect. Every fifth operation also reads once without the bookmark, to show the
 * lag is real. `STALE_OPS` sets the count (small here; `npm run bench:stale` runs 10,000).
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { syncReplica } from '../../src/db/simulated-replica';
import { makeCatalog, makeProduct } from '../helpers/factories';
import { call } from '../helpers/http';
import { callTool, mcp, MODERN_VERSION, openSession } from '../mcp-helpers';
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
  it('none in mixed write-then-read operations that bring their bookmark', async () => {
    const ops = Number(env.STALE_OPS ?? '60');
    const user = await makeAgentUser({ aiSwitch: true });
    const catalog = await makeCatalog(user);
    const product = await makeProduct(user, catalog.catalogId, { name: 'start', sku: 'LOOP-1' });
    const { access_token: token } = await tokensFor(user, { scope: 'mcp' });
    await syncReplica(env.DB, env.DB_REPLICA_SIM!);
    const { sessionId } = await openSession(token);
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
      `stale-loop: ${ops} write-then-read operations (REST, MCP stateless, MCP session) in ${Date.now() - started} ms: ` +
        `${stale} stale with bookmark; ${staleWithout} of ${controls} control reads without bookmark were stale`,
    );
    expect(stale).toBe(0);
    // The replica lags: reads that ignore the bookmark do see old data.
    expect(staleWithout).toBe(controls);
  });
});
