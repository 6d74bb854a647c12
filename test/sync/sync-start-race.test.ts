import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client';
import { jobs, syncRuns } from '../../src/db/schema';
import type { JobMessage } from '../../src/env';
import { AppError } from '../../src/kernel/app-error';
import { startSync } from '../../src/sync/start-sync';
import { db } from '../helpers/factories';
import { connect, syncSetup } from '../helpers/sync-fixtures';

const BASE_URL = 'http://pim.test';

function queueLog() {
  const sent: JobMessage[] = [];
  return { sent, queue: { send: async (m: JobMessage) => void sent.push(m) } as unknown as Queue<JobMessage> };
}

/**
 * A database handle whose next `batch` first lets `competitor` commit: the interleaving of two
 * StartSync calls that both passed the early check, made deterministic.
 */
function racingDb(competitor: () => Promise<unknown>): Database {
  const real = db();
  let raced = false;
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property === 'batch' && !raced)
        return async (statements: never) => {
          raced = true;
          await competitor();
          return target.batch(statements);
        };
      return Reflect.get(target, property, receiver);
    },
  });
}

describe('one sync per connection (StartSync)', () => {
  it('a start whose check passed while another start committed is withdrawn in its transaction: 409 naming the winner', async () => {
    const setup = await syncSetup();
    const connection = await connect(setup);
    const input = {
      departmentId: setup.company.departmentId,
      connectionId: connection.connectionId,
      dryRun: false,
      confirmDeactivations: false,
    };
    const winnerQueue = queueLog();
    let winner: { jobId: string } | undefined;
    const loserQueue = queueLog();
    const loser = startSync(
      {
        db: racingDb(async () => {
          winner = await startSync({ db: db(), queue: winnerQueue.queue }, setup.caller, input, BASE_URL);
        }),
        queue: loserQueue.queue,
      },
      setup.caller,
      input,
      BASE_URL,
    );
    const error = await loser.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(409);
    expect((error as AppError).message).toContain(`job ${winner!.jobId}`);
    expect(loserQueue.sent).toEqual([]);
    expect(winnerQueue.sent).toEqual([{ jobId: winner!.jobId, bookmark: expect.any(String) }]);
    const runs = await db().select().from(syncRuns).where(eq(syncRuns.connectionId, connection.connectionId));
    expect(runs.map((r) => r.jobId)).toEqual([winner!.jobId]);
    const companyJobs = await db().select().from(jobs).where(eq(jobs.companyId, setup.company.companyId));
    expect(companyJobs.map((j) => j.id)).toEqual([winner!.jobId]);
  });

  it('starts again once the previous run has ended', async () => {
    const setup = await syncSetup();
    const connection = await connect(setup);
    const input = {
      departmentId: setup.company.departmentId,
      connectionId: connection.connectionId,
      dryRun: true,
      confirmDeactivations: false,
    };
    const first = await startSync({ db: db(), queue: queueLog().queue }, setup.caller, input, BASE_URL);
    await expect(startSync({ db: db(), queue: queueLog().queue }, setup.caller, input, BASE_URL)).rejects.toThrow(
      `job ${first.jobId}`,
    );
    await db().update(jobs).set({ state: 'failed' }).where(eq(jobs.id, first.jobId));
    const second = await startSync({ db: db(), queue: queueLog().queue }, setup.caller, input, BASE_URL);
    expect(second.jobId).not.toBe(first.jobId);
  });
});
