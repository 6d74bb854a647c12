import { dbNow, dbNowShifted } from '../kernel/clock';
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { companies } from '../db/schema';

/** The Cron Trigger that prunes history (wrangler.toml `[triggers] crons`). */
export const HISTORY_PRUNE_CRON = '17 * * * *';

interface PruneLimits {
  /** Rows deleted per statement. */
  chunk?: number;
  /** Rows deleted per run at most. */
  maxRows?: number;
  /** Companies looked at per run at most. */
  maxCompanies?: number;
}

/**
 * Deletes history older than each company's retention (`companies.history_retention_months`,
 * default 24), measured on the database clock: the versions, and the review and completeness
 * events of the changes feed (`domain_events`, kept as long). Work per run is bounded: at most
 * `maxRows` rows in statements of `chunk`, over at most `maxCompanies` companies, least
 * recently pruned first, so a backlog is worked off over several runs and no company is
 * starved. A company is marked pruned only once nothing expired is left in either table.
 */
export async function pruneHistory(
  db: Database,
  limits: PruneLimits = {},
): Promise<{ deleted: number; companies: number }> {
  const chunk = limits.chunk ?? 500;
  const maxRows = limits.maxRows ?? 20_000;
  const due = await db
    .select({ id: companies.id, months: companies.historyRetentionMonths })
    .from(companies)
    .orderBy(sql`${companies.historyPrunedAt} IS NOT NULL`, asc(companies.historyPrunedAt), asc(companies.id))
    .limit(limits.maxCompanies ?? 200);
  let deleted = 0;
  let visited = 0;
  for (const company of due) {
    if (deleted >= maxRows) break;
    visited += 1;
    const cutoff = dbNowShifted(`-${Math.max(1, company.months)} months`);
    let done = false;
    for (const table of [sql`history_versions`, sql`domain_events`]) {
      done = false;
      while (!done && deleted < maxRows) {
        const limit = Math.min(chunk, maxRows - deleted);
        const result = await db.run(sql`DELETE FROM ${table} WHERE id IN (
          SELECT id FROM ${table} WHERE company_id = ${company.id} AND at < ${cutoff} ORDER BY at LIMIT ${limit})`);
        const changes = result.meta.changes ?? 0;
        deleted += changes;
        done = changes < limit;
      }
      if (!done) break;
    }
    if (done) await db.update(companies).set({ historyPrunedAt: dbNow }).where(eq(companies.id, company.id));
  }
  return { deleted, companies: visited };
}
