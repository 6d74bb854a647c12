/**
 * Request signing between the PIM (client) and a shop connector (docs/sync.md, "Connector
 * protocol"; docs/design.md section 9). WebCrypto only, so the same module runs in both Workers
 * and in Node (tests, benchmarks).
 *
 * String to sign: METHOD "\n" pathWithQuery "\n" timestamp "\n" hex(SHA-256(body)), HMAC-SHA256
 * keyed with the UTF-8 bytes of the secret, lowercase hex, sent as `X-PIM-Signature: v1=<hex>`.
 */

const KEY_ID_HEADER = 'X-PIM-Key-Id';
const TIMESTAMP_HEADER = 'X-PIM-Timestamp';
const SIGNATURE_HEADER = 'X-PIM-Signature';

/** How far a request's timestamp may be from the connector's clock, in seconds. */
const MAX_CLOCK_SKEW_SECONDS = 300;

/** Key id → secret, e.g. the connector's `CONNECTOR_KEYS` JSON. Two entries during a rotation. */
export type ConnectorKeys = Record<string, string>;

type SignedBody = string | Uint8Array | ArrayBuffer | null | undefined;

interface SignRequestInput {
  keyId: string;
  secret: string;
  method: string;
  /** The URL's pathname + search exactly as sent (see `pathWithQueryOf`). */
  pathWithQuery: string;
  body?: SignedBody;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

type VerifyResult = { ok: true; keyId: string } | { ok: false; error: string };

const encoder = new TextEncoder();

function bytesOf(body: SignedBody): Uint8Array {
  if (body === null || body === undefined) return new Uint8Array(0);
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The part of a URL that is signed: pathname + search, as the URL serialises them. */
export function pathWithQueryOf(url: string | URL): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  return parsed.pathname + parsed.search;
}

/** Lowercase hex SHA-256 of the exact body bytes (the empty string's hash for no body). */
export async function bodyHash(body: SignedBody): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', bytesOf(body)));
}

function stringToSign(method: string, pathWithQuery: string, timestamp: number, bodySha256: string): string {
  return `${method.toUpperCase()}\n${pathWithQuery}\n${timestamp}\n${bodySha256}`;
}

async function hmac(secret: string, message: string): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return crypto.subtle.sign('HMAC', key, encoder.encode(message));
}

/** The three headers that authenticate one request to a connector. */
export async function signRequest(input: SignRequestInput): Promise<Record<string, string>> {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const message = stringToSign(input.method, input.pathWithQuery, timestamp, await bodyHash(input.body));
  return {
    [KEY_ID_HEADER]: input.keyId,
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: `v1=${hex(await hmac(input.secret, message))}`,
  };
}

/**
 * Constant-time comparison through workerd's `crypto.subtle.timingSafeEqual` (which throws on
 * different lengths, hence the length check; a signature's length is no secret). Verification
 * runs only in Workers (the connector, the PIM's tests); Node scripts only sign.
 */
function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}

function hexToBytes(value: string): Uint8Array {
  const out = new Uint8Array(value.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Checks a request's signature against the configured keys. `now` is Unix seconds. The error
 * says only "missing", "stale" or "invalid", never which part of the secret material was wrong.
 */
export async function verifyRequest(
  request: Request,
  bodyBytes: SignedBody,
  keys: ConnectorKeys,
  now = Math.floor(Date.now() / 1000),
): Promise<VerifyResult> {
  return verifyRequestHash(request, await bodyHash(bodyBytes), keys, now);
}

/**
 * `verifyRequest` for a body whose SHA-256 (`bodyHash`) the caller already has: the connector
 * hashes an /upsert body once, for the signature and for its batch replay check.
 */
export async function verifyRequestHash(
  request: Request,
  bodySha256: string,
  keys: ConnectorKeys,
  now = Math.floor(Date.now() / 1000),
): Promise<VerifyResult> {
  const keyId = request.headers.get(KEY_ID_HEADER);
  const timestampText = request.headers.get(TIMESTAMP_HEADER);
  const signature = request.headers.get(SIGNATURE_HEADER);
  if (!keyId || !timestampText || !signature) return { ok: false, error: 'missing request signature' };
  if (!/^\d{1,12}$/.test(timestampText)) return { ok: false, error: 'invalid request signature' };
  const timestamp = Number(timestampText);
  if (Math.abs(now - timestamp) > MAX_CLOCK_SKEW_SECONDS) return { ok: false, error: 'stale request signature' };
  const match = /^v1=([0-9a-f]{64})$/.exec(signature);
  const secret = Object.hasOwn(keys, keyId) ? keys[keyId] : undefined;
  if (!match || !secret) return { ok: false, error: 'invalid request signature' };
  const message = stringToSign(request.method, pathWithQueryOf(request.url), timestamp, bodySha256);
  const expected = new Uint8Array(await hmac(secret, message));
  return timingSafeEqual(expected, hexToBytes(match[1]!))
    ? { ok: true, keyId }
    : { ok: false, error: 'invalid request signature' };
}
