import { describe, expect, it } from 'vitest';
import { connectorKeys } from '../src/http/signature';
import { call } from './helpers';

const ENDPOINTS: [string, string, unknown?][] = [
  ['GET', '/mappings'],
  ['GET', '/inventory'],
  ['GET', '/inventory?after=A'],
  ['GET', '/status'],
  ['POST', '/upsert', { batchId: 'sig-check', records: [] }],
  ['GET', '/no-such-path'],
];

describe('request signature on every endpoint', () => {
  for (const [method, path, body] of ENDPOINTS) {
    it(`refuses ${method} ${path} without, with a stale or with a wrong signature`, async () => {
      const unsigned = await call(method, path, { body, unsigned: true });
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ error: 'missing request signature' });

      const stale = await call(method, path, { body, timestamp: Math.floor(Date.now() / 1000) - 301 });
      expect(stale.status).toBe(401);
      expect(await stale.json()).toEqual({ error: 'stale request signature' });

      const wrong = await call(method, path, { body, secret: 'not-the-connector-secret' });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ error: 'invalid request signature' });

      const unknownKey = await call(method, path, { body, keyId: 'retired' });
      expect(unknownKey.status).toBe(401);
      expect(await unknownKey.json()).toEqual({ error: 'invalid request signature' });
    });
  }

  it('refuses a body or a query changed after signing', async () => {
    const raw = JSON.stringify({ batchId: 'tamper', records: [] });
    const body = await call('POST', '/upsert', { raw, sendRaw: raw.replace('tamper', 'tamper2') });
    expect(body.status).toBe(401);
    expect(await body.json()).toEqual({ error: 'invalid request signature' });
    expect((await call('GET', '/inventory?after=A')).status).toBe(200);
    const query = await call('GET', '/inventory?after=A', { sendPath: '/inventory?after=B' });
    expect(query.status).toBe(401);
    expect(await query.json()).toEqual({ error: 'invalid request signature' });
  });

  it('accepts the second key during a rotation and answers 404 for a signed unknown path', async () => {
    const rotated = await call('GET', '/status', { keyId: 'next', secret: 'test-connector-secret-2' });
    expect(rotated.status).toBe(200);
    const missing = await call('GET', '/no-such-path');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'not found' });
  });

  it('reads CONNECTOR_KEYS as a JSON object of key id to secret and refuses a broken value', () => {
    expect(connectorKeys('{"a":"0123456789abcdef","b":"fedcba9876543210"}')).toEqual({
      a: '0123456789abcdef',
      b: 'fedcba9876543210',
    });
    for (const broken of [undefined, '', 'demo:secret', '[]', '{}', '{"a":"short"}', '{"a":42}']) {
      expect(() => connectorKeys(broken)).toThrow('CONNECTOR_KEYS must be a JSON object');
    }
  });
});
