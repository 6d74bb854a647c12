import { env, exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { media } from '../../src/db/schema';
import { signedMediaUrl } from '../../src/media/signed-url';
import { db } from '../helpers/factories';
import { addImage, product, syncSetup } from '../helpers/sync-fixtures';

const ORIGIN = 'http://pim.test';
const fetchUrl = (url: string) => exports.default.fetch(new Request(url));

async function sha256Hex(bytes: ArrayBuffer): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

describe('Signed media URLs', () => {
  it('stores the sha256 of an upload and streams the file for a valid, unexpired signature without a session', async () => {
    const setup = await syncSetup();
    const p = await product(setup, 'IMG-1');
    const image = await addImage(setup, p.productId, 'signed');
    const row = await db().query.media.findFirst({ where: eq(media.id, image.mediaId) });
    const expires = Math.floor(Date.now() / 1000) + 600;
    const url = await signedMediaUrl(env.MEDIA_URL_KEY, ORIGIN, image.mediaId, expires);
    const res = await fetchUrl(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('image/svg+xml');
    const bytes = await res.arrayBuffer();
    expect(await sha256Hex(bytes)).toBe(row!.sha256);
    expect(res.headers.get('X-Content-SHA256')).toBe(row!.sha256);
  });

  it('answers 403 for a tampered, foreign, malformed or expired signature', async () => {
    const setup = await syncSetup();
    const p = await product(setup, 'IMG-2');
    const image = await addImage(setup, p.productId);
    const other = await addImage(setup, p.productId, 'other');
    const future = Math.floor(Date.now() / 1000) + 600;
    const valid = new URL(await signedMediaUrl(env.MEDIA_URL_KEY, ORIGIN, image.mediaId, future));
    const sig = valid.searchParams.get('sig')!;
    const variants = [
      `${ORIGIN}/media/signed/${image.mediaId}?expires=${future + 1}&sig=${sig}`,
      `${ORIGIN}/media/signed/${other.mediaId}?expires=${future}&sig=${sig}`,
      `${ORIGIN}/media/signed/${image.mediaId}?expires=${future}&sig=${sig.slice(0, 63)}0`.replace(
        /0$/,
        sig.endsWith('0') ? '1' : '0',
      ),
      `${ORIGIN}/media/signed/${image.mediaId}?expires=${future}`,
      `${ORIGIN}/media/signed/${image.mediaId}?expires=soon&sig=${sig}`,
      await signedMediaUrl(env.MEDIA_URL_KEY, ORIGIN, image.mediaId, Math.floor(Date.now() / 1000) - 1),
      await signedMediaUrl('another-key-of-16-chars-or-more', ORIGIN, image.mediaId, future),
    ];
    for (const url of variants) {
      const res = await fetchUrl(url);
      expect(res.status, url).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'the media link is invalid or has expired' });
    }
  });
});
