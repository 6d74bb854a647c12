/**
 * The surfaces of the stale-read loop (stale-loop.test.ts, `npm run bench:stale`): for a tenant
 * in one cell, each surface makes a write that gives a product a new name (or adds one) and
 * returns the bookmark it answered with and a read that can bring it back. A read returns the
 * name it saw (undefined when the product was not found), so a stale read is exact to detect.
 */
import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { makeCompany, makeUser } from '../helpers/factories';
import { call, loginAs } from '../helpers/http';
import { callTool, mcp, MODERN_VERSION, openSession } from '../mcp-helpers';
import { ORIGIN, tokensFor } from '../oauth-helpers';
import { allInSync, placeLagging } from './lag-cells';

const BOOKMARK = 'x-d1-bookmark';

export interface LagTenant {
  cell: 'cell-1' | 'cell-2';
  cookie: string;
  token: string;
  sessionId: string;
  departmentId: string;
  catalogId: string;
  productId: string;
  sku: string;
  /** When the token was issued: access tokens live 5 minutes, so a long loop takes new ones. */
  issued: number;
}

/** A company in `cell` with a web session, an `api mcp` token, an MCP session and one product. */
export async function lagTenant(cell: 'cell-1' | 'cell-2'): Promise<LagTenant> {
  const company = await makeCompany();
  const user = await makeUser(company, { aiSwitch: true });
  if (cell !== 'cell-1') await placeLagging(company.companyId, cell);
  await allInSync();
  const cookie = await loginAs(user.email);
  const { token, sessionId } = await agentAccess(cookie);
  const catalog = await call('POST', '/api/Catalog/AddCatalog', {
    cookie,
    body: { departmentId: company.departmentId, name: `Stale loop ${cell}` },
  });
  expect(catalog.status, catalog.text).toBe(200);
  const sku = `LOOP-${cell}`;
  const product = await call('POST', '/api/Catalog/AddProduct', {
    cookie,
    headers: { [BOOKMARK]: catalog.headers.get(BOOKMARK)! },
    body: { departmentId: company.departmentId, catalogId: catalog.json.catalogId, sku, name: 'start' },
  });
  expect(product.status, product.text).toBe(200);
  await allInSync();
  const { departmentId } = company;
  return {
    cell,
    cookie,
    token,
    sessionId,
    departmentId,
    catalogId: catalog.json.catalogId,
    productId: product.json.productId,
    sku,
    issued: Date.now(),
  };
}

async function agentAccess(cookie: string) {
  const { access_token: token } = await tokensFor({ session: cookie }, { scope: 'api mcp' });
  const { sessionId } = await openSession(token);
  return { token, sessionId };
}

/** A new token and MCP session once the old token is 4 minutes old (as a client refreshes it). */
export async function renewIfOld(t: LagTenant): Promise<void> {
  if (Date.now() - t.issued < 240_000) return;
  Object.assign(t, await agentAccess(t.cookie), { issued: Date.now() });
}

export interface Written {
  bookmark: string;
  /** The product's name as this surface reads it, with the write's bookmark or without. */
  read: (withBookmark: boolean) => Promise<string | undefined>;
}

export type Surface = (t: LagTenant, value: string) => Promise<Written>;

const withMark = (bookmark: string | undefined): Record<string, string> => (bookmark ? { [BOOKMARK]: bookmark } : {});

const agentFetch = (t: LagTenant, path: string, body?: unknown, bookmark?: string) =>
  exports.default.fetch(
    new Request(`${ORIGIN}/api/ai/${path}`, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json', ...withMark(bookmark) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );

const meta = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'stale-loop', version: '1.0.0' },
};

async function stateless(t: LagTenant, name: string, args: Record<string, unknown>, bookmark?: string) {
  const reply = await mcp('POST', {
    token: t.token,
    version: MODERN_VERSION,
    headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: { ...meta, ...withMark(bookmark) } },
    },
  });
  return reply.messages[0].result;
}

const restRead = (t: LagTenant, productId: string, bookmark: string) => async (withBookmark: boolean) => {
  const res = await call('GET', `/api/Catalog/GetProduct?productId=${productId}`, {
    cookie: t.cookie,
    headers: withMark(withBookmark ? bookmark : undefined),
  });
  return res.status === 200 ? (res.json.name as string) : undefined;
};

