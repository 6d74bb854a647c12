import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, syncConnections } from '../../src/db/schema';
import { addConnection, updateConnection } from '../../src/sync/connections';
import { testConnection } from '../../src/sync/test-connection';
import { FakeConnector, FAKE_KEY } from '../helpers/fake-connector';
import { db, makeCatalog, makeSession, makeUser } from '../helpers/factories';
import { call, loginAs } from '../helpers/http';

// A public-looking name that resolves nowhere (`.test` is reserved): it passes the SSRF rule.
const UNREACHABLE_URL = 'https://unreachable.test/pim-connector';

async function adminWithCatalog() {
  const admin = await makeSession({ role: 'admin' });
  const catalog = await makeCatalog(admin);
  const body = {
    departmentId: admin.departmentId,
    catalogId: catalog.catalogId,
    name: 'Webshop',
    // Nothing listens there: the queue consumer of the pool really runs what StartSync queues.
    connectorUrl: UNREACHABLE_URL,
    keyId: FAKE_KEY.keyId,
    secret: FAKE_KEY.secret,
    options: {
      missing: 'deactivate' as const,
      maxDeactivationPercent: 10,
      schedule: 'daily' as const,
      defaultTaxCode: 'DE19',
    },
  };
  return { admin, catalog, body };
}

