import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema';
import { WHOLE_CATALOG_ONLY } from '../src/db/product-scope';
import type { JobMessage } from '../src/env';
import type { Caller } from '../src/kernel/caller';
import { getConnection, listConnections } from '../src/sync/connections';
import { listRuns, startSync } from '../src/sync/start-sync';
import { testConnection } from '../src/sync/test-connection';
import { db, makeCategory, makeUser } from './helpers/factories';
import { BASE_URL, connect, syncSetup } from './helpers/sync-fixtures';

/**
 * Syncs of scoped members (docs/teams.md "Syncs"): TestConnection is judged like StartSync
 * (refused before the connector is called), and a scoped member reads only their own runs
 * (GetRuns, a connection's `lastRun`): another's report lists SKUs outside their scope.
 */
const queue = { send: async () => undefined } as unknown as Queue<JobMessage>;

async function scenario() {
  const setup = await syncSetup();
  const connection = await connect(setup);
  const brand = (await makeCategory(setup.company, setup.catalogId, { name: 'Brand' })).categoryId;
  const publisher = async (scope: Pick<Caller, 'productScope' | 'channels'>): Promise<Caller> => {
    const user = await makeUser(setup.company, { role: 'publisher' });
    return { ...setup.caller, userId: user.userId, role: 'publisher', ...scope };
  };
  return { setup, connection, brand, publisher };
}

describe('TestConnection by a scoped member', () => {
  it('is refused before the connector is called unless the member may run the sync', async () => {
    const { setup, connection, brand, publisher } = await scenario();
    const calls: string[] = [];
    const deps = {
      db: db(),
      fetcher: async (request: Request) => {
        calls.push(request.url);
        return new Response('{}', { status: 503 });
      },
      encryptionKey: env.SYNC_ENCRYPTION_KEY,
      allowPrivate: true,
    };
    const input = { departmentId: setup.company.departmentId, connectionId: connection.connectionId };
    const subtree = await publisher({ productScope: { catalogIds: [], categoryIds: [brand] } });
    await expect(testConnection(deps, subtree, input)).rejects.toThrow(WHOLE_CATALOG_ONLY);
    const channel = await publisher({ channels: ['01900000-0000-7000-8000-000000000001'] });
    await expect(testConnection(deps, channel, input)).rejects.toThrow('your role does not permit this');
    expect(calls).toEqual([]);
    // the whole catalog in scope: the test reaches the connector (which answers 503 here)
    const catalog = await publisher({ productScope: { catalogIds: [setup.catalogId], categoryIds: [] } });
    await testConnection(deps, catalog, input).catch(() => undefined);
    expect(calls.length).toBeGreaterThan(0);
  });
});

describe('runs seen by a scoped member', () => {
  it("lists only their own runs and shows their own last run, never another member's", async () => {
    const { setup, connection, publisher } = await scenario();
    const start = (caller: Caller) =>
      startSync(
        { db: db(), queue },
        caller,
        {
          departmentId: setup.company.departmentId,
          connectionId: connection.connectionId,
          dryRun: true,
          confirmDeactivations: false,
        },
        BASE_URL,
      );
    const finish = (jobId: string) => db().update(jobs).set({ state: 'succeeded' }).where(eq(jobs.id, jobId));
    const byAdmin = await start(setup.caller);
    await finish(byAdmin.jobId);
    const member = await publisher({ productScope: { catalogIds: [setup.catalogId], categoryIds: [] } });
    const runs = async (caller: Caller) =>
      (await listRuns(db(), caller, { connectionId: connection.connectionId, limit: 50 })).items.map((r) => r.jobId);
    const lastRun = async (caller: Caller) =>
      (await getConnection(db(), caller, { connectionId: connection.connectionId })).lastRun?.jobId ?? null;
    expect(await runs(member)).toEqual([]);
    expect(await lastRun(member)).toBeNull();
    expect(await runs(setup.caller)).toEqual([byAdmin.jobId]);
    expect(await lastRun(setup.caller)).toBe(byAdmin.jobId);

    const own = await start(member);
    await finish(own.jobId);
    expect(await runs(member)).toEqual([own.jobId]);
    expect(await lastRun(member)).toBe(own.jobId);
    const listed = await listConnections(db(), member, {});
    expect(listed.items.map((c) => c.lastRun?.jobId)).toEqual([own.jobId]);
    // an unscoped member (and the admin) sees every run
    expect(await runs(setup.caller)).toEqual([own.jobId, byAdmin.jobId]);
  });
});
