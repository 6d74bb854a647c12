import { createMiddleware } from 'hono/factory';
import { bodyHash, verifyRequestHash, type ConnectorKeys } from '../../../src/sync/protocol/signing';
import type { ConnectorEnv } from '../env';
import { ConnectorError } from './connector-error';

let parsedKeys: { source: string; keys: ConnectorKeys } | null = null;

/** Parses CONNECTOR_KEYS (`{"<keyId>": "<secret>"}`); a missing or malformed value is a deployment error. */
export function connectorKeys(source: string | undefined): ConnectorKeys {
  if (parsedKeys && parsedKeys.source === source) return parsedKeys.keys;
  let value: unknown;
  try {
    value = JSON.parse(source ?? '');
  } catch {
    value = null;
  }
  const entries = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
  if (entries.length === 0 || entries.some(([id, secret]) => !id || typeof secret !== 'string' || secret.length < 16)) {
    throw new Error('CONNECTOR_KEYS must be a JSON object of key id to secret (at least 16 characters each)');
  }
  const keys = Object.fromEntries(entries) as ConnectorKeys;
  parsedKeys = { source: source!, keys };
  return keys;
}

/**
 * Every request must be signed by the PIM (docs/sync.md, "Connector protocol"). The body is
 * read once here, hashed for the signature and kept (bytes and hash) for the route, so the
 * route parses the exact bytes that were signed and never hashes them again.
 */
export const requireSignature = createMiddleware<ConnectorEnv>(async (c, next) => {
  const keys = connectorKeys(c.env.CONNECTOR_KEYS);
  const body = new Uint8Array(await c.req.arrayBuffer());
  const bodySha256 = await bodyHash(body);
  const result = await verifyRequestHash(c.req.raw, bodySha256, keys);
  if (!result.ok) throw new ConnectorError('unauthorized', result.error, {}, { 'WWW-Authenticate': 'PIM-HMAC-SHA256' });
  c.set('body', body);
  c.set('bodySha256', bodySha256);
  c.set('keyId', result.keyId);
  await next();
});
