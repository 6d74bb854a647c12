/**
 * A target's credentials at rest: AES-GCM under a key derived with HKDF-SHA256 from the secret
 * of the signing key the target belongs to. Whoever reads the D1 database alone learns nothing;
 * a secret rotated under the same key id makes the old ciphertext unreadable, and the next
 * PUT /target encrypts again under the new secret.
 */
const HKDF_INFO = 'pim-connector target credentials v1';

const encoder = new TextEncoder();

async function credentialsKey(secret: string, keyId: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(`key:${keyId}`), info: encoder.encode(HKDF_INFO) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export interface SealedCredentials {
  ciphertext: string;
  iv: string;
}

export async function sealCredentials(
  credentials: Record<string, string>,
  secret: string,
  keyId: string,
): Promise<SealedCredentials> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await credentialsKey(secret, keyId);
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, encoder.encode(JSON.stringify(credentials)));
  return { ciphertext: toBase64(new Uint8Array(sealed)), iv: toBase64(iv) };
}

/** The credentials, or null when they were sealed under another secret (rotated under the same key id). */
export async function openCredentials(
  sealed: SealedCredentials,
  secret: string,
  keyId: string,
): Promise<Record<string, string> | null> {
  try {
    const key = await credentialsKey(secret, keyId);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: fromBase64(sealed.iv) },
      key,
      fromBase64(sealed.ciphertext),
    );
    return JSON.parse(new TextDecoder().decode(plain)) as Record<string, string>;
  } catch {
    return null;
  }
}