describe('Sync connections (REST)', () => {
  it('adds a connection for an admin and never returns or stores the secret in plain text', async () => {
    const { admin, body } = await adminWithCatalog();
    const res = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      name: 'Webshop',
      connectorUrl: UNREACHABLE_URL,
      keyId: FAKE_KEY.keyId,
      hasSecret: true,
      lastRun: null,
      options: body.options,
    });
    expect(res.json.nextRunAt).toMatch(/^\d{4}-/);
    expect(res.text).not.toContain(FAKE_KEY.secret);
    const row = await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, res.json.connectionId) });
    expect(row!.secretCiphertext).toMatch(/^v1\./);
    expect(row!.secretCiphertext).not.toContain(FAKE_KEY.secret);
    const list = await call('GET', '/api/Sync/GetConnections', { cookie: admin.cookie });
    expect(list.json.items.map((c: any) => c.connectionId)).toEqual([res.json.connectionId]);
    expect(list.text).not.toContain(FAKE_KEY.secret);
  });

  it('refuses connection writes to editors (403) and to strangers (401)', async () => {
    const { admin, body } = await adminWithCatalog();
    const editor = await makeUser({ companyId: admin.companyId, departmentId: admin.departmentId }, { role: 'editor' });
    const cookie = await loginAs(editor.email);
    const res = await call('POST', '/api/Sync/AddConnection', { cookie, body });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('only a company admin may do this');
    expect((await call('POST', '/api/Sync/AddConnection', { body })).status).toBe(401);
    expect((await call('GET', '/api/Sync/GetConnections', { cookie })).json.items).toEqual([]);
  });

  it('keeps connections inside their company and department', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const stranger = await makeSession({ role: 'admin' });
    expect((await call('GET', '/api/Sync/GetConnections', { cookie: stranger.cookie })).json.items).toEqual([]);
    const ref = { departmentId: stranger.departmentId, connectionId: added.connectionId };
    const deleted = await call('POST', '/api/Sync/DeleteConnection', { cookie: stranger.cookie, body: ref });
    expect(deleted.status).toBe(404);
    const started = await call('POST', '/api/Sync/StartSync', { cookie: stranger.cookie, body: ref });
    expect(started.status).toBe(404);
    const foreignDepartment = await call('POST', '/api/Sync/AddConnection', { cookie: stranger.cookie, body });
    expect(foreignDepartment.status).toBe(403);
    const foreignCatalog = await call('POST', '/api/Sync/AddConnection', {
      cookie: stranger.cookie,
      body: { ...body, departmentId: stranger.departmentId },
    });
    expect(foreignCatalog.status).toBe(404);
    expect(
      (await call('GET', `/api/Sync/GetRuns?connectionId=${added.connectionId}`, { cookie: stranger.cookie })).status,
    ).toBe(404);
  });

  it('validates input with clear errors and changes nothing', async () => {
    const { admin, body } = await adminWithCatalog();
    for (const [patch, message] of [
      [{ connectorUrl: 'ftp://shop.test' }, 'connectorUrl'],
      [{ connectorUrl: 'https://user:pw@shop.test' }, 'connectorUrl must not carry credentials'],
      [{ secret: 'short' }, 'secret must have at least 16 characters'],
      [{ options: { missing: 'delete' } }, 'options.missing'],
      [{ options: { maxDeactivationPercent: 150 } }, 'options.maxDeactivationPercent'],
    ] as const) {
      const res = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, ...patch } });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.json.error).toContain(message);
    }
    expect((await call('GET', '/api/Sync/GetConnections', { cookie: admin.cookie })).json.items).toEqual([]);
    await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body });
    const duplicate = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body });
    expect(duplicate.status).toBe(409);
  });

  it('refuses a connector URL on a private, loopback, link-local or internal address (400) and stores nothing', async () => {
    const { admin, body } = await adminWithCatalog();
    const refused = [
      [
        'http://127.0.0.1:8788/pim-connector',
        'connectorUrl: the URL points to a private, loopback or link-local address',
      ],
      ['https://10.0.0.5/pim-connector', 'connectorUrl: the URL points to a private, loopback or link-local address'],
      ['http://169.254.169.254/latest', 'connectorUrl: the URL points to a private, loopback or link-local address'],
      ['http://[::1]:8788/', 'connectorUrl: the URL points to a private, loopback or link-local address'],
      ['http://localhost:8788/', 'connectorUrl: the URL points to an internal host name'],
      ['https://metadata.google.internal/', 'connectorUrl: the URL points to an internal host name'],
    ] as const;
    for (const [connectorUrl, error] of refused) {
      const res = await call('POST', '/api/Sync/AddConnection', {
        cookie: admin.cookie,
        body: { ...body, connectorUrl },
      });
      expect(res.status, connectorUrl).toBe(400);
      expect(res.json).toMatchObject({ error });
    }
    expect(
      await db().query.syncConnections.findMany({ where: eq(syncConnections.companyId, admin.companyId) }),
    ).toEqual([]);
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const before = await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, added.connectionId) });
    const { secret: _secret, ...withoutSecret } = body;
    for (const [connectorUrl, error] of refused) {
      const res = await call('POST', '/api/Sync/UpdateConnection', {
        cookie: admin.cookie,
        body: { ...withoutSecret, connectionId: added.connectionId, name: 'Moved', connectorUrl },
      });
      expect(res.status, connectorUrl).toBe(400);
      expect(res.json).toMatchObject({ error });
    }
    expect(await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, added.connectionId) })).toEqual(
      before,
    );
  });

  it('stores a private connector URL where ALLOW_PRIVATE_TARGETS lifts the rule (local development)', async () => {
    const { admin, body } = await adminWithCatalog();
    const local = { ...body, connectorUrl: 'http://127.0.0.1:8788/pim-connector' };
    await expect(addConnection(db(), admin, env.SYNC_ENCRYPTION_KEY, local)).rejects.toMatchObject({ status: 400 });
    const added = await addConnection(db(), admin, env.SYNC_ENCRYPTION_KEY, local, true);
    expect(added.connectorUrl).toBe('http://127.0.0.1:8788/pim-connector');
    const deps = { db: db(), encryptionKey: env.SYNC_ENCRYPTION_KEY, fetcher: new FakeConnector().fetch };
    const { secret: _secret, ...update } = { ...local, connectionId: added.connectionId, name: 'Local 2' };
    const moved = { ...update, connectorUrl: 'http://localhost:8789/pim-connector' };
    await expect(updateConnection(deps, admin, moved)).rejects.toMatchObject({ status: 400 });
    expect(await updateConnection({ ...deps, allowPrivate: true }, admin, moved)).toMatchObject({
      name: 'Local 2',
      connectorUrl: 'http://localhost:8789/pim-connector',
    });
  });

  it('updates a connection keeping the secret unless a new one is given, and deletes it', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const before = (await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, added.connectionId) }))!
      .secretCiphertext;
    const { secret: _secret, ...withoutSecret } = body;
    const updated = await call('POST', '/api/Sync/UpdateConnection', {
      cookie: admin.cookie,
      body: {
        ...withoutSecret,
        connectionId: added.connectionId,
        name: 'Webshop 2',
        options: { missing: 'ignore', maxDeactivationPercent: 5, schedule: null },
      },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json).toMatchObject({
      name: 'Webshop 2',
      options: { missing: 'ignore', maxDeactivationPercent: 5, schedule: null },
      nextRunAt: null,
    });
    expect(
      (await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, added.connectionId) }))!
        .secretCiphertext,
    ).toBe(before);
    const deleted = await call('POST', '/api/Sync/DeleteConnection', {
      cookie: admin.cookie,
      body: { departmentId: admin.departmentId, connectionId: added.connectionId },
    });
    expect(deleted.json).toEqual({ connectionId: added.connectionId, deleted: true, targetResetPending: false });
    expect((await call('GET', '/api/Sync/GetConnections', { cookie: admin.cookie })).json.items).toEqual([]);
  });

  it('starts a run for an editor, refuses a second one while it is queued, and lists it in GetRuns and GetJob', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const editor = await makeUser({ companyId: admin.companyId, departmentId: admin.departmentId }, { role: 'editor' });
    const cookie = await loginAs(editor.email);
    const ref = { departmentId: admin.departmentId, connectionId: added.connectionId, dryRun: true };
    const started = await call('POST', '/api/Sync/StartSync', { cookie, body: ref });
    expect(started.status, started.text).toBe(200);
    expect(started.json.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await call('POST', '/api/Sync/StartSync', { cookie, body: ref });
    expect(again.status).toBe(409);
    const runs = await call('GET', `/api/Sync/GetRuns?connectionId=${added.connectionId}`, { cookie });
    expect(runs.json).toMatchObject({
      items: [{ jobId: started.json.jobId, dryRun: true, report: null }],
      nextCursor: null,
    });
    const job = await call('GET', `/api/Job/GetJob?jobId=${started.json.jobId}`, { cookie });
    expect(job.json).toMatchObject({ kind: 'sync' });
    const row = await db().query.jobs.findFirst({ where: eq(jobs.id, started.json.jobId) });
    expect(row!.params).toMatchObject({ connectionId: added.connectionId, dryRun: true, baseUrl: 'http://pim.test' });
  });

  it('of parallel StartSync calls for one connection exactly one starts; the others answer 409 naming its job', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const ref = { departmentId: admin.departmentId, connectionId: added.connectionId, dryRun: true };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/api/Sync/StartSync', { cookie: admin.cookie, body: ref })),
    );
    const started = answers.filter((a) => a.status === 200);
    expect(started).toHaveLength(1);
    const jobId = started[0]!.json.jobId as string;
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect(refused.status).toBe(409);
      expect(refused.json.error).toContain(`job ${jobId}`);
    }
    // The refused starts left no job and no run behind.
    const runs = await call('GET', `/api/Sync/GetRuns?connectionId=${added.connectionId}`, { cookie: admin.cookie });
    expect(runs.json.items.map((r: { jobId: string }) => r.jobId)).toEqual([jobId]);
    const syncJobs = await db().query.jobs.findMany({ where: eq(jobs.companyId, admin.companyId) });
    expect(syncJobs.filter((j) => j.kind === 'sync').map((j) => j.id)).toEqual([jobId]);
  });

  it('TestConnection signs a /mappings call and reports what it found, or why it failed', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body })).json;
    const ref = { departmentId: admin.departmentId, connectionId: added.connectionId };
    const fake = new FakeConnector();
    const deps = { db: db(), fetcher: fake.fetch, encryptionKey: env.SYNC_ENCRYPTION_KEY };
    expect(await testConnection(deps, admin, ref)).toEqual({
      ok: true,
      status: 200,
      mappings: { manufacturers: 2, units: 2, taxes: 2 },
    });
    expect(fake.log).toEqual(['GET /pim-connector/mappings']);
    const wrongKey = {
      ...deps,
      fetcher: async (r: Request) =>
        fake.fetch(new Request(r, { headers: { ...Object.fromEntries(r.headers), 'X-PIM-Key-Id': 'other' } })),
    };
    expect(await testConnection(wrongKey, admin, ref)).toMatchObject({
      ok: false,
      status: 401,
      error: expect.stringContaining('invalid request signature'),
    });
    const unreachable = await call('POST', '/api/Sync/TestConnection', { cookie: admin.cookie, body: ref });
    expect(unreachable.status).toBe(200);
    expect(unreachable.json).toMatchObject({ ok: false, status: 0, mappings: null });
  });
});
