import { env } from 'cloudflare:workers';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncConnections } from '../../src/db/schema';
import { testConnection } from '../../src/sync/test-connection';
import { FAKE_KEY, FAKE_URL, FakeConnector } from '../helpers/fake-connector';
import { db, makeCatalog, makeUser } from '../helpers/factories';
import { call, loginAs } from '../helpers/http';
import { connect, SHOPWARE, syncSetup, type Setup } from '../helpers/sync-fixtures';

/** TestConnection with `shop`: the settings as edited are tested, and nothing is stored anywhere. */

const rowOf = async (connectionId: string) =>
  db().query.syncConnections.findFirst({ where: eq(syncConnections.id, connectionId) });

function deps(fake: FakeConnector) {
  return { db: db(), fetcher: fake.fetch, encryptionKey: env.SYNC_ENCRYPTION_KEY };
}

async function shopConnection(setup: Setup) {
  const connection = await connect(setup, {}, { shop: SHOPWARE });
  return { departmentId: setup.company.departmentId, connectionId: connection.connectionId };
}

describe('TestConnection of unsaved shop settings', () => {
  it('probes the settings as given, with the stored credentials of the same kind, and stores nothing', async () => {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const before = await rowOf(ref.connectionId);
    const fake = new FakeConnector();
    fake.probe = { name: 'Shopware 6.7', languages: ['de-DE'], currencies: ['CHF'], details: {} };
    const edited = { kind: 'shopware' as const, url: 'https://edited.example/', mapping: { currency: 'CHF' } };
    const answer = await testConnection(deps(fake), setup.caller, { ...ref, shop: edited });
    expect(answer).toEqual({
      ok: true,
      status: 200,
      mappings: { manufacturers: 2, units: 2, taxes: 2 },
      shop: { name: 'Shopware 6.7', languages: ['de-DE'], currencies: ['CHF'], details: {} },
      warnings: [],
    });
    expect(fake.log).toEqual(['POST /pim-connector/target/test']);
    expect(fake.tested).toEqual([
      {
        kind: 'shopware',
        url: 'https://edited.example',
        credentials: SHOPWARE.credentials,
        mapping: { currency: 'CHF' },
      },
    ]);
    expect(fake.target).toBeNull();
    expect(await rowOf(ref.connectionId)).toEqual(before);
  });

  it('sends new credentials when given, warns by the edited mapping, and reports a refusal as the saved test does', async () => {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const fake = new FakeConnector();
    fake.probe = { name: 'Shopware', languages: ['de-DE'], currencies: ['EUR'], details: {} };
    const credentials = { clientId: 'SWIA-other', clientSecret: 'another-client-secret-77' };
    const shop = { ...SHOPWARE, credentials, mapping: { currency: 'CHF' } };
    const answer = await testConnection(deps(fake), setup.caller, { ...ref, shop });
    expect(answer.warnings).toEqual([expect.stringContaining('CHF')]);
    expect(JSON.stringify(answer)).not.toContain('another-client-secret-77');
    expect(fake.tested[0]).toMatchObject({ credentials });
    fake.probe = { status: 400, error: 'url: the URL points to a private or local address' };
    const refused = await testConnection(deps(fake), setup.caller, { ...ref, shop });
    expect(refused).toEqual({
      ok: false,
      status: 400,
      mappings: null,
      error: 'url: the URL points to a private or local address',
      shop: null,
    });
    fake.unreachable = true;
    expect(await testConnection(deps(fake), setup.caller, { ...ref, shop })).toMatchObject({ ok: false, status: 0 });
  });

  it('refuses another kind without its credentials (400) before calling the connector', async () => {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const fake = new FakeConnector();
    const shop = { kind: 'shopify' as const, url: 'https://voltana.myshopify.com' };
    await expect(testConnection(deps(fake), setup.caller, { ...ref, shop })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('shop.credentials: required for a new shop or another kind'),
    });
    expect(fake.log).toEqual([]);
  });
});

/** The fake connector behind a recorder of the URLs the test called. */
function recording(fake: FakeConnector) {
  const urls: string[] = [];
  const fetcher = (request: Request) => {
    urls.push(request.url);
    // The fake serves every host under its own path: what is checked is the address called.
    return fake.fetch(new Request(request.url.replace(/^https:\/\/[^/]+/, 'https://shop.test'), request));
  };
  return { urls, fetcher };
}

const connectionsOf = async (companyId: string) =>
  (await db().select({ n: count() }).from(syncConnections).where(eq(syncConnections.companyId, companyId)))[0]!.n;

