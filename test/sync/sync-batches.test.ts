import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products, syncRunItems } from '../../src/db/schema';
import { deleteProduct } from '../../src/catalog/products';
import { setValue } from '../../src/catalog/values';
import { addAttribute } from '../../src/catalog/attributes';
import { FakeConnector } from '../helpers/fake-connector';
import { asActor, db, makeCategory } from '../helpers/factories';
import { addImage, connect, jobRow, product, runSync, runToEnd, syncDeps, syncSetup } from '../helpers/sync-fixtures';

const fingerprintOf = async (productId: string) =>
  (await db().query.products.findFirst({ where: eq(products.id, productId) }))!.fingerprint!;

describe('sync run: batches, quarantine and retries', () => {
  it('quarantines records refused with 422 and resends the rest; the next run retries them', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B', 'C']) await product(setup, sku);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.faults.refuse = new Set(['B']);
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report).toMatchObject({
      created: 2,
      quarantinedCount: 1,
      quarantined: [{ sku: 'B', reason: 'name: refused by the shop' }],
    });
    expect(fake.upserts.map((u) => u.batchId)).toEqual([`${run.jobId}:0`, `${run.jobId}:0:1`]);
    expect(fake.upserts[1]!.records.map((r) => r.sku)).toEqual(['A', 'C']);

    fake.faults = {};
    const next = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(next.report).toMatchObject({ created: 1, skipped: 2, quarantined: [] });
  });

  it('quarantines a record whose manufacturer, unit or tax has no mapping before sending it', async () => {
    const setup = await syncSetup();
    await product(setup, 'OK');
    await product(setup, 'NO-MFR', { manufacturerName: 'Unknown GmbH' });
    await product(setup, 'NO-UNIT', { unit: 'XYZ' });
    const taxed = await product(setup, 'NO-TAX');
    await addAttribute(db(), asActor(setup.company), { code: 'tax_code', name: 'Tax code', type: 'text' });
    await setValue(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: taxed.productId,
      field: 'tax_code',
      value: 'FR20',
    });
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report.quarantined).toEqual([
      { sku: 'NO-MFR', reason: 'manufacturer "unknown gmbh" has no mapping in the shop' },
      { sku: 'NO-TAX', reason: 'tax code "FR20" has no mapping in the shop' },
      { sku: 'NO-UNIT', reason: 'unit "XYZ" has no mapping in the shop' },
    ]);
    expect(fake.upserts.flatMap((u) => u.records.map((r) => r.sku))).toEqual(['OK']);
  });

  it('retries 503 answers after their Retry-After and counts the retries', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.faults.overload = { status: 503, count: 2, retryAfter: '3' };
    const { deps, sleeps } = syncDeps(fake);
    const run = await runSync(setup, connection.connectionId, deps);
    expect(run.report).toMatchObject({ created: 1, batches: { sent: 1, retried: 2 } });
    expect(sleeps).toEqual([3000, 3000]);
    expect(fake.writes).toBe(1);
  });

  it('fails the run with a clear reason when the connector stays overloaded', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.faults.overload = { status: 429, count: 99 };
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.job.state).toBe('failed');
    expect(run.job.error).toBe('the connector did not take a batch after 6 tries (last: HTTP 429)');
    expect(fake.writes).toBe(0);
  });

  it('resends a batch whose answer was lost under the same id, and the shop writes it once', async () => {
    const setup = await syncSetup();
    for (const sku of ['A', 'B']) await product(setup, sku);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    let dropped = 0;
    const lossy = async (request: Request) => {
      const response = await fake.fetch(request);
      if (new URL(request.url).pathname.endsWith('/upsert') && dropped++ === 0) throw new Error('connection reset');
      return response;
    };
    const run = await runSync(setup, connection.connectionId, syncDeps(fake, { fetcher: lossy }).deps);
    expect(run.report).toMatchObject({ created: 2, batches: { sent: 1, retried: 1 } });
    expect(fake.upserts.map((u) => u.batchId)).toEqual([`${run.jobId}:0`, `${run.jobId}:0`]);
    expect(fake.writes).toBe(2);
  });

  it('a run killed while a batch was in flight resends the stored bytes on resume and the shop writes once', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'A');
    await product(setup, 'B');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const dying = async (request: Request) => {
      const response = await fake.fetch(request);
      if (new URL(request.url).pathname.endsWith('/upsert')) throw new Error('connection reset');
      return response;
    };
    const killed = syncDeps(fake, {
      fetcher: dying,
      sleep: async () => {
        throw new Error('worker killed');
      },
    }).deps;
    const { startSync } = await import('../../src/sync/start-sync');
    const { runSyncSlice } = await import('../../src/sync/run-sync');
    const { jobId } = await startSync(
      { db: db(), queue: { send: async () => undefined } as never },
      setup.caller,
      {
        departmentId: setup.company.departmentId,
        connectionId: connection.connectionId,
        dryRun: false,
        confirmDeactivations: false,
      },
      'http://pim.test',
    );
    await expect(runSyncSlice(killed, await jobRow(jobId))).rejects.toThrow('worker killed');
    expect(fake.writes).toBe(2);
    // A change between the crash and the resume must not alter the batch being resent.
    await setValue(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: a.productId,
      field: 'name',
      value: 'Changed meanwhile',
    });

    const resumed = await runToEnd(syncDeps(fake).deps, jobId);
    expect(resumed.state).toBe('succeeded');
    expect(fake.upserts.map((u) => u.batchId)).toEqual([`${jobId}:0`, `${jobId}:0`]);
    expect(fake.writes).toBe(2);
    const next = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(next.report).toMatchObject({ updated: 1, skipped: 1 });
  });

  it('numbers batches by position: <jobId>:<n>, at most batchSize records each', async () => {
    const setup = await syncSetup();
    for (let i = 0; i < 7; i++) await product(setup, `S-${i}`);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    for (const sku of ['R-1', 'R-2']) fake.seed(sku, 'x');
    const run = await runSync(setup, connection.connectionId, syncDeps(fake, { batchSize: 3 }).deps, {
      confirmDeactivations: true,
    });
    expect(run.report).toMatchObject({ created: 7, deactivated: 2, batches: { sent: 4 } });
    expect(fake.upserts.map((u) => u.batchId)).toEqual([0, 1, 2, 3].map((n) => `${run.jobId}:${n}`));
    expect(fake.upserts.map((u) => u.records.length)).toEqual([3, 3, 1, 2]);
    expect((await env.FILES.list({ prefix: `sync/${run.jobId}/` })).objects).toEqual([]);
  });

  it('continues across queue messages from the checkpoint when a slice runs out of time', async () => {
    const setup = await syncSetup();
    for (let i = 0; i < 5; i++) await product(setup, `S-${i}`);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    for (const sku of ['R-1', 'S-2']) fake.seed(sku, 'x');
    const { deps, sent } = syncDeps(fake, { sliceMs: 0 });
    const run = await runSync(setup, connection.connectionId, deps, { confirmDeactivations: true });
    expect(run.report).toMatchObject({ created: 4, updated: 1, deactivated: 1 });
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.every((m) => m.jobId === run.jobId)).toBe(true);
    expect(fake.writes).toBe(6);
    expect(fake.inventory().map((l) => l.sku)).toEqual(['S-0', 'S-1', 'S-2', 'S-3', 'S-4']);
  });
});

