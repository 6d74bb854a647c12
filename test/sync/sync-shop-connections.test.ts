import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncConnections } from '../../src/db/schema';
import { defaultMapping } from '../../src/sync/protocol/target';
import { FAKE_KEY, FAKE_URL } from '../helpers/fake-connector';
import { db, makeCatalog, makeSession } from '../helpers/factories';
import { call } from '../helpers/http';
import { SHOPWARE } from '../helpers/sync-fixtures';

const SECRET = SHOPWARE.credentials.clientSecret;

async function adminWithCatalog() {
  const admin = await makeSession({ role: 'admin' });
  const catalog = await makeCatalog(admin);
  const body = {
    departmentId: admin.departmentId,
    catalogId: catalog.catalogId,
    name: 'Shopware',
    connectorUrl: FAKE_URL,
    keyId: FAKE_KEY.keyId,
    secret: FAKE_KEY.secret,
  };
  return { admin, body };
}

const rowOf = async (connectionId: string) =>
  (await db().query.syncConnections.findFirst({ where: eq(syncConnections.id, connectionId) }))!;

describe('Sync connections with a shop (REST)', () => {
  it('adds a shop: reads show kind, url, the filled mapping and hasCredentials, never the credentials', async () => {
    const { admin, body } = await adminWithCatalog();
    const shop = {
      ...SHOPWARE,
      url: 'https://shop.example/',
      mapping: { currency: 'CHF', features: { values: false } },
    };
    const added = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, shop } });
    expect(added.status, added.text).toBe(200);
    const mapping = {
      ...defaultMapping('shopware'),
      currency: 'CHF',
      features: { ...defaultMapping('shopware').features, values: false },
    };
    expect(added.json.shop).toEqual({ kind: 'shopware', url: 'https://shop.example', mapping, hasCredentials: true });
    const id = added.json.connectionId as string;
    const one = await call('GET', `/api/Sync/GetConnection?connectionId=${id}`, { cookie: admin.cookie });
    expect(one.status).toBe(200);
    expect(one.json.shop).toEqual(added.json.shop);
    const list = await call('GET', '/api/Sync/GetConnections', { cookie: admin.cookie });
    expect(list.json.items[0].shop).toEqual(added.json.shop);
    for (const text of [added.text, one.text, list.text]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('SWIA-client');
    }
    const row = await rowOf(id);
    expect(row.shopCredentialsCiphertext).toMatch(/^v1\./);
    expect(row.shopCredentialsCiphertext).not.toContain(SECRET);
    expect(row.shop).toEqual({
      kind: 'shopware',
      url: 'https://shop.example',
      mapping: { currency: 'CHF', features: { values: false } },
    });
  });

  it('a connection without a shop reads shop: null', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body });
    expect(added.json.shop).toBeNull();
    expect((await rowOf(added.json.connectionId)).shopCredentialsCiphertext).toBeNull();
  });

  it('keeps the credentials on an update without them, takes back what a read returned, and clears them with shop: null', async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (
      await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, shop: SHOPWARE } })
    ).json;
    const sealed = (await rowOf(added.connectionId)).shopCredentialsCiphertext;
    const { secret: _secret, ...rest } = body;
    const update = (shop: unknown) =>
      call('POST', '/api/Sync/UpdateConnection', {
        cookie: admin.cookie,
        body: { ...rest, connectionId: added.connectionId, shop },
      });
    // What GetConnection answered, sent back with one change: hasCredentials is ignored.
    const readBack = await update({ ...added.shop, url: 'https://shop2.example' });
    expect(readBack.status, readBack.text).toBe(200);
    expect(readBack.json.shop).toMatchObject({ url: 'https://shop2.example', hasCredentials: true });
    expect((await rowOf(added.connectionId)).shopCredentialsCiphertext).toBe(sealed);
    // No `shop` at all leaves it as it is.
    const untouched = await call('POST', '/api/Sync/UpdateConnection', {
      cookie: admin.cookie,
      body: { ...rest, connectionId: added.connectionId },
    });
    expect(untouched.json.shop).toMatchObject({ kind: 'shopware', url: 'https://shop2.example' });
    const newCredentials = await update({ ...SHOPWARE, credentials: { clientId: 'a', clientSecret: 'b' } });
    expect(newCredentials.status).toBe(200);
    expect((await rowOf(added.connectionId)).shopCredentialsCiphertext).not.toBe(sealed);
    const removed = await update(null);
    expect(removed.json.shop).toBeNull();
    const row = await rowOf(added.connectionId);
    expect([row.shop, row.shopCredentialsCiphertext]).toEqual([null, null]);
  });

  it('refuses a bad shop with 400 naming the field and changes nothing', async () => {
    const { admin, body } = await adminWithCatalog();
    for (const [shop, message] of [
      [{ ...SHOPWARE, kind: 'magento' }, 'shop.kind'],
      [{ ...SHOPWARE, url: 'ftp://shop.example' }, 'shop.url'],
      [{ ...SHOPWARE, url: 'https://user:pw@shop.example' }, 'shop.url must not carry credentials'],
      [{ kind: 'shopware', credentials: SHOPWARE.credentials }, 'shop.url'],
      [{ ...SHOPWARE, mapping: { currency: 'euro' } }, 'shop.mapping.currency'],
      [{ ...SHOPWARE, mapping: { languages: { de: 'de-DE' } } }, 'shop.mapping.languages'],
      [{ ...SHOPWARE, mapping: { color: 'red' } }, 'shop.mapping'],
      [{ ...SHOPWARE, credentials: { clientId: 'only-the-id' } }, 'a shopware shop needs clientId and clientSecret'],
      [{ kind: 'shopify', url: 'https://x.myshopify.com' }, 'shop.credentials: required'],
    ] as const) {
      const res = await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, shop } });
      expect(res.status, JSON.stringify(shop)).toBe(400);
      expect(res.json.error).toContain(message);
    }
    expect((await call('GET', '/api/Sync/GetConnections', { cookie: admin.cookie })).json.items).toEqual([]);

    const added = (
      await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, shop: SHOPWARE } })
    ).json;
    const before = await rowOf(added.connectionId);
    const { secret: _secret, ...rest } = body;
    for (const shop of [
      // Another kind needs its own credentials: the stored ones are Shopware's.
      { kind: 'vendure', url: 'https://vendure.example/admin-api' },
      { ...SHOPWARE, mapping: { onDeactivate: 'archive' } },
    ]) {
      const res = await call('POST', '/api/Sync/UpdateConnection', {
        cookie: admin.cookie,
        body: { ...rest, name: 'Renamed', connectionId: added.connectionId, shop },
      });
      expect(res.status, JSON.stringify(shop)).toBe(400);
    }
    expect(await rowOf(added.connectionId)).toEqual(before);
  });

  it("answers 404 for another company's connection and leaves its shop alone", async () => {
    const { admin, body } = await adminWithCatalog();
    const added = (
      await call('POST', '/api/Sync/AddConnection', { cookie: admin.cookie, body: { ...body, shop: SHOPWARE } })
    ).json;
    const before = await rowOf(added.connectionId);
    const stranger = await makeSession({ role: 'admin' });
    const strangerCatalog = await makeCatalog(stranger);
    const got = await call('GET', `/api/Sync/GetConnection?connectionId=${added.connectionId}`, {
      cookie: stranger.cookie,
    });
    expect(got.status).toBe(404);
    expect(got.json.error).toBe('connection not found');
    const updated = await call('POST', '/api/Sync/UpdateConnection', {
      cookie: stranger.cookie,
      body: {
        ...body,
        departmentId: stranger.departmentId,
        catalogId: strangerCatalog.catalogId,
        connectionId: added.connectionId,
        shop: null,
      },
    });
    expect(updated.status).toBe(404);
    expect(await rowOf(added.connectionId)).toEqual(before);
  });

  it("GetShopDefaults answers a kind's default mapping and the credentials it needs", async () => {
    const { admin } = await adminWithCatalog();
    const shopware = await call('GET', '/api/Sync/GetShopDefaults?kind=shopware', { cookie: admin.cookie });
    expect(shopware.json).toEqual({
      kind: 'shopware',
      mapping: defaultMapping('shopware'),
      urlRequired: true,
      credentials: [
        [
          { name: 'clientId', secret: false },
          { name: 'clientSecret', secret: true },
        ],
      ],
    });
    const medusa = await call('GET', '/api/Sync/GetShopDefaults?kind=medusa', { cookie: admin.cookie });
    expect(medusa.json.credentials[0]).toEqual([{ name: 'apiKey', secret: true }]);
    expect(medusa.json.mapping.languages.deu).toBe('de-DE');
    const shopify = await call('GET', '/api/Sync/GetShopDefaults?kind=shopify', { cookie: admin.cookie });
    expect(shopify.json.credentials).toEqual([[{ name: 'accessToken', secret: true }]]);
    const bad = await call('GET', '/api/Sync/GetShopDefaults?kind=magento', { cookie: admin.cookie });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('kind');
  });
});
