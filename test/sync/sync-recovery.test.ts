import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import type { JobMessage } from '../../src/env';
import { recoverStaleJobs } from '../../src/runners/recovery';
import { runSyncSlice } from '../../src/sync/run-sync';
import { startSync } from '../../src/sync/start-sync';
import { FakeConnector } from '../helpers/fake-connector';
import { db } from '../helpers/factories';
import { connect, jobRow, product, runToEnd, syncDeps, syncSetup } from '../helpers/sync-fixtures';

describe('sync run recovery (job lease)', () => {
  it('a run whose Worker died is re-enqueued by the sweep, resumes from its checkpoint and ends with shop == PIM', async () => {
    const setup = await syncSetup();
    for (let i = 0; i < 6; i++) await product(setup, `R-${i}`);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    let upserts = 0;
    // The Worker dies while the second batch is in flight (after the shop committed it).
    const dying = syncDeps(fake, {
      batchSize: 2,
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
    expect((await jobRow(jobId)).state).toBe('running');

    const sent: JobMessage[] = [];
    const queue = { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage>;
    const later = new Date(Date.now() + 10 * 60_000);
    expect(await recoverStaleJobs(db(), queue, later)).toMatchObject({ requeued: [jobId] });
    expect(sent).toEqual([{ jobId, bookmark: expect.any(String) }]);

    const finished = await runToEnd(syncDeps(fake, { batchSize: 2 }).deps, jobId);
    expect(finished.state).toBe('succeeded');
    expect(fake.upserts.map((u) => u.batchId)).toEqual([`${jobId}:0`, `${jobId}:1`, `${jobId}:1`, `${jobId}:2`]);
    expect(fake.writes).toBe(6);
    const masters = await db()
      .select({ sku: products.sku, fingerprint: products.fingerprint })
      .from(products)
      .where(eq(products.catalogId, setup.catalogId))
      .orderBy(products.sku);
    expect(fake.inventory()).toEqual(masters);
  });
});
