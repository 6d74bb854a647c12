import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetBookmark } from '../src/api/bookmark';
import { apiGet, apiPost } from '../src/api/client';

/** A tab's sessionStorage (plain Node has none). */
function tabStorage(): Map<string, string> {
  const items = new Map<string, string>();
  vi.stubGlobal('sessionStorage', {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  });
  return items;
}

/** A stand-in server: answers each request with the next bookmark, and records what was sent. */
function server(bookmarks: (string | null)[]) {
  const sent: (string | null)[] = [];
  vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
    sent.push(new Headers(init.headers).get('x-d1-bookmark'));
    const bookmark = bookmarks.shift() ?? null;
    return new Response('{}', {
      headers: { 'Content-Type': 'application/json', ...(bookmark ? { 'x-d1-bookmark': bookmark } : {}) },
    });
  });
  return sent;
}

afterEach(() => {
  resetBookmark();
  vi.unstubAllGlobals();
});

describe('the D1 bookmark of the web app', () => {
  it('sends nothing at first, then the newest bookmark any answer carried, never an older one', async () => {
    const sent = server(['00000002-a', '00000001-z', null, '00000003-b']);
    await apiGet('Account/Me');
    await apiPost('Catalog/AddCatalog', { name: 'x', departmentId: 'd' } as never);
    await apiGet('Account/Me');
    await apiGet('Account/Me');
    await apiGet('Account/Me');
    expect(sent).toEqual([null, '00000002-a', '00000002-a', '00000002-a', '00000003-b']);
  });

  it('keeps the newest bookmark of each database and sends them all, so a switch of company between cells stays fresh in both', async () => {
    // A user in a cell-2 company writes there (cell-2 bookmarks, string-newer than cell-1's
    // real D1 ones), then switches to a company in cell-1 and writes there.
    const sent = server([
      'cell-2:00000005-a',
      'cell-2:00000004-z',
      '00000002-b',
      '00000001-z',
      null,
      'cell-2:00000006-a',
    ]);
    for (let i = 0; i < 7; i++) await apiGet('Account/Me');
    expect(sent).toEqual([
      null,
      'cell-2:00000005-a',
      'cell-2:00000005-a',
      // cell-1's bookmark is kept beside cell-2's, not dropped as "older" than it ...
      'cell-2:00000005-a, 00000002-b',
      // ... and an older one of cell-1 does not replace it.
      'cell-2:00000005-a, 00000002-b',
      'cell-2:00000005-a, 00000002-b',
      'cell-2:00000006-a, 00000002-b',
    ]);
  });

  it('keeps the bookmarks in the tab across a reload (a fresh copy of the module)', async () => {
    const items = tabStorage();
    server(['cell-2:sim-00000000000a', 'sim-000000000003']);
    await apiGet('Account/Me');
    await apiGet('Account/Me');
    expect(items.size).toBe(1);

    vi.resetModules();
    const reloaded = await import('../src/api/client');
    const sent = server([]);
    await reloaded.apiGet('Account/Me');
    expect(sent).toEqual(['cell-2:sim-00000000000a, sim-000000000003']);
  });

  it('ignores what is not one bookmark: a list coming back, or a kept entry under the wrong database', async () => {
    const items = tabStorage();
    items.set('pim.d1-bookmarks', JSON.stringify({ 'cell-1': 'cell-3:sim-1', 'cell-2': 'cell-2:sim-2' }));
    vi.resetModules();
    const fresh = await import('../src/api/client');
    const sent = server(['sim-1, cell-2:sim-9']);
    await fresh.apiGet('Account/Me');
    await fresh.apiGet('Account/Me');
    expect(sent).toEqual(['cell-2:sim-2', 'cell-2:sim-2']);
  });
});
