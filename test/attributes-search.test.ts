import { describe, expect, it } from 'vitest';
import { makeSession } from './helpers/factories';
import { call } from './helpers/http';

/** GetAttributes as the shop mapping's pick list asks it: pages, a code prefix and a search (src/catalog/attributes.ts). */
describe('Catalog/GetAttributes with limit, cursor, prefix and q', () => {
  it('pages in code order, filters by an exact code prefix or by code or name containing q, and keeps companies apart', async () => {
    const session = await makeSession();
    const other = await makeSession();
    const add = async (cookie: string, code: string, name: string) => {
      const res = await call('POST', '/api/Catalog/AddAttribute', { cookie, body: { code, name, type: 'text' } });
      expect(res.status, res.text).toBe(200);
    };
    await add(session.cookie, 'colour', 'Farbe');
    await add(session.cookie, 'coating', 'Beschichtung');
    await add(session.cookie, 'voltage', 'Spannung');
    await add(other.cookie, 'colour_code', 'Colour code');
    const codes = async (query: string) => {
      const res = await call('GET', `/api/Catalog/GetAttributes?${query}`, { cookie: session.cookie });
      expect(res.status, res.text).toBe(200);
      return {
        codes: (res.json.items as { code: string }[]).map((a) => a.code),
        nextCursor: res.json.nextCursor as string | null | undefined,
      };
    };
    // Without paging: the whole list, as before.
    expect(await codes('')).toEqual({ codes: ['coating', 'colour', 'voltage'], nextCursor: undefined });
    const first = await codes('limit=2');
    expect(first).toEqual({ codes: ['coating', 'colour'], nextCursor: expect.any(String) });
    expect(await codes(`limit=2&cursor=${first.nextCursor}`)).toEqual({ codes: ['voltage'], nextCursor: null });
    expect((await codes('limit=50&prefix=co')).codes).toEqual(['coating', 'colour']);
    expect((await codes('limit=50&prefix=CO')).codes).toEqual([]);
    // q: code or name, ASCII case ignored.
    expect((await codes('limit=50&q=SPANN')).codes).toEqual(['voltage']);
    expect((await codes('limit=50&q=lou')).codes).toEqual(['colour']);
    const bad = await call('GET', '/api/Catalog/GetAttributes?limit=0', { cookie: session.cookie });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('limit');
    const unknown = await call('GET', '/api/Catalog/GetAttributes?foo=1', { cookie: session.cookie });
    expect(unknown.status).toBe(400);
  });
});
