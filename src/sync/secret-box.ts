import { AppError } from '../kernel/app-error';

/**
 * AES-256-GCM encryption of connection secrets with a key derived from the Worker secret
 * `SYNC_ENCRYPTION_KEY` (any high-entropy string; SHA-256 of it is the key). The connection id
 * is the additional data, so a ciphertext copied onto another connection does not decrypt.
 * Format: `v1.<iv>.<ciphertext>` in base64url.
 */
const VERSION = 'v1';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

async function keyFrom(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 16) {
    console.error(
      JSON.stringify({ where: 'sync', error: 'SYNC_ENCRYPTION_KEY is not set (or shorter than 16 characters)' }),
    );
    throw new AppError('internal', 'sync connections are not configured on this server');
  }
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export async function encryptSecret(
  encryptionKey: string | undefined,
  connectionId: string,
  plaintext: string,
): Promise<string> {
  const key = await keyFrom(encryptionKey);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(connectionId) },
    key,
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ciphertext))}`;
}

export async function decryptSecret(
  encryptionKey: string | undefined,
  connectionId: string,
  sealed: string,
): Promise<string> {
  const key = await keyFrom(encryptionKey);
  const [version, iv, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !ciphertext)
    throw new AppError('internal', 'the stored connection secret is unreadable');
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(connectionId) },
      key,
      fromBase64Url(ciphertext),
    );
    return new TextDecoder().decode(plaintext);
  } catch {
    // A rotated SYNC_ENCRYPTION_KEY: the admin re-enters the secret with UpdateConnection.
    throw new AppError(
      'conflict',
      'the connection secret cannot be decrypted (was SYNC_ENCRYPTION_KEY changed?); set the secret again with UpdateConnection',
    );
  }
}
