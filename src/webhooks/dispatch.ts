import { and, asc, eq, gt, lte, max, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jsonInsert } from '../db/json-rows';
import { webhookDeliveries, webhookDispatch, webhookEndpoints, webhookOutbox } from '../db/schema';
import type { WebhookMessage } from '../env';
import { lastFeedSeq, readFeed } from '../history/changes-feed';
import { newId } from '../kernel/ids';
import { guardStatement, isWriteConflict } from '../records/write-guard';
import { feedEvents, outboxEvents, subscribes, type WebhookEvent } from './events';
import { newMessageId } from './signing';

/** Feed rows (and outbox rows) one dispatch round reads: bounded work and batch size per round. */
export const DISPATCH_ROUND_ROWS = 500;

/** What the dispatcher needs: the company's cell database, the queue, the cell's name for messages, a clock. */
export interface DispatchDeps {
  db: Database;
  queue: Queue<WebhookMessage>;
  cell?: string;
  now?: () => Date;
}

/** Sends one queue message per delivery id (in chunks the Queues API takes), in the order given. */
export async function enqueueDeliveries(
  deps: Pick<DispatchDeps, 'queue' | 'cell'>,
  ids: readonly string[],
  delaySeconds = 0,
): Promise<void> {
  for (let at = 0; at < ids.length; at += 100) {
    await deps.queue.sendBatch(
      ids.slice(at, at + 100).map((id) => ({
        body: { webhookDeliveryId: id, ...(deps.cell ? { cell: deps.cell } : {}) },
        ...(delaySeconds > 0 ? { delaySeconds } : {}),
      })),
    );
  }
}

/** Pending delivery rows of `events` to every enabled endpoint that subscribed to each. */
export function deliveryRows(
  companyId: string,
  endpoints: readonly { id: string; eventTypes: string[] }[],
  events: readonly WebhookEvent[],
  now: Date,
) {
  const rows = [];
  for (const event of events) {
    const messageId = newMessageId();
    for (const endpoint of endpoints) {
      if (!subscribes(endpoint.eventTypes, event.type)) continue;
      rows.push({
        id: newId(),
        companyId,
        endpointId: endpoint.id,
        messageId,
        eventType: event.type,
        orderKey: event.orderKey,
        payload: event.payload,
        nextAttemptAt: now.toISOString(),
      });
    }
  }
  return rows;
}

async function lastOutboxSeq(db: Database, companyId: string): Promise<number> {
  const [row] = await db
    .select({ seq: max(webhookOutbox.seq) })
    .from(webhookOutbox)
    .where(eq(webhookOutbox.companyId, companyId));
  return row?.seq ?? 0;
}

/**
 * The dispatcher's position, created at the end of the feed and outbox the first time: a
 * company's first endpoint gets what is committed after it was added (AddEndpoint calls this),
 * not the company's whole history.
 */
export async function position(db: Database, companyId: string): Promise<{ feedSeq: number; outboxSeq: number }> {
  const row = await db.query.webhookDispatch.findFirst({ where: eq(webhookDispatch.companyId, companyId) });
  if (row && row.feedSeq !== null && row.outboxSeq !== null) return { feedSeq: row.feedSeq, outboxSeq: row.outboxSeq };
  const start = {
    feedSeq: row?.feedSeq ?? (await lastFeedSeq(db, companyId)),
    outboxSeq: row?.outboxSeq ?? (await lastOutboxSeq(db, companyId)),
  };
  await db
    .insert(webhookDispatch)
    .values({ companyId, ...start })
    .onConflictDoUpdate({
      target: webhookDispatch.companyId,
      set: start,
      where: sql`feed_seq IS NULL OR outbox_seq IS NULL`,
    });
  return start;
}

export interface DispatchResult {
  /** The company has at least one enabled endpoint (the dispatcher keeps running). */
  active: boolean;
  /** Deliveries created in this round. */
  created: number;
  /** More rows wait past the new position: run another round at once. */
  more: boolean;
}

