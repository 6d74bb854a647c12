import { AppError } from '../kernel/app-error';

/** How long a media URL handed to a connector stays valid (docs/sync.md). */
export const SIGNED_MEDIA_TTL_SECONDS = 7 * 24 * 3600;

/** The imported key per secret: a sync batch signs up to thousands of URLs. */
let cached: { secret: string; key: Promise<CryptoKey> } | undefined;

async function hmacKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 16) {
    console.error(
      JSON.stringify({ where: 'media-url', error: 'MEDIA_URL_KEY is not set (or shorter than 16 characters)' }),
    );
    throw new AppError('internal', 'signed media URLs are not configured on this server');
  }
  if (cached?.secret !== secret) {
    cached = {
      secret,
      key: crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
      ]),
    };
  }
  return cached.key;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** HMAC-SHA256 over `mediaId + "\n" + expires`, lowercase hex (SYNC-PROTOCOL "Media"). */
async function mediaSignature(secret: string | undefined, mediaId: string, expires: number): Promise<string> {
  const key = await hmacKey(secret);
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${mediaId}\n${expires}`)));
}

/** The public URL of one media file, valid until `expires` (Unix seconds). */
export async function signedMediaUrl(
  secret: string | undefined,
  baseUrl: string,
  mediaId: string,
  expires: number,
): Promise<string> {
  const sig = await mediaSignature(secret, mediaId, expires);
  return `${baseUrl.replace(/\/+$/, '')}/media/signed/${mediaId}?expires=${expires}&sig=${sig}`;
}

/**
 * Checks a signed media URL: signature (constant time) and expiry, nothing else. Answers the
 * same 403 for a wrong, malformed or expired signature so nothing about the key leaks.
 */
export async function verifyMediaSignature(
  secret: string | undefined,
  mediaId: string,
  expiresParam: string | undefined,
  sigParam: string | undefined,
  nowSeconds: number,
): Promise<void> {
  const refused = new AppError('forbidden', 'the media link is invalid or has expired');
  if (!expiresParam || !/^\d{1,12}$/.test(expiresParam) || !sigParam || !/^[0-9a-f]{64}$/.test(sigParam)) throw refused;
  const expires = Number(expiresParam);
  const expected = new TextEncoder().encode(await mediaSignature(secret, mediaId, expires));
  const given = new TextEncoder().encode(sigParam);
  if (!crypto.subtle.timingSafeEqual(expected, given)) throw refused;
  if (expires < nowSeconds) throw refused;
}
