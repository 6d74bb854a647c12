import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncConnections, syncTargetResets } from '../../src/db/schema';
import { deleteConnection, getConnection, updateConnection } from '../../src/sync/connections';
import { testConnection } from '../../src/sync/test-connection';
import { FAKE_KEY, FAKE_URL, FakeConnector } from '../helpers/fake-connector';
import { db, makeCatalog, makeSession } from '../helpers/factories';
import { call } from '../helpers/http';
import { connect, product, runSync, SHOPWARE, syncDeps, syncSetup, type Setup } from '../helpers/sync-fixtures';

type Connection = Awaited<ReturnType<typeof connect>>;

const connectionDeps = (fake: FakeConnector) => ({
  db: db(),
  encryptionKey: env.SYNC_ENCRYPTION_KEY,
  fetcher: fake.fetch,
});

/** UpdateConnection with the connection as it reads, changed by `change`. */
function update(setup: Setup, fake: FakeConnector, connection: Connection, change: Record<string, unknown>) {
  return updateConnection(connectionDeps(fake), setup.caller, {
    departmentId: connection.departmentId,
    connectionId: connection.connectionId,
    catalogId: connection.catalogId,
    name: connection.name,
    connectorUrl: connection.connectorUrl,
    keyId: connection.keyId,
    options: { ...connection.options } as never,
    ...change,
  });
}

const resetsOf = (companyId: string) =>
  db().select().from(syncTargetResets).where(eq(syncTargetResets.companyId, companyId));

/** A connector that points the key at a shop (as the run's PUT /target left it). */
function connectorWithShop() {
  const fake = new FakeConnector();
  fake.target = { kind: 'shopware', url: SHOPWARE.url };
  return fake;
}