describe('TestConnection of unsaved connector settings', () => {
  it('tests a connection not saved yet with its connector, key, secret and catalog as given, and stores nothing', async () => {
    const setup = await syncSetup();
    const fake = new FakeConnector();
    fake.probe = { name: 'Shopware', languages: ['de-DE', 'en-GB'], currencies: ['EUR'], details: {} };
    const { urls, fetcher } = recording(fake);
    const catalog = await makeCatalog(setup.company, { language: 'deu', languages: ['deu', 'fra'] });
    const input = {
      departmentId: setup.company.departmentId,
      catalogId: catalog.catalogId,
      connectorUrl: 'https://connector.example/pim-connector',
      ...FAKE_KEY,
      shop: SHOPWARE,
    };
    const answer = await testConnection({ ...deps(fake), fetcher }, setup.caller, input);
    expect(answer).toMatchObject({ ok: true, status: 200, shop: { name: 'Shopware' } });
    // The edited catalog publishes French, which the default mapping has no locale for.
    expect(answer.warnings).toEqual([expect.stringContaining('"fra"')]);
    expect(urls).toEqual(['https://connector.example/pim-connector/target/test']);
    expect(fake.tested[0]).toMatchObject({ kind: 'shopware', credentials: SHOPWARE.credentials });
    expect(JSON.stringify(answer)).not.toContain(FAKE_KEY.secret);
    expect(await connectionsOf(setup.company.companyId)).toBe(0);
  });

  it('uses the edited URL, key and secret over the saved ones, and the saved ones where left out', async () => {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const before = await rowOf(ref.connectionId);
    const fake = new FakeConnector();
    const { urls, fetcher } = recording(fake);
    const run = (edits: Record<string, string>) =>
      testConnection({ ...deps(fake), fetcher }, setup.caller, { ...ref, ...edits, shop: SHOPWARE });
    // A wrong edited secret is what signs the request: the connector refuses it.
    expect(await run({ secret: 'a-secret-the-connector-lacks' })).toMatchObject({ ok: false, status: 401 });
    expect(await run({ keyId: 'another-key' })).toMatchObject({ ok: false, status: 401 });
    expect(await run({ connectorUrl: 'https://moved.example/pim-connector' })).toMatchObject({ ok: true });
    expect(await run({})).toMatchObject({ ok: true });
    expect(urls).toEqual([
      `${FAKE_URL}/target/test`,
      `${FAKE_URL}/target/test`,
      'https://moved.example/pim-connector/target/test',
      `${FAKE_URL}/target/test`,
    ]);
    expect(await rowOf(ref.connectionId)).toEqual(before);
  });

  it('tests a saved connection whose key id is stale with the key id as edited', async () => {
    const setup = await syncSetup();
    const saved = await connect(setup, {}, { shop: SHOPWARE });
    const ref = { departmentId: setup.company.departmentId, connectionId: saved.connectionId };
    await db().update(syncConnections).set({ keyId: 'stale-key' }).where(eq(syncConnections.id, saved.connectionId));
    const fake = new FakeConnector();
    expect(await testConnection(deps(fake), setup.caller, { ...ref, shop: SHOPWARE })).toMatchObject({ status: 401 });
    expect(
      await testConnection(deps(fake), setup.caller, { ...ref, keyId: FAKE_KEY.keyId, shop: SHOPWARE }),
    ).toMatchObject({ ok: true });
  });

  it('refuses an edited connector URL on a private address (400) unless private targets are allowed', async () => {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const fake = new FakeConnector();
    const { urls, fetcher } = recording(fake);
    const input = { ...ref, connectorUrl: 'http://127.0.0.1:8788/pim-connector', shop: SHOPWARE };
    await expect(testConnection({ ...deps(fake), fetcher }, setup.caller, input)).rejects.toMatchObject({
      status: 400,
      message: 'connectorUrl: the URL points to a private, loopback or link-local address',
    });
    expect(urls).toEqual([]);
    const allowed = await testConnection({ ...deps(fake), fetcher, allowPrivate: true }, setup.caller, input);
    expect(allowed).toMatchObject({ ok: true });
    expect(urls).toEqual(['http://127.0.0.1:8788/pim-connector/target/test']);
  });

  it("refuses another company's catalog (404) and a new connection without shop credentials (400)", async () => {
    const setup = await syncSetup();
    const other = await syncSetup();
    const fake = new FakeConnector();
    const input = {
      departmentId: setup.company.departmentId,
      catalogId: other.catalogId,
      connectorUrl: FAKE_URL,
      ...FAKE_KEY,
      shop: SHOPWARE,
    };
    await expect(testConnection(deps(fake), setup.caller, input)).rejects.toMatchObject({ status: 404 });
    const { credentials: _, ...withoutCredentials } = SHOPWARE;
    await expect(
      testConnection(deps(fake), setup.caller, {
        ...input,
        catalogId: setup.catalogId,
        shop: withoutCredentials,
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('shop.credentials: required') });
    expect(fake.log).toEqual([]);
  });
});

describe('TestConnection of unsaved shop settings (REST)', () => {
  async function restSetup() {
    const setup = await syncSetup();
    const ref = await shopConnection(setup);
    const admin = await loginAs((await makeUser(setup.company, { role: 'admin' })).email);
    const editor = await loginAs((await makeUser(setup.company, { role: 'editor' })).email);
    return { setup, ref, admin, editor };
  }

  it('refuses an editor who sends shop settings with 403 whatever they say, and stores nothing', async () => {
    const { ref, editor } = await restSetup();
    const before = await rowOf(ref.connectionId);
    for (const shop of [SHOPWARE, { kind: 'magento', url: 42 }]) {
      const res = await call('POST', '/api/Sync/TestConnection', { cookie: editor, body: { ...ref, shop } });
      expect(res.status).toBe(403);
      expect(res.json).toMatchObject({ error: 'only a company admin may do this' });
    }
    expect(await rowOf(ref.connectionId)).toEqual(before);
  });

  it.each([
    [{ kind: 'magento', url: 'https://shop.example' }, 'shop.kind'],
    [{ kind: 'shopware' }, 'shop.url'],
    [{ ...SHOPWARE, url: 'ftp://shop.example' }, 'shop.url'],
    [{ ...SHOPWARE, url: 'https://user:pw@shop.example' }, 'shop.url must not carry credentials'],
    [{ ...SHOPWARE, credentials: { clientId: 'only-the-id' } }, 'shop.credentials: a shopware shop needs'],
    [{ ...SHOPWARE, mapping: { currency: 'euro' } }, 'shop.mapping.currency'],
    [{ ...SHOPWARE, secret: 'x' }, 'unknown field'],
  ])('answers an admin 400 for bad settings (%#) and stores nothing', async (shop, message) => {
    const { ref, admin } = await restSetup();
    const before = await rowOf(ref.connectionId);
    const res = await call('POST', '/api/Sync/TestConnection', { cookie: admin, body: { ...ref, shop } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toContain(message);
    expect(await rowOf(ref.connectionId)).toEqual(before);
  });

  it.each([
    [{ connectorUrl: FAKE_URL }, 'connectorUrl is tested only with shop settings'],
    [{ secret: FAKE_KEY.secret, shop: null }, 'secret is tested only with shop settings'],
    [{ connectionId: undefined, shop: SHOPWARE, connectorUrl: FAKE_URL, keyId: 'k' }, 'secret is required'],
    [{ connectionId: undefined }, 'connectionId is required'],
    [{ shop: SHOPWARE, secret: 'short' }, 'secret must have at least 16 characters'],
    [{ shop: SHOPWARE, connectorUrl: 'https://user:pw@connector.example' }, 'connectorUrl must not carry'],
  ])(
    'answers 400 for edited connector settings that cannot be tested (%#), never echoing a secret',
    async (edits: Record<string, unknown>, message) => {
      const { ref, admin, setup } = await restSetup();
      // The catalog goes with shop settings only (alone it is refused as the other fields are).
      const body = { ...ref, ...(edits.shop ? { catalogId: setup.catalogId } : {}), ...edits };
      const res = await call('POST', '/api/Sync/TestConnection', { cookie: admin, body });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toContain(message);
      expect(res.text).not.toContain('short');
      expect(res.text).not.toContain(FAKE_KEY.secret);
    },
  );

  it("answers 404 for another company's connection, also with settings", async () => {
    const { ref, admin } = await restSetup();
    const other = await syncSetup();
    const foreign = await shopConnection(other);
    const res = await call('POST', '/api/Sync/TestConnection', {
      cookie: admin,
      body: { departmentId: ref.departmentId, connectionId: foreign.connectionId, shop: SHOPWARE },
    });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: expect.any(String) });
  });

  it('lets an editor test the saved settings, also with shop null', async () => {
    const { ref, editor } = await restSetup();
    const res = await call('POST', '/api/Sync/TestConnection', { cookie: editor, body: { ...ref, shop: null } });
    expect(res.status, res.text).toBe(200);
    // The fake connector's host resolves nowhere: the saved settings were tried, and failed as such.
    expect(res.json).toMatchObject({ ok: false, status: 0, shop: null });
  });
});