/** REST: UpdateProduct, then GetProduct. */
const rest: Surface = async (t, value) => {
  const w = await call('POST', '/api/Catalog/UpdateProduct', {
    cookie: t.cookie,
    body: { departmentId: t.departmentId, catalogId: t.catalogId, productId: t.productId, name: value },
  });
  if (w.status !== 200) throw new Error(`UpdateProduct answered ${w.status}: ${w.text}`);
  const bookmark = w.headers.get(BOOKMARK)!;
  return { bookmark, read: restRead(t, t.productId, bookmark) };
};

/** `/api/ai`: UpdateProduct, then GetProduct, with a bearer token. */
const ai: Surface = async (t, value) => {
  const w = await agentFetch(t, 'UpdateProduct', {
    departmentId: t.departmentId,
    catalogId: t.catalogId,
    productId: t.productId,
    name: value,
  });
  if (w.status !== 200) throw new Error(`/api/ai/UpdateProduct answered ${w.status}: ${await w.text()}`);
  const bookmark = w.headers.get(BOOKMARK)!;
  return {
    bookmark,
    read: async (withBookmark) => {
      const res = await agentFetch(
        t,
        `GetProduct?productId=${t.productId}`,
        undefined,
        withBookmark ? bookmark : undefined,
      );
      return res.status === 200 ? ((await res.json()) as { name: string }).name : undefined;
    },
  };
};

const upsert = (t: LagTenant, value: string) => ({
  departmentId: t.departmentId,
  catalogId: t.catalogId,
  items: [{ sku: t.sku, name: value }],
});

/** MCP without session (2026-07-28): upsert_products, then get_product with the bookmark in `_meta`. */
const mcpStateless: Surface = async (t, value) => {
  const w = await stateless(t, 'upsert_products', upsert(t, value));
  const bookmark = w._meta[BOOKMARK] as string;
  return {
    bookmark,
    read: async (withBookmark) =>
      (await stateless(t, 'get_product', { productId: t.productId }, withBookmark ? bookmark : undefined))
        .structuredContent?.name,
  };
};

/** MCP session: the Durable Object keeps the bookmark; the control read is a stateless call without one. */
const mcpSession: Surface = async (t, value) => {
  await callTool(t.token, t.sessionId, 'upsert_products', upsert(t, value));
  return {
    bookmark: 'session',
    read: async (withBookmark) =>
      withBookmark
        ? (await callTool(t.token, t.sessionId, 'get_product', { productId: t.productId })).structuredContent?.name
        : (await stateless(t, 'get_product', { productId: t.productId })).structuredContent?.name,
  };
};

/** The cell's primary itself: what a job did, watched without bringing any replica forward. */
const primaryOf = (t: LagTenant) => (t.cell === 'cell-1' ? env.DB : env.CELL_2);

/**
 * A job: REST AddProduct, then StartMassEdit of that new product with the write's bookmark. The
 * read with the bookmark is what the job saw: it waits for the job on the cell's primary and
 * answers the name only when the job succeeded and changed the product (a job that read a
 * stale replica finds no such product). The control read is REST GetProduct without bookmark.
 */
const job: Surface = async (t, value) => {
  const added = await call('POST', '/api/Catalog/AddProduct', {
    cookie: t.cookie,
    body: { departmentId: t.departmentId, catalogId: t.catalogId, sku: `JOB-${value}`, name: value },
  });
  if (added.status !== 200) throw new Error(`AddProduct answered ${added.status}: ${added.text}`);
  const bookmark = added.headers.get(BOOKMARK)!;
  const productId = added.json.productId as string;
  const control = restRead(t, productId, bookmark);
  return {
    bookmark,
    read: async (withBookmark) => {
      if (!withBookmark) return control(false);
      const started = await call('POST', '/api/Catalog/StartMassEdit', {
        cookie: t.cookie,
        headers: withMark(bookmark),
        body: {
          departmentId: t.departmentId,
          catalogId: t.catalogId,
          productIds: [productId],
          field: 'status',
          value: 'discontinued',
        },
      });
      if (started.status !== 200) return undefined;
      const db = primaryOf(t);
      for (let i = 0; i < 600; i++) {
        const row = await db
          .prepare('SELECT state FROM jobs WHERE id = ?')
          .bind(started.json.jobId)
          .first<{ state: string }>();
        if (row?.state === 'succeeded') break;
        if (row?.state === 'failed' || row?.state === 'cancelled') return undefined;
        await new Promise((r) => setTimeout(r, 25));
      }
      const final = await db
        .prepare('SELECT status, name FROM products WHERE id = ?')
        .bind(productId)
        .first<{ status: string; name: string }>();
      return final?.status === 'discontinued' ? final.name : undefined;
    },
  };
};

export const SURFACES = { rest, ai, mcpStateless, mcpSession, job } satisfies Record<string, Surface>;
