import { base64ToBytes, bytesToBase64 } from '../kernel/base64';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, the convention the
 * `standardwebhooks` libraries verify): every request carries `webhook-id` (the message id,
 * the same on every attempt), `webhook-timestamp` (Unix seconds of this attempt) and
 * `webhook-signature`, a space-separated list of `v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
 * one per valid secret (two during a rotation). Secrets are `whsec_` + base64 of 32 random bytes.
 */
const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(): string {
  return PREFIX + bytesToBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** A new message id: `msg_` and 32 random hex digits. */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `msg_${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const raw = base64ToBytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** `v1,<signature>` of one secret. */
export async function signatureOf(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign(
    'HMAC',
    await hmacKey(secret),
    new TextEncoder().encode(`${id}.${timestamp}.${body}`),
  );
  return `v1,${bytesToBase64(mac)}`;
}

/** The three headers of a signed request, signed with every secret given (current first). */
export async function signedHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => signatureOf(secret, id, timestamp, body)));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}
