import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, syncConnections } from '../../src/db/schema';
import type { JobMessage } from '../../src/env';
import { runDueSyncs } from '../../src/sync/schedule';
import { db } from '../helpers/factories';
import { connect, syncSetup } from '../helpers/sync-fixtures';

function recordingQueue() {
  const sent: JobMessage[] = [];
  return { sent, queue: { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage> };
}

describe('scheduled sync runs (Cron Trigger)', () => {
  it('queues a run for a due connection as its admin, moves nextRunAt, and skips it while that run is active', async () => {
    const setup = await syncSetup();
    const hourly = await connect(setup, { schedule: 'hourly' });
    const manual = await connect(setup, { schedule: null });
    expect(manual.nextRunAt).toBeNull();
    const due = new Date(Date.parse(hourly.nextRunAt!) + 1000);
    const { sent, queue } = recordingQueue();

    const first = await runDueSyncs({ db: db(), queue, publicBaseUrl: 'https://pim.example' }, due);
    expect(first.started).toHaveLength(1);
    expect(sent).toEqual([{ jobId: first.started[0], bookmark: expect.any(String) }]);
    const job = await db().query.jobs.findFirst({ where: eq(jobs.id, first.started[0]!) });
    expect(job).toMatchObject({
      kind: 'sync',
      state: 'queued',
      userId: setup.caller.userId,
      params: { connectionId: hourly.connectionId, dryRun: false, baseUrl: 'https://pim.example' },
    });
    const row = await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, hourly.connectionId) });
    expect(Date.parse(row!.nextRunAt!)).toBe(due.getTime() + 3600_000);

    const later = new Date(due.getTime() + 3600_000 + 1000);
    const second = await runDueSyncs({ db: db(), queue, publicBaseUrl: 'https://pim.example' }, later);
    expect(second.started).toEqual([]);
    const notYet = await runDueSyncs(
      { db: db(), queue, publicBaseUrl: 'https://pim.example' },
      new Date(later.getTime() + 1000),
    );
    expect(notYet.started).toEqual([]);
  });
});