describe('resetting the connector target when the PIM stops naming a shop', () => {
  it('sends DELETE /target when the shop is removed, and nothing when it stays', async () => {
    const setup = await syncSetup();
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    expect(connection.targetResetPending).toBe(false);
    const fake = connectorWithShop();
    const renamed = await update(setup, fake, connection, { name: 'Renamed' });
    expect(renamed.shop).not.toBeNull();
    expect(fake.log).toEqual([]);
    const removed = await update(setup, fake, connection, { shop: null });
    expect(removed).toMatchObject({ shop: null, targetResetPending: false });
    expect(fake.log).toEqual(['DELETE /pim-connector/target']);
    expect(fake.target).toBeNull();
    expect(await resetsOf(setup.company.companyId)).toEqual([]);
    // A later update without a shop has nothing to reset.
    await update(setup, fake, connection, { shop: null, name: 'Again' });
    expect(fake.log).toHaveLength(1);
  });

  it('commits the removal when the connector is down and sends the reset before the next run of the key', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    fake.unreachable = true;
    const removed = await update(setup, fake, connection, { shop: null });
    expect(removed).toMatchObject({ shop: null, targetResetPending: true });
    const row = await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, connection.connectionId) });
    expect(row).toMatchObject({ shop: null, shopCredentialsCiphertext: null });
    expect(await getConnection(db(), setup.caller, connection)).toMatchObject({ targetResetPending: true });
    expect(fake.target).not.toBeNull();

    // Still down at the run: the run fails naming the call, and the reset stays owed.
    const down = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(down.job.state).toBe('failed');
    expect(down.job.error).toContain('DELETE /target');
    expect(await resetsOf(setup.company.companyId)).toHaveLength(1);

    fake.unreachable = false;
    const run = await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(run.report).toMatchObject({ created: 1 });
    expect(fake.log.slice(0, 2)).toEqual(['DELETE /pim-connector/target', 'GET /pim-connector/mappings']);
    expect(fake.target).toBeNull();
    expect(await resetsOf(setup.company.companyId)).toEqual([]);
    expect(await getConnection(db(), setup.caller, connection)).toMatchObject({ targetResetPending: false });
    // Sent once: the next run has nothing to reset.
    await runSync(setup, connection.connectionId, syncDeps(fake).deps);
    expect(fake.log.filter((l) => l.startsWith('DELETE'))).toHaveLength(1);
  });

  it('fails the run with the connector reason when it refuses the reset, and keeps the reset', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    fake.unreachable = true;
    await update(setup, fake, connection, { shop: null });
    fake.unreachable = false;
    const refusing = async (request: Request) =>
      request.method === 'DELETE'
        ? Response.json({ error: 'send PUT /target again' }, { status: 409 })
        : fake.fetch(request);
    const run = await runSync(setup, connection.connectionId, syncDeps(fake, { fetcher: refusing }).deps);
    expect(run.job.state).toBe('failed');
    expect(run.job.error).toBe('the connector refused to reset its target (HTTP 409: send PUT /target again)');
    expect(fake.writes).toBe(0);
    expect(await resetsOf(setup.company.companyId)).toHaveLength(1);
  });

  it('resets the key of a deleted connection at once, or before the next run of a connection with that key', async () => {
    const setup = await syncSetup();
    const first = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    const deleted = await deleteConnection(connectionDeps(fake), setup.caller, first);
    expect(deleted).toEqual({ connectionId: first.connectionId, deleted: true, targetResetPending: false });
    expect(fake.log).toEqual(['DELETE /pim-connector/target']);

    const second = await connect(setup, {}, { shop: SHOPWARE });
    const down = connectorWithShop();
    down.unreachable = true;
    expect(await deleteConnection(connectionDeps(down), setup.caller, second)).toMatchObject({
      targetResetPending: true,
    });
    down.unreachable = false;
    await product(setup, 'A');
    const plain = await connect(setup);
    expect(plain.targetResetPending).toBe(true);
    // A connection test of the key sends it too.
    const ref = { departmentId: plain.departmentId, connectionId: plain.connectionId };
    const tested = await testConnection({ ...connectionDeps(down) }, setup.caller, ref);
    expect(tested).toMatchObject({ ok: true });
    expect(down.log).toEqual(['DELETE /pim-connector/target', 'GET /pim-connector/mappings']);
    expect(down.target).toBeNull();
    expect(await resetsOf(setup.company.companyId)).toEqual([]);
  });

  it('drops a pending reset when a connection names a shop for the key again (its run sends PUT /target)', async () => {
    const setup = await syncSetup();
    await product(setup, 'A');
    const old = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    fake.unreachable = true;
    await deleteConnection(connectionDeps(fake), setup.caller, old);
    expect(await resetsOf(setup.company.companyId)).toHaveLength(1);
    fake.unreachable = false;
    const again = await connect(setup, {}, { shop: SHOPWARE });
    expect(again.targetResetPending).toBe(false);
    await runSync(setup, again.connectionId, syncDeps(fake).deps);
    expect(fake.log.filter((l) => l.includes('/target'))).toEqual(['PUT /pim-connector/target']);
  });

  it('resets the old key when a connection with a shop moves to another connector or key', async () => {
    const setup = await syncSetup();
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    const hosts: string[] = [];
    const deps = {
      ...connectionDeps(fake),
      fetcher: (r: Request) => {
        hosts.push(`${r.method} ${new URL(r.url).host}`);
        return fake.fetch(r);
      },
    };
    const moved = await updateConnection(deps, setup.caller, {
      departmentId: connection.departmentId,
      connectionId: connection.connectionId,
      catalogId: connection.catalogId,
      name: connection.name,
      connectorUrl: 'https://other-shop.test/pim-connector',
      keyId: FAKE_KEY.keyId,
      options: connection.options as never,
    });
    expect(moved.shop).toMatchObject({ kind: 'shopware' });
    expect(hosts).toEqual([`DELETE ${new URL(FAKE_URL).host}`]);
    expect(fake.target).toBeNull();
  });

  it('leaves the target to another connection of the company that names a shop for the same key', async () => {
    const setup = await syncSetup();
    const one = await connect(setup, {}, { shop: SHOPWARE });
    await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    await update(setup, fake, one, { shop: null });
    await deleteConnection(connectionDeps(fake), setup.caller, one);
    expect(fake.log).toEqual([]);
    expect(await resetsOf(setup.company.companyId)).toEqual([]);
  });

  it("keeps a company's pending reset to itself", async () => {
    const setup = await syncSetup();
    const other = await syncSetup();
    await product(other, 'A');
    const connection = await connect(setup, {}, { shop: SHOPWARE });
    const fake = connectorWithShop();
    fake.unreachable = true;
    await update(setup, fake, connection, { shop: null });
    fake.unreachable = false;
    const theirs = await connect(other);
    expect(theirs.targetResetPending).toBe(false);
    await runSync(other, theirs.connectionId, syncDeps(fake).deps);
    expect(fake.log.filter((l) => l.includes('/target'))).toEqual([]);
    expect(await resetsOf(setup.company.companyId)).toHaveLength(1);
  });

  it('answers UpdateConnection and DeleteConnection with targetResetPending when the connector is not reached (REST)', async () => {
    const admin = await makeSession({ role: 'admin' });
    const catalog = await makeCatalog(admin);
    const fields = {
      departmentId: admin.departmentId,
      catalogId: catalog.catalogId,
      name: 'Shopware',
      connectorUrl: FAKE_URL,
      keyId: FAKE_KEY.keyId,
    };
    const added = await call('POST', '/api/Sync/AddConnection', {
      cookie: admin.cookie,
      body: { ...fields, secret: FAKE_KEY.secret, shop: SHOPWARE },
    });
    expect(added.status, added.text).toBe(200);
    expect(added.json.targetResetPending).toBe(false);
    const connectionId = added.json.connectionId as string;
    // shop.test does not resolve from the tests: the connector is not reached.
    const updated = await call('POST', '/api/Sync/UpdateConnection', {
      cookie: admin.cookie,
      body: { ...fields, connectionId, shop: null },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({ shop: null, targetResetPending: true });
    const deleted = await call('POST', '/api/Sync/DeleteConnection', {
      cookie: admin.cookie,
      body: { departmentId: admin.departmentId, connectionId },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ connectionId, deleted: true, targetResetPending: true });
  });
});
