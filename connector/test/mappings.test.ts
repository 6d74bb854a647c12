import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { call, seedMappings } from './helpers';

describe('GET /mappings', () => {
  beforeEach(seedMappings);

  it('lists manufacturers, units and taxes with a strong ETag and an hour of caching', async () => {
    const response = await call('GET', '/mappings');
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('max-age=3600');
    expect(response.headers.get('ETag')).toMatch(/^"[0-9a-f]{64}"$/);
    const body = (await response.json()) as { manufacturers: unknown[]; units: unknown[]; taxes: unknown[] };
    expect(body.manufacturers).toEqual(expect.arrayContaining([{ id: 'm-1', name: 'Voltana Schaltgeräte' }]));
    expect(body.units).toEqual(expect.arrayContaining([{ id: 'u-2', code: 'MTR' }]));
    expect(body.taxes).toEqual(expect.arrayContaining([{ id: 't-7', code: 'DE-7', rate: 7 }]));
  });

  it('answers 304 without a body for a matching If-None-Match, 200 once the tables change', async () => {
    const first = await call('GET', '/mappings');
    const etag = first.headers.get('ETag')!;
    const cached = await call('GET', '/mappings', { headers: { 'If-None-Match': etag } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe('');
    expect(cached.headers.get('ETag')).toBe(etag);
    expect((await call('GET', '/mappings', { headers: { 'If-None-Match': `"other", W/${etag}` } })).status).toBe(304);

    await env.DB.prepare("INSERT INTO taxes (id, code, rate) VALUES ('t-0', 'DE-0', 0)").run();
    const changed = await call('GET', '/mappings', { headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('ETag')).not.toBe(etag);
  });
});
