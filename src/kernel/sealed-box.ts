/**
 * AES-256-GCM sealing of a secret the service must use again later (a webhook signing secret),
 * with a key derived from a Worker secret (SHA-256 of any high-entropy string) and the owning
 * row's id as additional data, so a ciphertext copied onto another row does not open. Format:
 * `v1.<iv>.<ciphertext>` in base64url, as the sync's connection secrets (src/sync/secret-box.ts).
 * Throws a plain Error: the caller decides what its users are told.
 */
const VERSION = 'v1';

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}

async function keyFrom(secret: string): Promise<CryptoKey> {
  const raw = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret));
  return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export async function seal(keyText: string, rowId: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(rowId) },
    await keyFrom(keyText),
    new TextEncoder().encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(ciphertext))}`;
}

export async function unseal(keyText: string, rowId: string, sealed: string): Promise<string> {
  const [version, iv, ciphertext] = sealed.split('.');
  if (version !== VERSION || !iv || !ciphertext) throw new Error('sealed value has an unknown format');
  const plaintext = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: fromBase64Url(iv), additionalData: new TextEncoder().encode(rowId) },
    await keyFrom(keyText),
    fromBase64Url(ciphertext),
  );
  return new TextDecoder().decode(plaintext);
}
