import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectorCall, inventoryOf, pimQuery, startConnector, startProxy, type FaultProxy } from './sync-harness';

/**
 * The sync against both real Workers (docs/sync.md): the PIM of the global setup and a
 * connector `wrangler dev`, with a fault-injecting proxy between them. The steps build on each
 * other (first sync, no-op, change, delete, replay, 503, dry run), so they run in order.
 * A PIM killed mid-run is test/e2e/sync-recovery.e2e.test.ts (its own PIM, killed and restarted).
 */
const base = () => inject('baseUrl');
const persistDir = () => inject('persistDir');
const SALES = '0190a000-0000-7000-8000-000000000011';
const DEMO_COMPANY = '0190a000-0000-7000-8000-000000000001';

let connector: Awaited<ReturnType<typeof startConnector>>;
let proxy: FaultProxy;
let cookie: string;

async function api(path: string, body?: unknown) {
  const res = await fetch(`${base()}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function sync(connectionId: string, options: { dryRun?: boolean; confirmDeactivations?: boolean } = {}) {
  const { jobId } = await api('/api/Sync/StartSync', { departmentId: SALES, connectionId, ...options });
  for (let i = 0; i < 240; i++) {
    const job = await api(`/api/Job/GetJob?jobId=${jobId}`);
    if (job.state !== 'queued' && job.state !== 'running') return job;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('sync did not finish');
}

function mastersOf(catalogId: string): { sku: string; fingerprint: string }[] {
  return pimQuery(
    persistDir(),
    `SELECT sku, fingerprint FROM products WHERE catalog_id = '${catalogId}' AND parent_id IS NULL AND sku IS NOT NULL ORDER BY sku`,
  ).map(([sku, fingerprint]) => ({ sku: sku!, fingerprint: fingerprint! }));
}

async function status() {
  return JSON.parse((await connectorCall(connector.server.baseUrl, 'GET', '/status')).text);
}

beforeAll(async () => {
  connector = await startConnector();
  proxy = await startProxy(connector.server.baseUrl);
  const login = await fetch(`${base()}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@demo.test', password: 'demo-password-1' }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  connector?.stop();
});

