import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { forgetPlacements } from '../src/db/cells';
import { companyCells } from '../src/db/schema';
import { signedMediaUrl } from '../src/media/signed-url';
import { cellD1, hasRow, placeInCell } from './helpers/cells';
import { waitForJob } from './helpers/completeness';
import { db, makeCompany, makeUser } from './helpers/factories';
import { call, loginAs, ORIGIN } from './helpers/http';
import { callTool, mcp, MODERN_VERSION, openSession } from './mcp-helpers';
import { send, tokensFor } from './oauth-helpers';

/** A user of a fresh company placed in `cell` (or left in cell-1), with a web session and an MCP token. */
async function tenantIn(cell: 'cell-1' | 'cell-2' | 'cell-3') {
  const company = await makeCompany();
  const user = await makeUser(company, { aiSwitch: true });
  if (cell !== 'cell-1') await placeInCell(company.companyId, cell);
  const cookie = await loginAs(user.email);
  const { access_token: token } = await tokensFor({ session: cookie }, { scope: 'api mcp' });
  const catalog = await call('POST', '/api/Catalog/AddCatalog', {
    cookie,
    body: { departmentId: company.departmentId, name: `Catalog in ${cell}` },
  });
  expect(catalog.status, catalog.text).toBe(200);
  const product = await call('POST', '/api/Catalog/AddProduct', {
    cookie,
    body: { departmentId: company.departmentId, catalogId: catalog.json.catalogId, sku: `SKU-${cell}`, name: cell },
  });
  expect(product.status, product.text).toBe(200);
  return {
    ...user,
    cookie,
    token,
    catalogId: catalog.json.catalogId as string,
    productId: product.json.productId as string,
  };
}

const modernCall = (token: string, name: string, args: Record<string, unknown>) =>
  mcp('POST', {
    token,
    version: MODERN_VERSION,
    headers: { 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'cells-test', version: '1.0.0' },
        },
      },
    },
  });

