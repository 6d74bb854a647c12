import type { Context } from 'hono';
import type { Database } from '../db/client';
import { afterAnswer } from '../http/background';
import type { Caller } from '../kernel/caller';
import { countCatalogScopeDay } from './catalog-scope-days';

/**
 * After the GetCompletenessTrend answer of a member whose scope names catalogs (REST and
 * `/api/ai`): today's count of their scope (migration 0094) when it is missing, through
 * `waitUntil`. The cron counts it too (src/scheduled.ts), but Cron Triggers do not fire under
 * `wrangler dev`: this way a local member's days are made as well. Once today's count is stored,
 * this costs one primary-key read; lost, the cron or the next read counts it.
 */
export function countScopeDayAfter<E extends { Variables: { db: Database } }>(
  c: Context<E>,
  caller: Pick<Caller, 'companyId' | 'productScope'>,
): void {
  const scope = caller.productScope;
  if (!scope?.catalogIds.length) return;
  const db = c.var.db;
  afterAnswer(c, 'catalog_scope_day_failed', () => countCatalogScopeDay(db, caller.companyId, scope));
}
