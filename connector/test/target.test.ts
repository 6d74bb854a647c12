import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADAPTER_FACTORIES } from '../src/adapters/registry';
import { TargetError } from '../src/adapters/target-adapter';
import { FakeAdapter, useFakeAdapter } from './fake-adapter';
import { call } from './helpers';

const SIGNER = { keyId: 'targets', secret: 'test-connector-secret-3' };
const asTargets = (method: string, path: string, body?: unknown, vars?: Record<string, string>) =>
  call(method, path, { ...SIGNER, ...(body === undefined ? {} : { body }), ...(vars ? { vars } : {}) });

const SHOPIFY = {
  kind: 'shopify',
  url: 'https://voltana.myshopify.com/',
  credentials: { accessToken: 'shpat_secret_token_123' },
  mapping: { currency: 'CHF', features: { featureBlocks: ['udf_NMNG'] } },
};

async function storedRow() {
  return env.DB.prepare('SELECT * FROM targets WHERE key_id = ?1')
    .bind(SIGNER.keyId)
    .first<{ credentials_ciphertext: string; credentials_iv: string; url: string }>();
}

describe('PUT, GET, DELETE /target', () => {
  let fake: FakeAdapter;
  let restore: () => void;
  beforeEach(async () => {
    fake = new FakeAdapter();
    restore = useFakeAdapter(fake);
    await asTargets('DELETE', '/target');
  });
  afterEach(() => restore());

  it('stores the target with the kind defaults filled in and never answers the credentials', async () => {
    const put = await asTargets('PUT', '/target', SHOPIFY);
    expect(put.status).toBe(200);
    const putText = await put.text();
    expect(putText).not.toContain('shpat_secret_token_123');

    const get = await asTargets('GET', '/target');
    expect(get.status).toBe(200);
    const text = await get.text();
    expect(text).not.toContain('shpat_secret_token_123');
    expect(text).not.toContain('accessToken');
    const body = JSON.parse(text);
    expect(body).toMatchObject({ kind: 'shopify', url: 'https://voltana.myshopify.com', hasCredentials: true });
    expect(body.mapping).toEqual({
      languages: { deu: 'de', eng: 'en', fra: 'fr' },
      defaultLanguage: 'deu',
      priceType: null,
      currency: 'CHF',
      pricesIncludeTax: false,
      features: { classification: true, values: true, featureBlocks: ['udf_NMNG'] },
      onDeactivate: 'disable',
      imagePurposes: [],
      references: true,
    });
  });

  it('keeps the credentials as AES-GCM ciphertext, a fresh IV per PUT', async () => {
    await asTargets('PUT', '/target', SHOPIFY);
    const first = await storedRow();
    expect(first!.credentials_ciphertext).not.toContain('shpat');
    expect(atob(first!.credentials_ciphertext)).not.toContain('shpat_secret_token_123');
    // 12-byte IV; ciphertext = JSON + 16-byte tag.
    expect(atob(first!.credentials_iv)).toHaveLength(12);
    expect(atob(first!.credentials_ciphertext)).toHaveLength(JSON.stringify(SHOPIFY.credentials).length + 16);
    await asTargets('PUT', '/target', SHOPIFY);
    const second = await storedRow();
    expect(second!.credentials_iv).not.toBe(first!.credentials_iv);
    expect(second!.credentials_ciphertext).not.toBe(first!.credentials_ciphertext);
  });

  it('answers 409 once the key secret changed under the same key id, until the next PUT seals again', async () => {
    await asTargets('PUT', '/target', SHOPIFY);
    const rotated = { CONNECTOR_KEYS: JSON.stringify({ targets: 'a-new-secret-for-targets' }) };
    const signedNew = { keyId: 'targets', secret: 'a-new-secret-for-targets', vars: rotated };
    const get = await call('GET', '/target', signedNew);
    expect((await get.json()) as object).toMatchObject({ hasCredentials: false });
    const test = await call('POST', '/target/test', signedNew);
    expect(test.status).toBe(409);
    expect(((await test.json()) as { error: string }).error).toContain('send PUT /target again');
    expect((await call('PUT', '/target', { ...signedNew, body: SHOPIFY })).status).toBe(200);
    expect((await call('POST', '/target/test', signedNew)).status).toBe(200);
  });

  it('refuses an unsigned or wrongly signed PUT with 401 and stores nothing', async () => {
    const wrong = await call('PUT', '/target', { keyId: 'targets', secret: 'not-the-secret-at-all', body: SHOPIFY });
    expect(wrong.status).toBe(401);
    expect((await call('PUT', '/target', { unsigned: true, body: SHOPIFY })).status).toBe(401);
    expect(await storedRow()).toBeNull();
  });

  it.each([
    [{ ...SHOPIFY, kind: 'magento' }, 'kind:'],
    [{ ...SHOPIFY, url: 'ftp://shop.example' }, 'url:'],
    [{ kind: 'shopify', credentials: {} }, 'url: url is required'],
    [{ ...SHOPIFY, credentials: { accessToken: 42 } }, 'credentials.accessToken:'],
    [{ ...SHOPIFY, mapping: { onDeactivate: 'archive' } }, 'mapping.onDeactivate:'],
    [{ ...SHOPIFY, mapping: { languages: { de: 'de-DE' } } }, 'mapping.languages'],
    [{ ...SHOPIFY, mapping: { currency: 'euro' } }, 'mapping.currency: currency is an ISO 4217 code'],
  ])('refuses a bad config with 400 naming the field (%#)', async (config, message) => {
    const response = await asTargets('PUT', '/target', config);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain(message);
    expect(await storedRow()).toBeNull();
  });

  it.each([
    'http://127.0.0.1:8080',
    'http://10.1.2.3',
    'http://172.20.0.1',
    'http://192.168.1.10',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0',
    'http://2130706433',
    'http://[::1]',
    'http://[fd00::1]',
    'http://[fe80::1]',
    'http://[::ffff:127.0.0.1]',
    'http://localhost:9000',
    'http://shop.local',
    'http://metadata.google.internal',
  ])('refuses the target URL %s (SSRF) with 400', async (url) => {
    const response = await asTargets('PUT', '/target', { ...SHOPIFY, url });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^url: the URL points to/);
    expect(await storedRow()).toBeNull();
  });

  it('accepts a private target URL when ALLOW_PRIVATE_TARGETS is "true"', async () => {
    const response = await asTargets(
      'PUT',
      '/target',
      { ...SHOPIFY, url: 'http://127.0.0.1:9000' },
      {
        ALLOW_PRIVATE_TARGETS: 'true',
      },
    );
    expect(response.status).toBe(200);
    expect((await storedRow())!.url).toBe('http://127.0.0.1:9000');
  });

  it('DELETE sends the key back to the reference store and clears its mirror', async () => {
    await asTargets('PUT', '/target', SHOPIFY);
    await env.DB.prepare(
      "INSERT INTO target_products (key_id, sku, fingerprint, active, ids, product, updated_at) VALUES ('targets', 'X-1', 'f', 1, NULL, NULL, 'now')",
    ).run();
    expect((await asTargets('DELETE', '/target')).status).toBe(204);
    expect((await asTargets('GET', '/target')).status).toBe(404);
    expect(await storedRow()).toBeNull();
    const left = await env.DB.prepare("SELECT count(*) AS n FROM target_products WHERE key_id = 'targets'").first<{
      n: number;
    }>();
    expect(left!.n).toBe(0);
    expect((await asTargets('DELETE', '/target')).status).toBe(404);
  });

  it('POST /target/test answers the probe, or 502 with the plain reason', async () => {
    await asTargets('PUT', '/target', SHOPIFY);
    const ok = await asTargets('POST', '/target/test');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      name: 'Fake shop 1.0',
      languages: ['de', 'en'],
      currencies: ['EUR'],
      details: { plan: 'test' },
    });
    fake.probeError = new TargetError('the access token was refused', false, 401);
    const refused = await asTargets('POST', '/target/test');
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: 'the shop refused: the access token was refused' });
  });

  it('POST /target/test with a config probes that shop, stores nothing and never answers its credentials', async () => {
    await asTargets('PUT', '/target', SHOPIFY);
    const before = await storedRow();
    const seen: unknown[] = [];
    ADAPTER_FACTORIES.shopify = (config) => {
      seen.push(config);
      return fake;
    };
    const unsaved = {
      ...SHOPIFY,
      url: 'https://other.myshopify.com',
      credentials: { accessToken: 'shpat_unsaved_999' },
    };
    const response = await asTargets('POST', '/target/test', unsaved);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('shpat_unsaved_999');
    expect(JSON.parse(text)).toEqual({
      name: 'Fake shop 1.0',
      languages: ['de', 'en'],
      currencies: ['EUR'],
      details: { plan: 'test' },
      mappings: { manufacturers: 1, units: 1, taxes: 1 },
    });
    expect(seen).toMatchObject([
      { url: 'https://other.myshopify.com', credentials: { accessToken: 'shpat_unsaved_999' } },
    ]);
    expect(await storedRow()).toEqual(before);
  });

  it('POST /target/test with a config refuses it as PUT /target would (400, SSRF), or 502 for the shop', async () => {
    const bad = await asTargets('POST', '/target/test', { ...SHOPIFY, mapping: { currency: 'euro' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('mapping.currency');
    const inner = await asTargets('POST', '/target/test', { ...SHOPIFY, url: 'http://169.254.169.254/latest' });
    expect(inner.status).toBe(400);
    expect(((await inner.json()) as { error: string }).error).toMatch(/^url: the URL points to/);
    fake.mappingsError = new TargetError('the access token was refused', false, 401);
    const refused = await asTargets('POST', '/target/test', SHOPIFY);
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ error: 'the shop refused: the access token was refused' });
    expect(await storedRow()).toBeNull();
  });

  it('POST /target/test without a target probes the reference store', async () => {
    const response = await asTargets('POST', '/target/test');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: 'Reference store (connector D1)' });
  });
});