describe('sync run: dry runs and fingerprints', () => {
  it('a dry run plans creates, updates and deactivations and writes nothing anywhere', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'A');
    await product(setup, 'B');
    const connection = await connect(setup, { maxDeactivationPercent: 100 });
    const fake = new FakeConnector();
    fake.seed('A', 'old');
    fake.seed('GONE', 'old');
    await db().update(products).set({ fingerprintRevision: -1 }).where(eq(products.id, a.productId));
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps, { dryRun: true });
    expect(run.job.state).toBe('succeeded');
    expect(run.report).toMatchObject({
      created: 1,
      updated: 1,
      deactivated: 1,
      plan: { create: ['B'], update: ['A'], deactivate: ['GONE'], truncated: false },
    });
    expect(fake.writes).toBe(0);
    expect(fake.upserts.every((u) => u.dryRun)).toBe(true);
    expect(fake.inventory()).toEqual([
      { sku: 'A', fingerprint: 'old' },
      { sku: 'GONE', fingerprint: 'old' },
    ]);
    expect((await db().query.products.findFirst({ where: eq(products.id, a.productId) }))!.fingerprintRevision).toBe(
      -1,
    );
  });

  it('repairs a stale fingerprint before comparing it', async () => {
    const setup = await syncSetup();
    const a = await product(setup, 'A');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    const good = await fingerprintOf(a.productId);
    await db()
      .update(products)
      .set({ fingerprint: 'stale', fingerprintRevision: -1 })
      .where(eq(products.id, a.productId));
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report).toMatchObject({ skipped: 1, updated: 0 });
    expect(await fingerprintOf(a.productId)).toBe(good);
  });
});
