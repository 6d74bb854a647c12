import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { recoverStaleJobs } from '../../src/runners/recovery';
import { splitBatch, utf8Length } from '../../src/sync/batch-split';
import type { UpsertRecord } from '../../src/sync/protocol/wire';
import { runSyncSlice } from '../../src/sync/run-sync';
import { startSync } from '../../src/sync/start-sync';
import { FakeConnector } from '../helpers/fake-connector';
import { db } from '../helpers/factories';
import { connect, jobRow, product, runSync, runToEnd, syncDeps, syncSetup } from '../helpers/sync-fixtures';

const CAP = 4_000;

function record(sku: string, description: string): UpsertRecord {
  return { op: 'deactivate', sku, fingerprint: description };
}

async function shopEqualsPim(fake: FakeConnector, catalogId: string) {
  const masters = await db()
    .select({ sku: products.sku, fingerprint: products.fingerprint })
    .from(products)
    .where(eq(products.catalogId, catalogId))
    .orderBy(products.sku);
  expect(fake.inventory()).toEqual(masters);
}

async function leftovers(jobId: string): Promise<string[]> {
  return (await env.FILES.list({ prefix: `sync/${jobId}/` })).objects.map((o) => o.key);
}

describe('splitBatch', () => {
  it('cuts records into bodies of at most the byte cap, in order, with consecutive batch ids', () => {
    // Multi-byte text: the cap is in UTF-8 bytes, not in UTF-16 units.
    const records = Array.from({ length: 9 }, (_, i) => record(`S-${i}`, `Größe ✓ 😀 ${'ä'.repeat(300 + i * 40)}`));
    const { parts, oversize } = splitBatch({ jobId: 'job', firstNo: 7, dryRun: false }, records, 1_500);
    expect(oversize).toEqual([]);
    expect(parts.length).toBeGreaterThan(3);
    expect(parts.map((p) => p.batchId)).toEqual(parts.map((_, i) => `job:${7 + i}`));
    for (const part of parts) {
      expect(new TextEncoder().encode(part.body).length).toBe(utf8Length(part.body));
      expect(utf8Length(part.body)).toBeLessThanOrEqual(1_500);
      expect(part.body).toBe(JSON.stringify({ batchId: part.batchId, dryRun: false, records: part.records }));
    }
    expect(parts.flatMap((p) => p.records)).toEqual(records);
  });

  it('keeps one part when everything fits and returns a record that alone exceeds the cap', () => {
    const small = [record('A', 'x'), record('B', 'y')];
    const huge = record('C', 'z'.repeat(2_000));
    const { parts, oversize } = splitBatch({ jobId: 'job', firstNo: 0, dryRun: true }, [...small, huge], 1_000);
    expect(parts).toEqual([
      { batchId: 'job:0', body: JSON.stringify({ batchId: 'job:0', dryRun: true, records: small }), records: small },
    ]);
    expect(oversize).toEqual([huge]);
  });

  it("cuts at a shop's X-Max-Batch-Records as well as at the byte cap", () => {
    const records = ['A', 'B', 'C', 'D', 'E'].map((sku) => record(sku, 'x'));
    const { parts } = splitBatch({ jobId: 'job', firstNo: 3, dryRun: false }, records, 1_000_000, 2);
    expect(parts.map((p) => [p.batchId, p.records.map((r) => r.sku)])).toEqual([
      ['job:3', ['A', 'B']],
      ['job:4', ['C', 'D']],
      ['job:5', ['E']],
    ]);
    for (const part of parts)
      expect(part.body).toBe(JSON.stringify({ batchId: part.batchId, dryRun: false, records: part.records }));
  });
});

