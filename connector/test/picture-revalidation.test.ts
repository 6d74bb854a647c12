import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createPictureCheck } from '../src/media/picture-revalidation';
import { bodyHash } from '../../src/sync/protocol/signing';

/**
 * New bytes behind an unchanged category picture URL (docs/shops.md "Category images"): the
 * connector asks the URL conditionally and compares hashes (connector/src/media/picture-revalidation.ts).
 * `PictureServer` answers like an HTTP server with ETag and Last-Modified (304 on a match).
 */
class PictureServer {
  bytes = 'picture-v1';
  etag: string | null = '"v1"';
  lastModified: string | null = 'Mon, 07 Dec 2026 10:00:00 GMT';
  status = 200;
  readonly requests: { url: string; ifNoneMatch: string | null; ifModifiedSince: string | null }[] = [];

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const ifNoneMatch = headers.get('If-None-Match');
    const ifModifiedSince = headers.get('If-Modified-Since');
    this.requests.push({ url: String(input), ifNoneMatch, ifModifiedSince });
    if (this.status !== 200) return new Response('down', { status: this.status });
    const validators: Record<string, string> = {};
    if (this.etag) validators.ETag = this.etag;
    if (this.lastModified) validators['Last-Modified'] = this.lastModified;
    const fresh = this.etag
      ? ifNoneMatch === this.etag
      : ifModifiedSince !== null && ifModifiedSince === this.lastModified;
    if (fresh) return new Response(null, { status: 304, headers: validators });
    return new Response(this.bytes, { status: 200, headers: { 'Content-Type': 'image/png', ...validators } });
  };
}

const URL_A = 'https://cdn.example.com/categories/switches.png';

function check(server: PictureServer, keyId = `pic-${crypto.randomUUID()}`) {
  return { keyId, check: () => createPictureCheck({ db: env.DB, keyId, fetcher: server.fetch, allowPrivate: false }) };
}

const row = (keyId: string, url = URL_A) =>
  env.DB.prepare('SELECT etag, last_modified, sha256 FROM category_pictures WHERE key_id = ?1 AND url = ?2')
    .bind(keyId, url)
    .first<{ etag: string | null; last_modified: string | null; sha256: string }>();

describe('category picture revalidation', () => {
  it('records a URL on first sight, answers unchanged on 304, and changed for new bytes until they are sent', async () => {
    const server = new PictureServer();
    const { keyId, check: next } = check(server);
    expect(await next().changed(URL_A)).toBe(false);
    expect(await row(keyId)).toMatchObject({ etag: '"v1"', last_modified: 'Mon, 07 Dec 2026 10:00:00 GMT' });

    expect(await next().changed(URL_A)).toBe(false);
    expect(server.requests.at(-1)).toMatchObject({
      ifNoneMatch: '"v1"',
      ifModifiedSince: 'Mon, 07 Dec 2026 10:00:00 GMT',
    });

    server.bytes = 'picture-v2';
    server.etag = '"v2"';
    const before = await row(keyId);
    // Changed, but the shop did not take it (the write failed): the next request asks again.
    expect(await next().changed(URL_A)).toBe(true);
    expect(await row(keyId)).toEqual(before);
    const sending = next();
    expect(await sending.changed(URL_A)).toBe(true);
    await sending.sent(URL_A);
    expect(await row(keyId)).toMatchObject({ etag: '"v2"' });
    expect(await next().changed(URL_A)).toBe(false);
    expect(server.requests.at(-1)).toMatchObject({ ifNoneMatch: '"v2"' });
  });

  it('compares the bytes when the server keeps no validators', async () => {
    const server = new PictureServer();
    server.etag = null;
    server.lastModified = null;
    const { check: next } = check(server);
    expect(await next().changed(URL_A)).toBe(false);
    expect(await next().changed(URL_A)).toBe(false);
    expect(server.requests.at(-1)).toMatchObject({ ifNoneMatch: null, ifModifiedSince: null });
    server.bytes = 'picture-v2';
    expect(await next().changed(URL_A)).toBe(true);
  });

  it('asks each URL once per request, and keeps keys apart', async () => {
    const server = new PictureServer();
    const { keyId, check: next } = check(server);
    const once = next();
    await Promise.all([once.changed(URL_A), once.changed(URL_A), once.changed(URL_A)]);
    expect(server.requests).toHaveLength(1);
    const other = check(server);
    server.bytes = 'picture-v2';
    server.etag = '"v2"';
    // Another key has seen nothing yet: its first look records, it does not report a change.
    expect(await other.check().changed(URL_A)).toBe(false);
    expect(await next().changed(URL_A)).toBe(true);
    expect((await row(other.keyId))!.sha256).not.toBe((await row(keyId))!.sha256);
  });

  it('counts a URL it cannot ask as unchanged and records nothing: refused, unreachable or an error status', async () => {
    const server = new PictureServer();
    const { keyId, check: next } = check(server);
    expect(await next().changed('http://127.0.0.1/picture.png')).toBe(false);
    expect(server.requests).toHaveLength(0);
    server.status = 503;
    expect(await next().changed(URL_A)).toBe(false);
    expect(await row(keyId)).toBeNull();
    const failing = createPictureCheck({
      db: env.DB,
      keyId,
      fetcher: () => Promise.reject(new TypeError('network down')),
      allowPrivate: false,
    });
    expect(await failing.changed(URL_A)).toBe(false);
    expect(await row(keyId)).toBeNull();
  });

  it('answers the hash behind a URL with the same one look: the bytes when fetched, the recorded hash after a 304', async () => {
    const server = new PictureServer();
    const { keyId, check: next } = check(server);
    const hash = (text: string) => bodyHash(new TextEncoder().encode(text));
    const first = next();
    const seen = await first.current(URL_A);
    expect(seen?.sha256).toBe(await hash('picture-v1'));
    expect(new TextDecoder().decode(seen?.bytes ?? new ArrayBuffer(0))).toBe('picture-v1');
    expect(await first.changed(URL_A)).toBe(false);
    expect(server.requests).toHaveLength(1);
    expect((await row(keyId))?.sha256).toBe(await hash('picture-v1'));

    // Unchanged (304): the recorded hash, no bytes.
    expect(await next().current(URL_A)).toEqual({ sha256: await hash('picture-v1'), bytes: null });

    // New bytes: their hash and bytes, recorded only once sent.
    server.bytes = 'picture-v2';
    server.etag = '"v2"';
    const renewed = next();
    expect((await renewed.current(URL_A))?.sha256).toBe(await hash('picture-v2'));
    expect(await renewed.changed(URL_A)).toBe(true);
    expect((await row(keyId))?.sha256).toBe(await hash('picture-v1'));
    await renewed.sent(URL_A);
    expect((await row(keyId))?.sha256).toBe(await hash('picture-v2'));

    // Cannot be asked: the recorded hash; never seen and cannot be asked: null.
    server.status = 503;
    expect(await next().current(URL_A)).toEqual({ sha256: await hash('picture-v2'), bytes: null });
    expect(await next().current('https://cdn.example.com/never-seen.png')).toBeNull();
  });
});
