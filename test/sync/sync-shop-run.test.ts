import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncConnections } from '../../src/db/schema';
import { setReferences } from '../../src/catalog/references/references';
import type { JobMessage } from '../../src/env';
import { runSyncSlice } from '../../src/sync/run-sync';
import { startSync } from '../../src/sync/start-sync';
import { testConnection } from '../../src/sync/test-connection';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeCatalog } from '../helpers/factories';
import {
  BASE_URL,
  connect,
  jobRow,
  product,
  runSync,
  runToEnd,
  SHOPWARE,
  syncDeps,
  syncSetup,
  type Setup,
} from '../helpers/sync-fixtures';

const targetCalls = (fake: FakeConnector) => fake.log.filter((l) => l.includes('/target'));

describe('sync run against a shop', () => {
  it('sends PUT /target with the decrypted settings before anything else, once per run', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B', 'C']) await product(setup, sku);
    const connection = await connect(setup, {}, { shop: { ...SHOPWARE, mapping: { currency: 'CHF' } } });
    const fake = new FakeConnector();
    // Time is up after every master: the run takes several slices, and sends its settings once.
    const { deps, sent } = syncDeps(fake, { sliceMs: -1 });
    const run = await runSync(setup, connection.connectionId, deps);
    expect(run.report).toMatchObject({ created: 3 });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(fake.log[0]).toBe('PUT /pim-connector/target');
    expect(fake.log.indexOf('GET /pim-connector/mappings')).toBe(1);
    expect(targetCalls(fake)).toEqual(['PUT /pim-connector/target']);
    expect(fake.target).toEqual({
      kind: 'shopware',
      url: 'https://shop.example',
      credentials: SHOPWARE.credentials,
      mapping: { currency: 'CHF' },
    });
  });

  it('sends the settings again when a resumed run finds them changed', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B', 'C']) await product(setup, sku);
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake, { sliceMs: -1 });
    const { jobId } = await startSync(
      { db: db(), queue: { send: async () => undefined } as unknown as Queue<JobMessage> },
      setup.caller,
      {
        departmentId: setup.company.departmentId,
        connectionId: connection.connectionId,
        dryRun: false,
        confirmDeactivations: false,
      },
      BASE_URL,
    );
    expect(await runSyncSlice(deps, await jobRow(jobId))).toBe('continued');
    expect(targetCalls(fake)).toHaveLength(1);
    await db()
      .update(syncConnections)
      .set({ shop: { kind: 'shopware', url: 'https://shop.example', mapping: { pricesIncludeTax: true } } })
      .where(eq(syncConnections.id, connection.connectionId));
    const row = await runToEnd(deps, jobId);
    expect(row.state).toBe('succeeded');
    expect(targetCalls(fake)).toHaveLength(2);
    expect(fake.target).toMatchObject({ mapping: { pricesIncludeTax: true }, credentials: SHOPWARE.credentials });
  });

  it('leaves the connector target alone for a connection without a shop', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(targetCalls(fake)).toEqual([]);
    expect(fake.target).toBeNull();
  });

  it('quarantines the records the shop refused with its reason and counts the rest; the next run sends them again', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B', 'C']) await product(setup, sku);
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = new FakeConnector();
    fake.remote = true;
    fake.shopRefuses.set('B', { field: 'product.name', error: 'Title is too long' });
    const first = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(first.job.state).toBe('succeeded');
    expect(first.report).toMatchObject({
      created: 2,
      updated: 0,
      quarantined: [{ sku: 'B', reason: 'product.name: Title is too long' }],
      quarantinedCount: 1,
      batches: { sent: 1 },
    });
    expect(fake.inventory().map((l) => l.sku)).toEqual(['A', 'C']);
    fake.shopRefuses.clear();
    const second = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(second.report).toMatchObject({ created: 1, skipped: 2, quarantinedCount: 0 });
    expect(fake.inventory().map((l) => l.sku)).toEqual(['A', 'B', 'C']);
  });

  it('reports what a dry run would change, product by product', async () => {
    const setup = await syncSetup();
    await product(setup, 'A', {}, true);
    await product(setup, 'B');
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = new FakeConnector();
    fake.remote = true;
    // How the shop would resolve B's references by manufacturer number.
    const resolved = [
      { type: 'accessories', number: 'N-1', sku: 'A' },
      { type: 'accessories', number: 'N-2', sku: null },
    ];
    fake.resolvedReferences.set('B', resolved);
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps, { dryRun: true });
    expect(run.report).toMatchObject({
      created: 2,
      plan: { create: ['A', 'B'] },
      changes: [
        { sku: 'A', op: 'create', fields: ['name', 'variants.A-V1'] },
        { sku: 'B', op: 'create', fields: ['name'], references: resolved },
      ],
      changesCount: 2,
    });
    expect(run.report.changes![0]).not.toHaveProperty('references');
    expect(fake.writes).toBe(0);
    // A run against the reference store has no changes to report.
    const plain = await runSync(setup, (await connect(setup)).connectionId, syncDeps(new FakeConnector()).deps, {
      dryRun: true,
    });
    expect(plain.report.changes).toBeUndefined();
  });

  it('sends batches no larger than X-Max-Batch-Records and caches the limit with the mappings', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B', 'C', 'D', 'E']) await product(setup, sku);
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = new FakeConnector();
    fake.maxBatchRecords = 2;
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report).toMatchObject({ created: 5, batches: { sent: 3 } });
    expect(fake.upserts.map((u) => u.records.map((r) => r.sku))).toEqual([['A', 'B'], ['C', 'D'], ['E']]);
    const row = await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, connection.connectionId) });
    expect(row!.mappingsMaxBatchRecords).toBe(2);
  });
});