describe('tenant cells', () => {
  it('writes a company in cell-2 to cell-2 only, and a cell-1 company to cell-1 only', async () => {
    const a = await tenantIn('cell-1');
    const b = await tenantIn('cell-2');
    expect(await hasRow(env.DB, 'products', a.productId)).toBe(true);
    expect(await hasRow(env.CELL_2, 'products', a.productId)).toBe(false);
    expect(await hasRow(env.CELL_2, 'products', b.productId)).toBe(true);
    expect(await hasRow(env.DB, 'products', b.productId)).toBe(false);
    expect(await hasRow(env.CELL_3, 'products', b.productId)).toBe(false);
    expect(await hasRow(env.CELL_2, 'catalogs', b.catalogId)).toBe(true);
    expect(await hasRow(env.DB, 'catalogs', b.catalogId)).toBe(false);
  });

  it("never resolves another cell's ids: 404 on REST, /api/ai and MCP (session and stateless)", async () => {
    const a = await tenantIn('cell-1');
    const b = await tenantIn('cell-2');
    for (const [asker, owner] of [
      [b, a],
      [a, b],
    ] as const) {
      const rest = await call('GET', `/api/Catalog/GetProduct?productId=${owner.productId}`, { cookie: asker.cookie });
      expect(rest.status, rest.text).toBe(404);
      const own = await call('GET', `/api/Catalog/GetProduct?productId=${asker.productId}`, { cookie: asker.cookie });
      expect(own.status, own.text).toBe(200);
      const catalog = await call('GET', `/api/Catalog/GetCatalog?catalogId=${owner.catalogId}`, {
        cookie: asker.cookie,
      });
      expect(catalog.status).toBe(404);
      const history = await send('GET', `/api/ai/GetHistory?elementId=${owner.productId}`, { token: asker.token });
      expect(history.status, history.text).toBe(404);
      const ownHistory = await send('GET', `/api/ai/GetHistory?elementId=${asker.productId}`, { token: asker.token });
      expect(ownHistory.status, ownHistory.text).toBe(200);
      const { sessionId } = await openSession(asker.token);
      const viaSession = await callTool(asker.token, sessionId, 'get_product', { productId: owner.productId });
      expect(viaSession.isError).toBe(true);
      expect(viaSession.content[0]!.text).toContain('not found');
      const ownViaSession = await callTool(asker.token, sessionId, 'get_product', { productId: asker.productId });
      expect(ownViaSession.isError).toBeFalsy();
      const stateless = await modernCall(asker.token, 'get_product', { productId: owner.productId });
      expect(stateless.status, stateless.text).toBe(200);
      expect(stateless.messages[0].result.isError).toBe(true);
      const ownStateless = await modernCall(asker.token, 'get_product', { productId: asker.productId });
      expect(ownStateless.messages[0].result.isError).toBeFalsy();
    }
  });

  it("names the cell in the bookmark and reads a cell's own bookmark back", async () => {
    const b = await tenantIn('cell-3');
    const write = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: b.cookie,
      body: {
        productId: b.productId,
        departmentId: b.departmentId,
        catalogId: b.catalogId,
        sku: 'SKU-cell-3',
        name: 'renamed',
      },
    });
    expect(write.status, write.text).toBe(200);
    const bookmark = write.headers.get('x-d1-bookmark');
    expect(bookmark).toMatch(/^cell-3:./);
    const read = await call('GET', `/api/Catalog/GetProduct?productId=${b.productId}`, {
      cookie: b.cookie,
      headers: { 'x-d1-bookmark': bookmark! },
    });
    expect(read.status).toBe(200);
    expect(read.json.name).toBe('renamed');
    // Another cell's bookmark (or a bare one) is not passed to this cell's database.
    const foreign = await call('GET', `/api/Catalog/GetProduct?productId=${b.productId}`, {
      cookie: b.cookie,
      headers: { 'x-d1-bookmark': 'cell-2:00000000-ffffffff' },
    });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('x-d1-bookmark')).toMatch(/^cell-3:/);
  });

  it('runs a queued job of a cell-2 company in cell-2', async () => {
    const b = await tenantIn('cell-2');
    const started = await call('POST', '/api/Export/StartExport', {
      cookie: b.cookie,
      body: { departmentId: b.departmentId, catalogId: b.catalogId, exportType: 'CSV' },
    });
    expect(started.status, started.text).toBe(200);
    expect(await hasRow(env.CELL_2, 'jobs', started.json.jobId)).toBe(true);
    expect(await hasRow(env.DB, 'jobs', started.json.jobId)).toBe(false);
    const job = await waitForJob(b.cookie, started.json.jobId);
    expect(job.state, job.error).toBe('succeeded');
  });

  it("serves a cell-2 company's signed media link, which names no company (the route looks it up cell by cell)", async () => {
    const b = await tenantIn('cell-2');
    const upload = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Media/Upload?departmentId=${b.departmentId}&elementId=${b.productId}&fileName=a.png`, {
        method: 'POST',
        headers: { Cookie: b.cookie, 'Content-Type': 'image/png' },
        body: new Uint8Array([137, 80, 78, 71, 1, 2, 3]),
      }),
    );
    expect(upload.status).toBe(200);
    const { mediaId } = (await upload.json()) as { mediaId: string };
    expect(await hasRow(env.CELL_2, 'media', mediaId)).toBe(true);
    expect(await hasRow(env.DB, 'media', mediaId)).toBe(false);
    const expires = Math.floor(Date.now() / 1000) + 600;
    const url = await signedMediaUrl(env.MEDIA_URL_KEY, ORIGIN, mediaId, expires);
    const served = await exports.default.fetch(new Request(url));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71, 1, 2, 3]));
    const unknown = await signedMediaUrl(env.MEDIA_URL_KEY, ORIGIN, crypto.randomUUID(), expires);
    expect((await exports.default.fetch(new Request(unknown))).status).toBe(404);
  });

  it("refuses a moving company's writes with 503 and Retry-After, and serves its reads", async () => {
    const b = await tenantIn('cell-2');
    await db().update(companyCells).set({ state: 'moving' }).where(eq(companyCells.companyId, b.companyId));
    forgetPlacements();
    try {
      const write = await call('POST', '/api/Catalog/UpdateProduct', {
        cookie: b.cookie,
        body: {
          productId: b.productId,
          departmentId: b.departmentId,
          catalogId: b.catalogId,
          sku: 'SKU-cell-2',
          name: 'during the move',
        },
      });
      expect(write.status).toBe(503);
      expect(write.headers.get('Retry-After')).toBe('30');
      expect(write.json.error).toMatch(/moving/);
      const read = await call('GET', `/api/Catalog/GetProduct?productId=${b.productId}`, { cookie: b.cookie });
      expect(read.status).toBe(200);
      expect(read.json.name).toBe('cell-2');
      const stored = await cellD1('cell-2').prepare('SELECT name FROM products WHERE id = ?').bind(b.productId).first();
      expect(stored).toEqual({ name: 'cell-2' });
    } finally {
      await db().update(companyCells).set({ state: 'active' }).where(eq(companyCells.companyId, b.companyId));
      forgetPlacements();
    }
  });
});
