import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webhookEndpoints } from '../db/schema';

/** How long the delivery log keeps a delivered message, and a failed one (kept longer: it may be redelivered). */
export const DELIVERED_RETENTION_DAYS = 30;
export const FAILED_RETENTION_DAYS = 90;
/** How often a company's dispatcher prunes its log (src/webhooks/dispatcher-object.ts). */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The smallest UUIDv7 of a moment: delivery ids are UUIDv7 (src/kernel/ids.ts), whose first 48
 * bits are the creation time in milliseconds, so `id < idAt(t)` is "created before t" and a range
 * of the log's index `(company_id, endpoint_id, id)`, with no index on a timestamp.
 */
export function idAt(at: Date): string {
  const hex = Math.max(0, at.getTime()).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

export interface PruneDeliveryLimits {
  now?: Date;
  /** Rows deleted per statement. */
  chunk?: number;
  /** Rows deleted per call at most. */
  maxRows?: number;
}

/**
 * Deletes a company's delivered deliveries older than DELIVERED_RETENTION_DAYS and failed ones
 * older than FAILED_RETENTION_DAYS (by creation, read from the UUIDv7 id), endpoint by endpoint
 * in statements of `chunk` rows and at most `maxRows` per call, so a backlog is worked off over
 * several calls. Pending deliveries are never pruned. Run by the company's dispatcher once an
 * hour (an alarm: it runs under `wrangler dev` too) and by the hourly cron for every company
 * (`pruneAllDeliveries`).
 */
export async function pruneDeliveries(
  db: Database,
  companyId: string,
  limits: PruneDeliveryLimits = {},
): Promise<{ deleted: number; done: boolean }> {
  const now = limits.now ?? new Date();
  const chunk = limits.chunk ?? 500;
  const maxRows = limits.maxRows ?? 5_000;
  const delivered = idAt(new Date(now.getTime() - DELIVERED_RETENTION_DAYS * DAY_MS));
  const failed = idAt(new Date(now.getTime() - FAILED_RETENTION_DAYS * DAY_MS));
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, companyId))
    .orderBy(asc(webhookEndpoints.id));
  let deleted = 0;
  for (const endpoint of endpoints) {
    for (;;) {
      if (deleted >= maxRows) return { deleted, done: false };
      const limit = Math.min(chunk, maxRows - deleted);
      const result = await db.run(sql`DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries WHERE company_id = ${companyId} AND endpoint_id = ${endpoint.id}
          AND id < ${delivered} AND (status = 'delivered' OR (status = 'failed' AND id < ${failed}))
        ORDER BY id LIMIT ${limit})`);
      const changes = result.meta.changes ?? 0;
      deleted += changes;
      if (changes < limit) break;
    }
  }
  return { deleted, done: true };
}

/**
 * The hourly cron: prunes the delivery log of every company of a cell with an endpoint, at most
 * `maxRows` per run. It reaches the companies whose endpoints are all disabled (their dispatcher
 * does not run); a company with an enabled endpoint is pruned by its dispatcher every hour anyway.
 */
export async function pruneAllDeliveries(db: Database, limits: { maxRows?: number; maxCompanies?: number } = {}) {
  const maxRows = limits.maxRows ?? 20_000;
  const rows = await db
    .selectDistinct({ companyId: webhookEndpoints.companyId })
    .from(webhookEndpoints)
    .orderBy(asc(webhookEndpoints.companyId))
    .limit(limits.maxCompanies ?? 1000);
  let deleted = 0;
  for (const { companyId } of rows) {
    if (deleted >= maxRows) break;
    deleted += (await pruneDeliveries(db, companyId, { maxRows: maxRows - deleted })).deleted;
  }
  return { deleted };
}
