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
import { deleteProduct } from '../src/catalog/products';
import { setValue } from '../src/catalog/values';
import { getJob } from '../src/jobs/jobs';
import { db, makeCategory, makeUser } from './helpers/factories';
import { FakeConnector } from './helpers/fake-connector';
import { BASE_URL, connect, product, runSync, runToEnd, syncDeps, syncSetup } from './helpers/sync-fixtures';

/**
 * Syncs of scoped members (docs/teams.md "Syncs"): TestConnection needs the whole catalog in
 * scope (refused before the connector is called); StartSync of a member limited to category
 * subtrees runs over their subtrees' masters and deactivates nothing; a scoped member reads only
 * their own runs (GetRuns, a connection's `lastRun`): another's report lists SKUs outside their scope.
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

describe('a sync by a member limited to a subtree', () => {
  it("sends their subtree's masters and keeps every other SKU in the shop; a full run deactivates what was deleted", async () => {
    const { setup, connection, brand, publisher } = await scenario();
    const line = (await makeCategory(setup.company, setup.catalogId, { name: 'Line', parentId: brand })).categoryId;
    const inA = await product(setup, 'IN-A', { categoryIds: [brand] });
    const inB = await product(setup, 'IN-B', { categoryIds: [line] });
    const out = await product(setup, 'OUT-C');
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake);
    expect((await runSync(setup, connection.connectionId, deps)).report).toMatchObject({ created: 3 });

    // since the full run: a product inside changed, one inside deleted, one inside added, one outside changed
    const rename = (productId: string, value: string) =>
      setValue(db(), setup.caller, {
        departmentId: setup.company.departmentId,
        elementId: productId,
        field: 'name',
        value,
      });
    await rename(inA.productId, 'Renamed inside');
    await rename(out.productId, 'Renamed outside');
    await deleteProduct({ db: db(), files: env.FILES }, setup.caller, {
      departmentId: setup.company.departmentId,
      productId: inB.productId,
    });
    await product(setup, 'IN-D', { categoryIds: [line] });

    const member = await publisher({ productScope: { catalogIds: [], categoryIds: [brand] } });
    const body = {
      departmentId: setup.company.departmentId,
      connectionId: connection.connectionId,
      dryRun: false,
      confirmDeactivations: false,
    };
    const { jobId } = await startSync({ db: db(), queue }, member, body, BASE_URL);
    expect((await runToEnd(deps, jobId)).state).toBe('succeeded');
    const job = await getJob(db(), member, jobId);
    expect(job.progress.total).toBe(2);
    expect((job.result as { report: unknown }).report).toMatchObject({
      created: 1,
      updated: 1,
      skipped: 0,
      deactivated: 0,
      subtree: { categoryIds: [brand], keptInShop: 2 },
    });
    expect(fake.upserts.at(-1)!.records.map((r) => [r.op, r.sku])).toEqual([
      ['update', 'IN-A'],
      ['create', 'IN-D'],
    ]);
    // the deleted product and the product outside stay in the shop as they were
    expect(fake.products.get('IN-B')!.active).toBe(true);
    expect((fake.products.get('OUT-C')!.product as { name: string }).name).not.toBe('Renamed outside');

    // the admin's full run takes the deleted product out (1 of 4: past the 10 % guardrail) and sends the one outside
    const full = await runSync(setup, connection.connectionId, deps, { confirmDeactivations: true });
    expect(full.report).toMatchObject({ updated: 1, deactivated: 1, skipped: 2 });
    expect(full.report.subtree).toBeUndefined();
    expect(fake.products.get('IN-B')!.active).toBe(false);
  });

  it('is still refused to a member limited to another catalog or another channel, with nothing queued', async () => {
    const { setup, connection, publisher } = await scenario();
    const body = {
      departmentId: setup.company.departmentId,
      connectionId: connection.connectionId,
      dryRun: true,
      confirmDeactivations: false,
    };
    for (const scope of [
      { productScope: { catalogIds: ['01900000-0000-7000-8000-000000000002'], categoryIds: [] } },
      { channels: ['01900000-0000-7000-8000-000000000001'] },
    ])
      await expect(startSync({ db: db(), queue }, await publisher(scope), body, BASE_URL)).rejects.toThrow(
        'your role does not permit this',
      );
    expect(await db().$count(jobs, eq(jobs.companyId, setup.company.companyId))).toBe(0);
  });
});
