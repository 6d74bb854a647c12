import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { assertAdmin } from '../accounts/admin-only';
import type { Database } from '../db/client';
import { type DeliveryAttempt, webhookDeliveries } from '../db/schema';
import type { WebhookMessage } from '../env';
import { conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { keysetPage } from '../kernel/pagination';
import { enqueueDeliveries } from './dispatch';
import { findEndpoint } from './endpoints';
import { newMessageId } from './signing';
import type { DeliveryOut } from './webhook.schemas';

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface QueueDeps {
  db: Database;
  queue: Queue<WebhookMessage>;
  cell?: string;
}

export function deliveryOut(row: DeliveryRow): z.infer<typeof DeliveryOut> {
  return {
    deliveryId: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.eventType,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    createdAt: row.createdAt,
    log: JSON.parse(row.log) as DeliveryAttempt[],
    payload: JSON.parse(row.payload) as z.infer<typeof DeliveryOut>['payload'],
  };
}

/** GetDeliveries (admin): an endpoint's delivery log, newest first, keyset-paginated. */
export async function listDeliveries(
  db: Database,
  caller: Caller,
  input: { endpointId: string; status?: DeliveryRow['status']; cursor?: string; limit: number },
) {
  assertAdmin(caller);
  await findEndpoint(db, caller.companyId, input.endpointId);
  const page = await keysetPage(
    input,
    { column: webhookDeliveries.id, order: 'desc' },
    (q) =>
      db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.companyId, caller.companyId),
            eq(webhookDeliveries.endpointId, input.endpointId),
            input.status ? eq(webhookDeliveries.status, input.status) : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (row) => row.id,
  );
  return { items: page.items.map(deliveryOut), nextCursor: page.nextCursor };
}

/**
 * Redeliver (admin): the same message (same `webhook-id`, so a receiver that has it can tell)
 * goes out again now, whatever its status, with a fresh retry schedule. Its endpoint must be enabled.
 */
export async function redeliver(deps: QueueDeps, caller: Caller, deliveryId: string) {
  assertAdmin(caller);
  const row = await deps.db.query.webhookDeliveries.findFirst({
    where: and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.companyId, caller.companyId)),
  });
  if (!row) throw notFound('delivery');
  const endpoint = await findEndpoint(deps.db, caller.companyId, row.endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (UpdateEndpoint)');
  const [updated] = await deps.db
    .update(webhookDeliveries)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date().toISOString() })
    .where(and(eq(webhookDeliveries.id, row.id), eq(webhookDeliveries.companyId, caller.companyId)))
    .returning();
  await enqueueDeliveries(deps, [row.id]);
  return deliveryOut(updated!);
}

/** SendTestEvent (admin): a `webhook.test` message to one endpoint, logged like any other. */
export async function sendTestEvent(deps: QueueDeps, caller: Caller, endpointId: string) {
  assertAdmin(caller);
  const endpoint = await findEndpoint(deps.db, caller.companyId, endpointId);
  if (!endpoint.enabled) throw conflict('the endpoint is disabled: enable it first (UpdateEndpoint)');
  const now = new Date().toISOString();
  const payload = {
    type: 'webhook.test',
    timestamp: now,
    data: { endpointId, message: 'A test event sent from the PIM: your endpoint receives and verifies webhooks.' },
  };
  const [row] = await deps.db
    .insert(webhookDeliveries)
    .values({
      id: newId(),
      companyId: caller.companyId,
      endpointId,
      messageId: newMessageId(),
      eventType: 'webhook.test',
      orderKey: null,
      payload: JSON.stringify(payload),
      nextAttemptAt: now,
    })
    .returning();
  await enqueueDeliveries(deps, [row!.id]);
  return deliveryOut(row!);
}