describe('record references', () => {
  it('carries the master references by target SKU, and none for a product without them', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'A');
    await product(setup, 'B');
    await setReferences(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      productId: a.productId,
      references: [
        { type: 'accessories', targetSku: 'B', quantity: 2 },
        { type: 'similar', targetSku: 'ELSEWHERE' },
      ],
    } as never);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect((fake.products.get('A')!.product as { references?: unknown }).references).toEqual([
      { type: 'accessories', sku: 'B', quantity: 2 },
      { type: 'similar', sku: 'ELSEWHERE', quantity: null },
    ]);
    expect(fake.products.get('B')!.product).not.toHaveProperty('references');
  });
});

async function shopTest(setup: Setup, shop: unknown, fake: FakeConnector) {
  const connection = await connect(setup, {}, { shop });
  return testConnection({ db: db(), fetcher: fake.fetch, encryptionKey: env.SYNC_ENCRYPTION_KEY }, setup.caller, {
    departmentId: setup.company.departmentId,
    connectionId: connection.connectionId,
  });
}

describe('TestConnection with a shop', () => {
  it('sends the settings, probes the shop and reads the mappings, and warns of nothing when all fits', async () => {
    const setup = await syncSetup();
    const fake = new FakeConnector();
    fake.probe = {
      name: 'Shopware 6.7',
      languages: ['de-DE', 'en-GB'],
      currencies: ['EUR'],
      details: { channels: '1' },
    };
    expect(await shopTest(setup, SHOPWARE, fake)).toEqual({
      ok: true,
      status: 200,
      mappings: { manufacturers: 2, units: 2, taxes: 2 },
      shop: { name: 'Shopware 6.7', languages: ['de-DE', 'en-GB'], currencies: ['EUR'], details: { channels: '1' } },
      warnings: [],
    });
    expect(fake.log).toEqual([
      'PUT /pim-connector/target',
      'POST /pim-connector/target/test',
      'GET /pim-connector/mappings',
    ]);
  });

  it("reports the shop's refusal in plain words and reads no mappings", async () => {
    const setup = await syncSetup();
    const fake = new FakeConnector();
    fake.probe = { status: 502, error: 'the shop refused: the client id or secret is wrong' };
    expect(await shopTest(setup, SHOPWARE, fake)).toEqual({
      ok: false,
      status: 502,
      mappings: null,
      error: 'the shop refused: the client id or secret is wrong',
      shop: null,
    });
    expect(fake.log).not.toContain('GET /pim-connector/mappings');
  });

  it('warns when a published language has no locale or one the shop does not offer', async () => {
    const setup = await syncSetup();
    const catalog = await makeCatalog(setup.company, { language: 'deu', languages: ['deu', 'fra', 'ita'] });
    setup.catalogId = catalog.catalogId;
    const fake = new FakeConnector();
    fake.probe = { name: 'Shopware', languages: ['de-DE', 'en-GB'], currencies: ['EUR'], details: {} };
    const answer = await shopTest(setup, SHOPWARE, fake);
    expect(answer).toMatchObject({ ok: true, shop: { name: 'Shopware' } });
    expect(answer.warnings).toEqual([
      '"fra" is mapped to "fr-FR", which the shop does not offer (it has de-DE, en-GB): its texts are lost',
      'the catalog publishes "ita" but the mapping has no locale for it: its texts are not sent',
    ]);
  });
});
