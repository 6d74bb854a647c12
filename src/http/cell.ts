import type { Context, MiddlewareHandler } from 'hono';
import { HOME_CELL, MOVE_RETRY_AFTER_SECONDS, openCellSession, placementOf } from '../db/cells';
import { prepareMemberScopeSet } from '../db/scope-counts';
import { BOOKMARK_HEADER } from '../db/session';
import type { AppEnv } from '../env';
import { AppError } from '../kernel/app-error';
import { afterAnswer } from './background';

/**
 * Routes the request to its caller's cell (docs/scaling.md section 5), once the caller is known:
 * `db` and `dbSession` become a session on the company's cell, started from the request's
 * bookmark when it names that cell. A company in cell-1 keeps the request's session (it is
 * already on that database). While the company moves to another cell, its writes (every method
 * but GET and HEAD) are refused with 503 and `Retry-After`; reads go on in the old cell.
 * Security reads were made before, on the directory session.
 */
export async function enterCell<E extends AppEnv>(c: Context<E>, companyId: string): Promise<void> {
  const placement = await placementOf(c.env, companyId);
  if (placement.state === 'moving' && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    throw new AppError('unavailable', 'the company is moving to another database; try again shortly', {
      'Retry-After': String(MOVE_RETRY_AFTER_SECONDS),
    });
  }
  if (placement.cell === HOME_CELL) return;
  const session = openCellSession(c.env, placement.cell, c.req.header(BOOKMARK_HEADER));
  const ctx = c as unknown as Context<AppEnv>;
  ctx.set('dbSession', session);
  ctx.set('db', session.db);
}

/** Middleware form of `enterCell` for cookie-session controllers (after `requireSession`). */
export const useCell: MiddlewareHandler<AppEnv> = async (c, next) => {
  await enterCell(c, c.var.caller.companyId);
  await next();
};

/**
 * The primary of the company's cell, for a directory route that must also read the company's
 * catalog data (SetMemberRole checks scope ids there) while its own writes stay on the directory.
 */
export async function cellPrimaryOf<E extends AppEnv>(c: Context<E>, companyId: string) {
  const placement = await placementOf(c.env, companyId);
  if (placement.cell === HOME_CELL) return c.var.dbSession.primary();
  return openCellSession(c.env, placement.cell).primary();
}

/**
 * After the answer (`waitUntil`): the scope set of the member's category scope as stored now is
 * made and counted (docs/teams.md "Counts"), so the member's first count reads kept counters
 * instead of counting their products in that request. Called by every route that gives a
 * membership category scopes: SetMemberRole, AcceptInvitation, the single sign-on callback (an
 * invitation consumed at a first sign-in) and ReactivateMember. Lost or failed, the member's
 * first count makes the set, as it would have without this.
 */
export function prepareScopeSetAfter<E extends AppEnv>(c: Context<E>, companyId: string, userId: string): void {
  afterAnswer(c, 'scope_set_prepare_failed', async () =>
    prepareMemberScopeSet(c.var.dbSession.primary(), await cellPrimaryOf(c, companyId), companyId, userId),
  );
}
