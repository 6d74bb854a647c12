import { HOME_CELL, openCellSession } from '../db/cells';
import type { Bindings, WebhookMessage } from '../env';
import { allowsPrivateTargets } from '../sync/protocol/url-guard';
import { attemptDelivery, retryDivisorOf } from '../webhooks/deliver';

/**
 * A webhook delivery message: one attempt (src/webhooks/deliver.ts), on the cell's primary
 * (an attempt decides from the newest state of its delivery). The attempt schedules its own
 * retries as new delayed messages, so the queue's max_retries never cuts a 24-hour schedule
 * short; an unexpected error (D1 unavailable) is retried by the queue, and a message the queue
 * gives up on leaves a pending, overdue row that the dispatcher's sweep sends again.
 */
export async function handleWebhookMessage(message: Message<WebhookMessage>, env: Bindings): Promise<void> {
  const cell = message.body.cell ?? HOME_CELL;
  const db = openCellSession(env, cell).primary();
  try {
    await attemptDelivery(
      {
        db,
        queue: env.JOB_QUEUE as Queue<WebhookMessage>,
        cell,
        encryptionKey: env.WEBHOOK_ENCRYPTION_KEY,
        allowPrivate: allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS),
        fetch: (input, init) => fetch(input, init),
        retryDivisor: retryDivisorOf(env),
      },
      message.body.webhookDeliveryId,
    );
    message.ack();
  } catch (err) {
    console.error(
      JSON.stringify({ where: 'webhooks', deliveryId: message.body.webhookDeliveryId, error: String(err) }),
    );
    message.retry({ delaySeconds: 2 ** Math.min(message.attempts, 8) });
  }
}
