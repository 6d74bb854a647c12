import { describe, expect, it } from 'vitest';
import { signRequest, verifyRequest, type ConnectorKeys } from '../../src/sync/protocol/signing';

const KEYS: ConnectorKeys = { demo: 'demo-connector-secret-1', next: 'rotated-secret-2' };
const NOW = 1_800_000_000;
const URL_BASE = 'https://shop.example/connector';

async function signed(
  opts: { method?: string; path?: string; body?: string; keyId?: string; secret?: string; timestamp?: number } = {},
) {
  const method = opts.method ?? 'POST';
  const path = opts.path ?? '/connector/upsert?x=1';
  const body = opts.body ?? '{"batchId":"b1","records":[]}';
  const headers = await signRequest({
    keyId: opts.keyId ?? 'demo',
    secret: opts.secret ?? KEYS.demo!,
    method,
    pathWithQuery: path,
    body: method === 'GET' ? undefined : body,
    timestamp: opts.timestamp ?? NOW,
  });
  return { headers, method, path, body };
}

function request(path: string, method: string, headers: Record<string, string>) {
  return new Request(new URL(path, URL_BASE), { method, headers });
}

describe('request signing', () => {
  it('accepts a correctly signed request and names its key', async () => {
    const { headers, method, path, body } = await signed();
    expect(headers['X-PIM-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(headers['X-PIM-Timestamp']).toBe(String(NOW));
    expect(await verifyRequest(request(path, method, headers), body, KEYS, NOW)).toEqual({ ok: true, keyId: 'demo' });
  });

  it('accepts a GET with an empty body', async () => {
    const { headers, path } = await signed({ method: 'GET', path: '/inventory?after=A%20B' });
    expect(await verifyRequest(request(path, 'GET', headers), new Uint8Array(0), KEYS, NOW)).toEqual({
      ok: true,
      keyId: 'demo',
    });
  });

  it('refuses a tampered body', async () => {
    const { headers, method, path, body } = await signed();
    const result = await verifyRequest(request(path, method, headers), body.replace('b1', 'b2'), KEYS, NOW);
    expect(result).toEqual({ ok: false, error: 'invalid request signature' });
  });

  it('refuses a tampered path or query', async () => {
    const { headers, method, body } = await signed({ path: '/connector/upsert?x=1' });
    expect((await verifyRequest(request('/connector/upsert?x=2', method, headers), body, KEYS, NOW)).ok).toBe(false);
    expect((await verifyRequest(request('/connector/mappings?x=1', method, headers), body, KEYS, NOW)).ok).toBe(false);
    expect((await verifyRequest(request('/upsert?x=1', method, headers), body, KEYS, NOW)).ok).toBe(false);
  });

  it('refuses a changed method', async () => {
    const { headers, path, body } = await signed({ method: 'POST' });
    expect((await verifyRequest(request(path, 'PUT', headers), body, KEYS, NOW)).ok).toBe(false);
  });

  it('accepts 300 s of clock skew and refuses 301 s either way as stale', async () => {
    for (const skew of [-300, 300]) {
      const { headers, method, path, body } = await signed({ timestamp: NOW + skew });
      expect((await verifyRequest(request(path, method, headers), body, KEYS, NOW)).ok).toBe(true);
    }
    for (const skew of [-301, 301]) {
      const { headers, method, path, body } = await signed({ timestamp: NOW + skew });
      expect(await verifyRequest(request(path, method, headers), body, KEYS, NOW)).toEqual({
        ok: false,
        error: 'stale request signature',
      });
    }
  });

  it('refuses an unknown key id without saying so', async () => {
    const { headers, method, path, body } = await signed({ keyId: 'nobody', secret: 'whatever' });
    expect(await verifyRequest(request(path, method, headers), body, KEYS, NOW)).toEqual({
      ok: false,
      error: 'invalid request signature',
    });
    const proto = await signed({ keyId: '__proto__', secret: 'x' });
    expect((await verifyRequest(request(proto.path, proto.method, proto.headers), proto.body, KEYS, NOW)).ok).toBe(
      false,
    );
  });

  it('refuses a known key id signed with another secret', async () => {
    const { headers, method, path, body } = await signed({ keyId: 'demo', secret: KEYS.next });
    expect((await verifyRequest(request(path, method, headers), body, KEYS, NOW)).ok).toBe(false);
  });

  it('accepts either of two active keys during a rotation', async () => {
    for (const keyId of ['demo', 'next']) {
      const { headers, method, path, body } = await signed({ keyId, secret: KEYS[keyId] });
      expect(await verifyRequest(request(path, method, headers), body, KEYS, NOW)).toEqual({ ok: true, keyId });
    }
  });

  it('refuses missing headers, one at a time', async () => {
    const { headers, method, path, body } = await signed();
    for (const name of Object.keys(headers)) {
      const partial = { ...headers };
      delete partial[name];
      expect(await verifyRequest(request(path, method, partial), body, KEYS, NOW)).toEqual({
        ok: false,
        error: 'missing request signature',
      });
    }
  });

  it('refuses malformed signatures and timestamps', async () => {
    const { headers, method, path, body } = await signed();
    const hexPart = headers['X-PIM-Signature']!.slice(3);
    for (const bad of [hexPart, `v2=${hexPart}`, `v1=${hexPart.toUpperCase()}`, `v1=${hexPart.slice(2)}`, 'v1=zz']) {
      const result = await verifyRequest(
        request(path, method, { ...headers, 'X-PIM-Signature': bad }),
        body,
        KEYS,
        NOW,
      );
      expect(result).toEqual({ ok: false, error: 'invalid request signature' });
    }
    const notANumber = await verifyRequest(
      request(path, method, { ...headers, 'X-PIM-Timestamp': `${NOW}.0` }),
      body,
      KEYS,
      NOW,
    );
    expect(notANumber).toEqual({ ok: false, error: 'invalid request signature' });
  });
});
