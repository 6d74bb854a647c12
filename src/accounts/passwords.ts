import { base64ToBytes, bytesToBase64 } from '../kernel/base64';

/**
 * PBKDF2-SHA256 password hashing through WebCrypto. workerd caps PBKDF2 at 100,000 iterations,
 * which is what we use; each user has a random 16-byte salt.
 */
const ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  return crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations: ITERATIONS }, key, 256);
}

export async function hashPassword(password: string): Promise<{ hash: string; salt: string }> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { hash: bytesToBase64(await derive(password, salt)), salt: bytesToBase64(salt) };
}

/** Constant-time comparison of the derived key against the stored one. */
export async function verifyPassword(password: string, hash: string, salt: string): Promise<boolean> {
  const actual = new Uint8Array(await derive(password, base64ToBytes(salt)));
  const expected = base64ToBytes(hash);
  return actual.byteLength === expected.byteLength && crypto.subtle.timingSafeEqual(actual, expected);
}

/** A URL-safe random token of `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return bytesToBase64(crypto.getRandomValues(new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}
