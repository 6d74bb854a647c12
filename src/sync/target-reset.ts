import { and, eq, isNotNull, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncConnections, syncTargetResets } from '../db/schema';
import { dbNow } from '../kernel/clock';
import { newId } from '../kernel/ids';
import { deleteTarget, withNetworkRetries, type ConnectorTarget, type Fetcher } from './connector-client';

type ConnectionRow = typeof syncConnections.$inferSelect;

/**
 * Resetting a connector key's target (DELETE /target) when the PIM stops naming a shop for it
 * (docs/shops.md, "The PIM side"): the connection's shop removed, the connection deleted, or
 * moved to another connector URL or key while it had a shop.
 *
 * The reset is recorded in the same batch as that write, so the write stays all-or-nothing
 * whatever the connector does; then it is sent at once (one try, a short timeout) and the record
 * removed when the connector confirmed it. A connector that could not be reached, or refused,
 * keeps the record: the next run of that key (any connection of the company with the same
 * connector URL and key and no shop) sends DELETE /target before anything else and fails with
 * the connector's reason if it still cannot; a connection that names a shop for the key again
 * drops the record, since its run sends PUT /target instead. Reads show `targetResetPending`.
 */

/** How long the write waits for the connector's answer before leaving the reset to the next run. */
const RESET_TIMEOUT_MS = 5000;

type Key = Pick<ConnectionRow, 'companyId' | 'connectorUrl' | 'keyId'>;

const keyIs = (key: Key) =>
  and(
    eq(syncTargetResets.companyId, key.companyId),
    eq(syncTargetResets.connectorUrl, key.connectorUrl),
    eq(syncTargetResets.keyId, key.keyId),
  );

/**
 * Whether a write that takes `before`'s shop away from its key must reset the key's target:
 * `before` named a shop, and no other connection of the company names one for the same
 * connector URL and key (its runs put their own shop there).
 */
export async function resetNeeded(db: Database, before: ConnectionRow): Promise<boolean> {
  if (!before.shop) return false;
  const other = await db
    .select({ id: syncConnections.id })
    .from(syncConnections)
    .where(
      and(
        eq(syncConnections.companyId, before.companyId),
        eq(syncConnections.connectorUrl, before.connectorUrl),
        eq(syncConnections.keyId, before.keyId),
        ne(syncConnections.id, before.id),
        isNotNull(syncConnections.shop),
      ),
    )
    .limit(1);
  return other.length === 0;
}

/** The statement recording a reset of the key (a new id: a run that sent an older one removes only that). */
export function recordReset(db: Database, key: Key) {
  return db
    .insert(syncTargetResets)
    .values({ id: newId(), companyId: key.companyId, connectorUrl: key.connectorUrl, keyId: key.keyId })
    .onConflictDoUpdate({
      target: [syncTargetResets.companyId, syncTargetResets.connectorUrl, syncTargetResets.keyId],
      set: { id: newId(), createdAt: dbNow },
    });
}

/** The statement dropping the key's reset: a connection names a shop for it again (PUT /target replaces it). */
export function dropReset(db: Database, key: Key) {
  return db.delete(syncTargetResets).where(keyIs(key));
}

/** The reset recorded for the key, if any. */
export async function pendingReset(db: Database, key: Key): Promise<{ id: string } | null> {
  const [row] = await db.select({ id: syncTargetResets.id }).from(syncTargetResets).where(keyIs(key)).limit(1);
  return row ?? null;
}

/**
 * Right after the write: DELETE /target once, with a short timeout. True when the reset is still
 * pending (the connector was not reached in time or refused); false when it was done or none
 * is recorded (a concurrent write or run took care of it).
 */
export async function sendResetNow(deps: { db: Database; fetcher: Fetcher }, key: Key, target: ConnectorTarget) {
  const pending = await pendingReset(deps.db, key);
  if (!pending) return false;
  try {
    await deleteTarget(deps.fetcher, target, AbortSignal.timeout(RESET_TIMEOUT_MS));
  } catch {
    return true;
  }
  await deps.db.delete(syncTargetResets).where(eq(syncTargetResets.id, pending.id));
  return false;
}

/**
 * Before a run (or a connection test) of a key without a shop: sends the pending reset, with the
 * run's network retries when `sleep` is given (else one try, network errors propagate). A
 * refusal throws the ConnectorError that fails the run with the connector's reason.
 */
export async function sendPendingReset(
  deps: { db: Database; fetcher: Fetcher; sleep?: (ms: number) => Promise<void> },
  key: Key,
  target: ConnectorTarget,
): Promise<void> {
  const pending = await pendingReset(deps.db, key);
  if (!pending) return;
  const send = () => deleteTarget(deps.fetcher, target);
  await (deps.sleep ? withNetworkRetries(deps.sleep, 'DELETE /target', send) : send());
  await deps.db.delete(syncTargetResets).where(eq(syncTargetResets.id, pending.id));
}