describe('sync batches capped by bytes', () => {
  it('splits a batch whose records exceed the byte cap into several /upsert bodies the connector takes', async () => {
    const setup = await syncSetup();
    for (let i = 0; i < 8; i++)
      await product(setup, `BY-${i}`, { description: `Beschreibung ${i} ${'ü'.repeat(600)}` });
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.maxBodyBytes = CAP;
    const { deps } = syncDeps(fake, { batchBytes: CAP });
    const run = await runSync(setup, connection.connectionId, deps);
    expect(run.row.state, run.row.error ?? '').toBe('succeeded');
    expect(run.report).toMatchObject({ created: 8, quarantinedCount: 0 });
    expect(fake.upserts.length).toBeGreaterThan(1);
    expect(run.report.batches.sent).toBe(fake.upserts.length);
    expect(fake.upserts.map((u) => u.batchId)).toEqual(fake.upserts.map((_, i) => `${run.jobId}:${i}`));
    expect(Math.max(...fake.upsertBytes)).toBeLessThanOrEqual(CAP);
    expect(fake.writes).toBe(8);
    await shopEqualsPim(fake, setup.catalogId);
    expect(await leftovers(run.jobId)).toEqual([]);

    const again = await runSync(setup, connection.connectionId, syncDeps(fake, { batchBytes: CAP }).deps);
    expect(again.report).toMatchObject({ skipped: 8, created: 0, updated: 0 });

    // Without the cap the same records go out as one body, which such a shop refuses.
    const strict = new FakeConnector();
    strict.maxBodyBytes = CAP;
    const uncapped = await runSync(setup, connection.connectionId, syncDeps(strict).deps);
    expect(uncapped.row.state).toBe('failed');
    expect(uncapped.row.error).toContain('413');
    expect(strict.writes).toBe(0);
  });

  it('a run that dies between the parts of a split batch resumes with the same ids and writes nothing twice', async () => {
    const setup = await syncSetup();
    for (let i = 0; i < 6; i++) await product(setup, `BR-${i}`, { description: 'ö'.repeat(900) });
    const connection = await connect(setup);
    const fake = new FakeConnector();
    fake.maxBodyBytes = CAP;
    let upserts = 0;
    // The Worker dies while the second part is in flight (after the shop committed it).
    const dying = syncDeps(fake, {
      batchBytes: CAP,
      fetcher: async (request) => {
        const response = await fake.fetch(request);
        if (new URL(request.url).pathname.endsWith('/upsert') && ++upserts === 2) throw new Error('connection reset');
        return response;
      },
      sleep: async () => {
        throw new Error('worker killed');
      },
    }).deps;
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
    await expect(runSyncSlice(dying, await jobRow(jobId))).rejects.toThrow('worker killed');
    const parts = (await leftovers(jobId)).length;
    expect(parts).toBeGreaterThanOrEqual(2);

    const later = new Date(Date.now() + 10 * 60_000);
    const queue = { send: async () => undefined } as never;
    expect(await recoverStaleJobs(db(), queue, later)).toMatchObject({ requeued: [jobId] });
    const finished = await runToEnd(syncDeps(fake, { batchBytes: CAP }).deps, jobId);
    expect(finished.state, finished.error ?? '').toBe('succeeded');
    const ids = fake.upserts.map((u) => u.batchId);
    expect(ids.slice(0, 3)).toEqual([`${jobId}:0`, `${jobId}:1`, `${jobId}:1`]);
    expect(new Set(ids).size).toBe(ids.length - 1);
    expect(fake.writes).toBe(6);
    await shopEqualsPim(fake, setup.catalogId);
    expect(await leftovers(jobId)).toEqual([]);
  });

  it('quarantines a record that alone exceeds the cap and sends the others', async () => {
    const setup = await syncSetup();
    await product(setup, 'BQ-1');
    await product(setup, 'BQ-2', { description: 'x'.repeat(CAP) });
    await product(setup, 'BQ-3');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const run = await runSync(setup, connection.connectionId, syncDeps(fake, { batchBytes: CAP }).deps);
    expect(run.row.state).toBe('succeeded');
    expect(run.report).toMatchObject({
      created: 2,
      quarantinedCount: 1,
      quarantined: [
        {
          sku: 'BQ-2',
          reason: `the record is larger than the connector accepts in one request (${CAP} bytes as JSON)`,
        },
      ],
    });
    expect(fake.inventory().map((l) => l.sku)).toEqual(['BQ-1', 'BQ-3']);
  });
});
