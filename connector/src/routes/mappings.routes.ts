import { Hono } from 'hono';
import { bodyHash } from '../../../src/sync/protocol/signing';
import type { ConnectorEnv } from '../env';

/** True when an If-None-Match header lists this ETag (weak comparison, RFC 9110 13.1.2) or is `*`. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** GET /mappings: the shop's manufacturer, unit and tax ids; the PIM caches them about an hour. */
export const mappingsRoutes = new Hono<ConnectorEnv>().get('/mappings', async (c) => {
  const body = JSON.stringify(await c.get('store').mappings());
  const etag = `"${await bodyHash(body)}"`;
  const headers = { ETag: etag, 'Cache-Control': 'max-age=3600' };
  if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'Content-Type': 'application/json; charset=UTF-8' });
});
