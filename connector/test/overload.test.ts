import { describe, expect, it } from 'vitest';
import { ConnectorError } from '../src/http/connector-error';
import { asUnavailable, MAX_CONCURRENT_UPSERTS, upsertGate } from '../src/upsert/overload';
import { create, productRows, seedMappings, uniquePrefix, upsert } from './helpers';

describe('upsert overload', () => {
  it('answers 429 with Retry-After while the isolate runs its maximum of upserts, and writes nothing', async () => {
    await seedMappings();
    const p = uniquePrefix();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const running = Array.from({ length: MAX_CONCURRENT_UPSERTS }, () => upsertGate.run(() => held));
    const refused = await upsert([create(`${p}1`)]);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe('2');
    expect(await refused.json()).toEqual({ error: 'too many concurrent upserts; retry later' });
    expect(await productRows(p)).toEqual([]);
    release();
    await Promise.all(running);
    expect((await upsert([create(`${p}1`)])).status).toBe(200);
  });

  it('turns a busy or unreachable D1 into 503 with Retry-After and lets other errors through', () => {
    for (const message of [
      'D1_ERROR: Network connection lost.',
      'D1 DB is overloaded. Too many requests queued.',
      'D1_ERROR: database is locked: SQLITE_BUSY',
    ]) {
      const mapped = asUnavailable(new Error(message));
      expect(mapped).toBeInstanceOf(ConnectorError);
      expect((mapped as ConnectorError).status).toBe(503);
      expect((mapped as ConnectorError).headers).toEqual({ 'Retry-After': '5' });
    }
    const other = new Error('D1_ERROR: no such table: products');
    expect(asUnavailable(other)).toBe(other);
  });
});