describe('sync between the PIM and the connector Worker', () => {
  let demoCatalogId: string;
  let own: { catalogId: string; connectionId: string; products: Record<string, string> };

  it('the seeded Demo-Shop connection syncs its catalog: every master with the PIM fingerprint, every image once', async () => {
    const demo = (await api('/api/Sync/GetConnections')).items.find((c: any) => c.name === 'Demo-Shop');
    expect(demo).toMatchObject({ keyId: 'demo', hasSecret: true, connectorUrl: 'http://127.0.0.1:8788' });
    demoCatalogId = demo.catalogId;
    await api('/api/Sync/UpdateConnection', {
      ...demo,
      connectorUrl: proxy.url,
      connectionId: demo.connectionId,
      departmentId: demo.departmentId,
      lastRun: undefined,
      hasSecret: undefined,
      targetResetPending: undefined,
      nextRunAt: undefined,
      createdAt: undefined,
      updatedAt: undefined,
    });
    expect(
      await api('/api/Sync/TestConnection', { departmentId: SALES, connectionId: demo.connectionId }),
    ).toMatchObject({ ok: true, status: 200 });

    const job = await sync(demo.connectionId);
    const masters = mastersOf(demoCatalogId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.result.report).toMatchObject({ created: masters.length, updated: 0, quarantined: [] });
    expect(await inventoryOf(connector.server.baseUrl)).toEqual(masters);

    const hashes = pimQuery(
      persistDir(),
      `SELECT COUNT(DISTINCT m.sha256) FROM media m JOIN products p ON p.id = m.element_id WHERE p.catalog_id = '${demoCatalogId}'`,
    )[0]![0];
    let media: any;
    for (let i = 0; i < 120; i++) {
      media = (await status()).media;
      if (media.pending === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(media).toEqual({ stored: Number(hashes), pending: 0, failed: 0 });
  });

  it('a second connection takes over the shop only with confirmDeactivations (guardrail), then a no-op run sends nothing', async () => {
    const catalog = await api('/api/Catalog/AddCatalog', { departmentId: SALES, name: 'E2E Sync' });
    const products: Record<string, string> = {};
    for (const sku of ['E2E-A', 'E2E-B', 'E2E-C', 'E2E-D']) {
      const p = await api('/api/Catalog/AddProduct', {
        departmentId: SALES,
        catalogId: catalog.catalogId,
        sku,
        name: `Product ${sku}`,
        unit: 'C62',
        price: '9.90',
      });
      products[sku] = p.productId;
    }
    const connection = await api('/api/Sync/AddConnection', {
      departmentId: SALES,
      catalogId: catalog.catalogId,
      name: 'E2E-Shop',
      connectorUrl: proxy.url,
      keyId: 'demo',
      secret: 'demo-connector-secret-1',
      options: { missing: 'deactivate', maxDeactivationPercent: 30, schedule: null, defaultTaxCode: 'DE-19' },
    });
    own = { catalogId: catalog.catalogId, connectionId: connection.connectionId, products };

    const refused = await sync(own.connectionId);
    expect(refused.state).toBe('failed');
    expect(refused.error).toMatch(/would deactivate \d+ of \d+ products/);
    expect((await inventoryOf(connector.server.baseUrl)).length).toBe(mastersOf(demoCatalogId).length + 4);

    const confirmed = await sync(own.connectionId, { confirmDeactivations: true });
    expect(confirmed.state, confirmed.error).toBe('succeeded');
    expect(confirmed.result.report.deactivated).toBe(mastersOf(demoCatalogId).length);
    expect(await inventoryOf(connector.server.baseUrl)).toEqual(mastersOf(own.catalogId));

    const before = proxy.upserts.length;
    const noop = await sync(own.connectionId);
    expect(noop.result.report).toMatchObject({
      created: 0,
      updated: 0,
      skipped: 4,
      deactivated: 0,
      batches: { sent: 0 },
    });
    expect(proxy.upserts.length).toBe(before);
  });

  it('one changed product sends exactly one update; a deleted one is deactivated', async () => {
    await api('/api/Catalog/SetValue', {
      departmentId: SALES,
      elementId: own.products['E2E-B'],
      field: 'name',
      value: 'Renamed in the PIM',
    });
    const changed = await sync(own.connectionId);
    expect(changed.result.report).toMatchObject({ created: 0, updated: 1, skipped: 3, deactivated: 0 });
    expect(JSON.parse(proxy.upserts.at(-1)!).records.map((r: any) => [r.op, r.sku])).toEqual([['update', 'E2E-B']]);
    expect(await inventoryOf(connector.server.baseUrl)).toEqual(mastersOf(own.catalogId));

    await api('/api/Catalog/DeleteProduct', { departmentId: SALES, productId: own.products['E2E-D'] });
    const deleted = await sync(own.connectionId);
    expect(deleted.result.report).toMatchObject({ deactivated: 1, skipped: 3 });
    expect((await inventoryOf(connector.server.baseUrl)).map((l) => l.sku)).toEqual(['E2E-A', 'E2E-B', 'E2E-C']);
  });

  it('a replayed batch is answered from the store and writes nothing twice', async () => {
    const last = proxy.upserts.at(-1)!;
    const before = await status();
    const replay = await connectorCall(connector.server.baseUrl, 'POST', '/upsert', last);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await status()).toEqual(before);
  });

  it('a 503 from the shop is retried after Retry-After and the run succeeds', async () => {
    await api('/api/Catalog/SetValue', {
      departmentId: SALES,
      elementId: own.products['E2E-A'],
      field: 'name',
      value: 'Changed again',
    });
    proxy.failNext = 1;
    const job = await sync(own.connectionId);
    expect(proxy.injected).toBe(1);
    expect(job.state).toBe('succeeded');
    expect(job.result.report).toMatchObject({ updated: 1, batches: { sent: 1, retried: 1 } });
    expect(await inventoryOf(connector.server.baseUrl)).toEqual(mastersOf(own.catalogId));
  });

  it('a dry run reports the plan and changes nothing in the shop or the PIM', async () => {
    await api('/api/Catalog/SetValue', {
      departmentId: SALES,
      elementId: own.products['E2E-C'],
      field: 'name',
      value: 'Planned change',
    });
    const inventory = await inventoryOf(connector.server.baseUrl);
    const shopStatus = await status();
    const dry = await sync(own.connectionId, { dryRun: true });
    expect(dry.result.report).toMatchObject({ updated: 1, plan: { create: [], update: ['E2E-C'], deactivate: [] } });
    expect(await inventoryOf(connector.server.baseUrl)).toEqual(inventory);
    expect(await status()).toEqual(shopStatus);
    const runs = await api(`/api/Sync/GetRuns?connectionId=${own.connectionId}&limit=2`);
    expect(runs.items[0]).toMatchObject({ jobId: dry.jobId, dryRun: true, state: 'succeeded' });
    expect(
      pimQuery(persistDir(), `SELECT COUNT(*) FROM sync_connections WHERE company_id = '${DEMO_COMPANY}'`)[0]![0],
    ).toBe('2');
  });
});
