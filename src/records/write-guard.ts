import { type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { conflict } from '../kernel/app-error';

/**
 * Optimistic writes (docs/history.md, "Concurrency"): a write reads everything it plans from in
 * one round trip, plans its statements, its history entry and the master's new fingerprint in
 * JavaScript, and sends them as one `db.batch` that starts with a guard. The guard fails the
 * whole batch when what the plan was made from has moved (the master's revision, or for a
 * catalog or category the value at the written path), so a recorded `before` is always the
 * state the write replaced and a stored fingerprint always the record it was computed from.
 * The loser of a race reads again and plans again, a few times, then answers 409.
 */

/** The text the guard makes SQLite fail with; no statement of ours sends malformed JSON otherwise. */
const GUARD_FAILURE = 'malformed JSON';

/**
 * A read statement that fails the batch unless `condition` holds when the batch runs: `json()`
 * of a text that is not JSON raises an error, and D1 rolls the batch back on any error. Put it
 * first. (D1 has no RAISE outside triggers; an UPDATE whose WHERE misses changes nothing and
 * cannot tell a deleted row from a moved one, so the guard is a SELECT of its own.)
 */
export function guardStatement(db: Database, condition: SQL): BatchStatement {
  return db
    .select({ ok: sql<string>`json(CASE WHEN ${condition} THEN '1' ELSE 'write conflict' END)` })
    .from(sql`(SELECT 1)`);
}

/** Whether a failed batch was stopped by its guard (someone else wrote first). */
export function isWriteConflict(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return `${err.message} ${String(err.cause ?? '')}`.includes(GUARD_FAILURE);
}

/** How long a write keeps retrying lost races before it answers 409 (each try is two round trips). */
export const RETRY_BUDGET_MS = 15_000;

/**
 * Runs `attempt` (read, plan, guarded batch) until its batch is not stopped by its guard, for at
 * most RETRY_BUDGET_MS, waiting a random (full-jitter, exponentially growing, capped at 1 s)
 * time between tries so that racing writers spread out instead of colliding again in step. A
 * write that still loses answers 409 and changed nothing; the client may simply send it again.
 * Only writers of the same master (or catalog/category value) collide: one product written by
 * 50 requests at once all succeed locally; at 100 at once some answer 409 (docs/history.md).
 */
export async function retryOnConflict<T>(
  attempt: (tryNumber: number) => Promise<T>,
  /** Tries made whatever the time: a writer whose later try cannot lose (SetValue) reaches it on a slow machine too. */
  sureTries = 1,
): Promise<T> {
  const started = Date.now();
  for (let i = 1; ; i++) {
    try {
      return await attempt(i);
    } catch (err) {
      if (!isWriteConflict(err)) throw err;
      const wait = Math.random() * Math.min(1000, 5 * 2 ** i);
      if (i >= sureTries && Date.now() + wait - started > RETRY_BUDGET_MS)
        throw conflict('the element was changed by other writes at the same time; read it and send the change again');
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