/**
 * One dispatch round of a company: reads the history feed and the outbox past the dispatcher's
 * position, turns them into events (one per product per round, `feedEvents`), and writes a
 * pending delivery per subscribed endpoint and the new position in ONE batch guarded on the old
 * position, so two dispatchers racing cannot both fan out the same rows, and a crash before the
 * batch loses nothing (the position did not move). The queue messages go out after the commit;
 * a message lost there is found again by `sweepDeliveries` (the row is pending and overdue).
 * Without an enabled endpoint the position moves to the end: events are not kept for later.
 */
export async function dispatchRound(deps: DispatchDeps, companyId: string): Promise<DispatchResult> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const endpoints = await db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true)));
  const from = await position(db, companyId);
  if (endpoints.length === 0) {
    const end = { feedSeq: await lastFeedSeq(db, companyId), outboxSeq: await lastOutboxSeq(db, companyId) };
    await db.batch([
      db
        .update(webhookDispatch)
        .set({ ...end, updatedAt: now.toISOString() })
        .where(eq(webhookDispatch.companyId, companyId)),
      db
        .delete(webhookOutbox)
        .where(and(eq(webhookOutbox.companyId, companyId), lte(webhookOutbox.seq, end.outboxSeq))),
    ]);
    return { active: false, created: 0, more: false };
  }
  const [feed, outbox] = await Promise.all([
    readFeed(db, companyId, from.feedSeq, DISPATCH_ROUND_ROWS),
    db
      .select()
      .from(webhookOutbox)
      .where(and(eq(webhookOutbox.companyId, companyId), gt(webhookOutbox.seq, from.outboxSeq)))
      .orderBy(asc(webhookOutbox.seq))
      .limit(DISPATCH_ROUND_ROWS),
  ]);
  if (feed.length === 0 && outbox.length === 0) return { active: true, created: 0, more: false };
  const to = { feedSeq: feed.at(-1)?.seq ?? from.feedSeq, outboxSeq: outbox.at(-1)?.seq ?? from.outboxSeq };
  const rows = deliveryRows(companyId, endpoints, [...feedEvents(companyId, feed), ...outboxEvents(outbox)], now);
  try {
    await db.batch([
      guardStatement(
        db,
        sql`EXISTS (SELECT 1 FROM ${webhookDispatch} WHERE ${webhookDispatch.companyId} = ${companyId}
          AND ${webhookDispatch.feedSeq} = ${from.feedSeq} AND ${webhookDispatch.outboxSeq} = ${from.outboxSeq})`,
      ),
      ...jsonInsert(db, webhookDeliveries, rows),
      db
        .update(webhookDispatch)
        .set({ ...to, updatedAt: now.toISOString() })
        .where(eq(webhookDispatch.companyId, companyId)),
      db.delete(webhookOutbox).where(and(eq(webhookOutbox.companyId, companyId), lte(webhookOutbox.seq, to.outboxSeq))),
    ]);
  } catch (err) {
    // another round of this company committed first: it fanned these rows out
    if (isWriteConflict(err)) return { active: true, created: 0, more: true };
    throw err;
  }
  await enqueueDeliveries(
    deps,
    rows.map((r) => r.id),
  );
  return {
    active: true,
    created: rows.length,
    more: feed.length === DISPATCH_ROUND_ROWS || outbox.length === DISPATCH_ROUND_ROWS,
  };
}

/** How long a pending, due delivery may go without an attempt before the sweep sends its message again. */
export const SWEEP_AFTER_MS = 2 * 60 * 1000;

/**
 * Sends again the messages of pending deliveries that are overdue by SWEEP_AFTER_MS (a message
 * lost after the commit, a delay longer than the queue's 12 hours, an endpoint enabled again),
 * at most `limit` per call, oldest first. Each is pushed forward first, so it is not swept twice.
 */
export async function sweepDeliveries(deps: DispatchDeps, companyId: string, limit = 200): Promise<number> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const overdue = new Date(now.getTime() - SWEEP_AFTER_MS).toISOString();
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        eq(webhookDeliveries.status, 'pending'),
        lte(webhookDeliveries.nextAttemptAt, overdue),
        eq(webhookEndpoints.enabled, true),
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(limit);
  if (rows.length === 0) return 0;
  const ids = rows.map((r) => r.id);
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now.toISOString() })
    .where(
      and(
        eq(webhookDeliveries.companyId, companyId),
        sql`${webhookDeliveries.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
  await enqueueDeliveries(deps, ids);
  return ids.length;
}
