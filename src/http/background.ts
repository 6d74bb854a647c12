import type { Context } from 'hono';

/**
 * Runs `work` after the answer (`waitUntil`): upkeep a request causes but need not wait for, such
 * as counting a scope set (docs/teams.md "Counts"). Such work must be safe to lose: a failure is
 * logged under `event` (no detail reaches a client) and whatever it would have prepared is then
 * done by the next request that needs it.
 */
export function afterAnswer(c: Context, event: string, work: () => Promise<unknown>): void {
  c.executionCtx.waitUntil(
    work().catch((err: unknown) => console.error(JSON.stringify({ event, detail: String(err) }))),
  );
}
