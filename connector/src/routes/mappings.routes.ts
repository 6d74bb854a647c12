import { Hono } from 'hono';
import { bodyHash } from '../../../src/sync/protocol/signing';
import { MAX_BATCH_RECORDS, MAX_BATCH_RECORDS_HEADER, type Mappings } from '../../../src/sync/protocol/wire';
import type { TargetAdapter } from '../adapters/target-adapter';
import type { ConnectorEnv } from '../env';
import { asTargetFailure } from '../targets/target-errors';

/** True when an If-None-Match header lists this ETag (weak comparison, RFC 9110 13.1.2) or is `*`. */
function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * Records per POST /upsert a real shop should get: enough chunks of the adapter's own batch
 * size to keep it busy, few enough to finish within the PIM's slice (docs/shops.md).
 */
export function maxBatchRecordsOf(adapter: TargetAdapter): number {
  return Math.min(MAX_BATCH_RECORDS, adapter.maxBatchRecords ?? Math.max(1, adapter.batchSize) * 4);
}

/**
 * GET /mappings: the shop's manufacturer, unit and tax ids; the PIM caches them about an hour.
 * A real shop is asked through its adapter (a failure is a 502 with the adapter's reason) and
 * the answer says how many records a batch for it should carry (X-Max-Batch-Records).
 */
export const mappingsRoutes = new Hono<ConnectorEnv>().get('/mappings', async (c) => {
  const remote = await c.get('remote')();
  const headers: Record<string, string> = { 'Cache-Control': 'max-age=3600' };
  let mappings: Mappings;
  if (remote) {
    try {
      mappings = await remote.mappings();
    } catch (err) {
      throw asTargetFailure(err, { retryable: false });
    }
    headers[MAX_BATCH_RECORDS_HEADER] = String(maxBatchRecordsOf(remote.adapter));
  } else {
    mappings = await c.get('store').mappings();
  }
  const body = JSON.stringify(mappings);
  const etag = `"${await bodyHash(body)}"`;
  headers.ETag = etag;
  if (matchesEtag(c.req.header('If-None-Match'), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, 'Content-Type': 'application/json; charset=UTF-8' });
});
