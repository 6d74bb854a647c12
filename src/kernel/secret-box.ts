import { base64UrlToBytes, bytesToBase64Url } from './base64';

/**
 * AES-256-GCM sealing of stored secrets (sync connection secrets, OpenID client secrets) with a
 * key derived from a Worker secret (any high-entropy string; SHA-256 of it is the key). The
 * owner's id is the additional data, so a ciphertext copied onto another row does not open.
 * Format: `v1.<iv>.<ciphertext>` in base64url. Callers decide what a missing key or an
 * unreadable ciphertext means to their users.
 */
const VERSION = 'v1';

/** The shortest Worker secret accepted as a key. */
export const MIN_KEY_LENGTH = 16;

/** True when the Worker secret is long enough to be a key. */
export const isUsableKey = (secret: string | undefined): secret is string =>
  !!secret && secret.length >= MIN_KEY_LENGTH;

async function keyFrom(secret: string): Promise<CryptoKey> {
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export async function seal(secret: string, ownerId: string, plaintext: string): Promise<string> {
  const key = await keyFrom(secret);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(ownerId) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${bytesToBase64Url(iv)}.${bytesToBase64Url(ciphertext)}`;
}

/** The plaintext, `'unreadable'` for a value not in the format, `'wrong-key'` when it does not open. */
export async function unseal(
  secret: string,
  ownerId: string,
  sealed: string,
): Promise<{ plaintext: string } | 'unreadable' | 'wrong-key'> {
  const [version, iv, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !ciphertext) return 'unreadable';
  const key = await keyFrom(secret);
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: base64UrlToBytes(iv), additionalData: new TextEncoder().encode(ownerId) },
      key,
      base64UrlToBytes(ciphertext),
    );
    return { plaintext: new TextDecoder().decode(plaintext) };
  } catch {
    return 'wrong-key';
  }
}
