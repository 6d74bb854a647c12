import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetBookmark } from '../src/api/bookmark';
import { apiGet, apiPost } from '../src/api/client';

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
  vi.unstubAllGlobals();
  resetBookmark();
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
});
