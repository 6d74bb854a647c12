import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type DeliveryAttempt, webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { WebhookMessage } from '../env';
import { refusedUrlReason } from '../sync/protocol/url-guard';
import { enqueueDeliveries } from './dispatch';
import { signingSecrets } from './endpoints';
import { signedHeaders } from './signing';

/**
 * Seconds to wait after each failed attempt (the Standard Webhooks / Svix schedule): 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h, so the last of eight attempts is made about 27.6 hours after the
 * first. When it fails too, the delivery is failed and the endpoint disabled with a notice.
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** An attempt that takes longer fails (the receiver should answer at once and work afterwards). */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** Bytes of a response body kept for the log; the rest is never read. */
export const RESPONSE_SNIPPET_BYTES = 1024;
/** How long an attempt holds its delivery (no second message starts it meanwhile). */
const LEASE_MS = 60_000;
/** How often a delivery waiting behind an earlier one of the same product looks again, at least. */
const ORDER_WAIT_SECONDS = 5;
/** Queues delays messages by at most 12 hours; a longer wait is finished by the sweep. */
const MAX_QUEUE_DELAY_SECONDS = 43_200;
const LOG_ATTEMPTS = 10;

export interface DeliverDeps {
  db: Database;
  queue: Queue<WebhookMessage>;
  cell?: string;
  encryptionKey: string | undefined;
  allowPrivate: boolean;
  fetch: typeof fetch;
  now?: () => Date;
  /** Local end-to-end tests only (`retryDivisorOf`): the retry schedule divided by this; 1 in production. */
  retryDivisor?: number;
}

/** The largest divisor a test may ask for: one hour of schedule per second. */
const MAX_RETRY_DIVISOR = 3600;

/**
 * Local end-to-end tests only: the Worker var `WEBHOOK_RETRY_DIVISOR` divides the retry schedule
 * (each wait at least 1 s), so a test can keep a receiver down past the first retry (5 s) and see
 * the next one without waiting the production 5 minutes. It counts only together with
 * `ALLOW_PRIVATE_TARGETS = "true"`, which is local-only itself (receivers on loopback), so the
 * var copied into a production config by mistake changes nothing. Anything but an integer from 2
 * to 3600 is 1: the production schedule.
 */
export function retryDivisorOf(env: { WEBHOOK_RETRY_DIVISOR?: string; ALLOW_PRIVATE_TARGETS?: string }): number {
  if (env.ALLOW_PRIVATE_TARGETS !== 'true' || !env.WEBHOOK_RETRY_DIVISOR) return 1;
  const divisor = Number(env.WEBHOOK_RETRY_DIVISOR);
  return Number.isInteger(divisor) && divisor >= 2 && divisor <= MAX_RETRY_DIVISOR ? divisor : 1;
}

/** Seconds to wait after the failed attempt number `attempt` (0-based); undefined after the last. */
export function retryWaitSeconds(attempt: number, divisor = 1): number | undefined {
  const wait = RETRY_SCHEDULE_SECONDS[attempt];
  return wait === undefined ? undefined : Math.max(1, Math.ceil(wait / divisor));
}

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'waiting' | 'skipped';

/** Reads at most `limit` bytes of a body as text and cancels the rest (a huge answer costs nothing). */
async function snippetOf(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.length;
    if (at >= bytes.length) break;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * One POST to the receiver: signed, no redirects followed (a 3xx is a failure: the receiver's
 * URL is the one the admin registered and the SSRF check passed), a timeout, and at most a
 * snippet of the answer read. Never throws.
 */
async function post(
  doFetch: typeof fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number | null; error: string | null }> {
  try {
    const response = await doFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'PIM-Webhooks/1', ...headers },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => {});
      return { status: response.status, error: null };
    }
    const snippet = (await snippetOf(response, RESPONSE_SNIPPET_BYTES)).replace(/\s+/g, ' ').trim().slice(0, 200);
    const what = response.status >= 300 && response.status < 400 ? 'redirect not followed' : `HTTP ${response.status}`;
    return { status: response.status, error: snippet ? `${what}: ${snippet}` : what };
  } catch (err) {
    const name = (err as Error)?.name;
    return {
      status: null,
      error: name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'connection failed',
    };
  }
}

const secondsUntil = (iso: string, now: Date) => Math.ceil((Date.parse(iso) - now.getTime()) / 1000);

/**
 * One attempt of one delivery (a JOB_QUEUE message). Order per product: while an earlier
 * delivery with the same order key to the same endpoint is pending, this one waits (its message
 * comes back later), so a receiver never sees a product's updates out of order; other products
 * are never held up. The attempt first takes a lease (a conditional update of next_attempt_at),
 * so a duplicate message does not send twice at once. Success marks it delivered and starts the
 * next one of its product; failure schedules the next attempt (RETRY_SCHEDULE_SECONDS) or, after
 * the last, fails it and disables the endpoint with a notice readable over GetEndpoints.
 */
export async function attemptDelivery(deps: DeliverDeps, deliveryId: string): Promise<AttemptOutcome> {
  const { db } = deps;
  const now = deps.now?.() ?? new Date();
  const delivery = await db.query.webhookDeliveries.findFirst({ where: eq(webhookDeliveries.id, deliveryId) });
  if (!delivery || delivery.status !== 'pending') return 'skipped';
  // not due: a later message (its retry) or the sweep brings it
  if (secondsUntil(delivery.nextAttemptAt, now) > 1) return 'skipped';
  const endpoint = await db.query.webhookEndpoints.findFirst({
    where: and(eq(webhookEndpoints.id, delivery.endpointId), eq(webhookEndpoints.companyId, delivery.companyId)),
  });
  if (!endpoint?.enabled) return 'skipped';

  if (delivery.orderKey !== null) {
    const [earlier] = await db
      .select({ nextAttemptAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, delivery.endpointId),
          eq(webhookDeliveries.orderKey, delivery.orderKey),
          eq(webhookDeliveries.status, 'pending'),
          lt(webhookDeliveries.id, delivery.id),
        ),
      )
      .orderBy(asc(webhookDeliveries.id))
      .limit(1);
    if (earlier) {
      const wait = Math.min(
        Math.max(ORDER_WAIT_SECONDS, secondsUntil(earlier.nextAttemptAt, now)),
        MAX_QUEUE_DELAY_SECONDS,
      );
      await db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(now.getTime() + wait * 1000).toISOString() })
        .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')));
      await enqueueDeliveries(deps, [delivery.id], wait);
      return 'waiting';
    }
  }

  const lease = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        eq(webhookDeliveries.status, 'pending'),
        eq(webhookDeliveries.nextAttemptAt, delivery.nextAttemptAt),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (lease.length === 0) return 'skipped';

  const started = Date.now();
  const refused = refusedUrlReason(endpoint.url, deps.allowPrivate);
  let result: { status: number | null; error: string | null };
  if (refused) result = { status: null, error: `not sent: ${refused}` };
  else {
    let secrets: string[] | null = null;
    try {
      secrets = await signingSecrets(deps.encryptionKey, endpoint, now);
    } catch {
      result = { status: null, error: 'not sent: the signing secret cannot be decrypted (rotate it)' };
    }
    if (secrets) {
      const headers = await signedHeaders(
        secrets,
        delivery.messageId,
        Math.floor(now.getTime() / 1000),
        delivery.payload,
      );
      result = await post(deps.fetch, endpoint.url, headers, delivery.payload);
    }
  }
  result ??= { status: null, error: 'not sent' };
  const attempt: DeliveryAttempt = {
    at: now.toISOString(),
    status: result.status,
    error: result.error,
    ms: Date.now() - started,
  };
  const log = [...(JSON.parse(delivery.log) as DeliveryAttempt[]), attempt].slice(-LOG_ATTEMPTS);
  const attempts = delivery.attempts + 1;
  const recorded = {
    attempts,
    lastStatus: result.status,
    lastError: result.error,
    lastAttemptAt: attempt.at,
    log: JSON.stringify(log),
  };

  if (result.error === null) {
    await db
      .update(webhookDeliveries)
      .set({ ...recorded, status: 'delivered', nextAttemptAt: attempt.at })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (delivery.orderKey !== null) await startNext(deps, delivery.endpointId, delivery.orderKey);
    return 'delivered';
  }

  const wait = retryWaitSeconds(delivery.attempts, deps.retryDivisor);
  if (wait === undefined) {
    await db.batch([
      db
        .update(webhookDeliveries)
        .set({ ...recorded, status: 'failed', nextAttemptAt: attempt.at })
        .where(eq(webhookDeliveries.id, delivery.id)),
      db
        .update(webhookEndpoints)
        .set({
          enabled: false,
          disabledAt: attempt.at,
          disabledReason:
            `disabled after a delivery failed ${attempts} times over more than 24 hours (last: ${result.error}); ` +
            'fix the receiver, then enable the endpoint again (UpdateEndpoint) and redeliver what failed',
          updatedAt: attempt.at,
        })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true))),
    ]);
    return 'failed';
  }
  const next = new Date(now.getTime() + wait * 1000).toISOString();
  await db
    .update(webhookDeliveries)
    .set({ ...recorded, nextAttemptAt: next })
    .where(eq(webhookDeliveries.id, delivery.id));
  await enqueueDeliveries(deps, [delivery.id], Math.min(wait, MAX_QUEUE_DELAY_SECONDS));
  return 'retry';
}

/** After a delivery of a product succeeded, its next pending one goes at once instead of at its next look. */
async function startNext(deps: DeliverDeps, endpointId: string, orderKey: string): Promise<void> {
  const now = deps.now?.() ?? new Date();
  const [next] = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.orderKey, orderKey),
        eq(webhookDeliveries.status, 'pending'),
        sql`${webhookDeliveries.attempts} = 0`,
      ),
    )
    .orderBy(asc(webhookDeliveries.id))
    .limit(1);
  if (!next) return;
  await deps.db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now.toISOString() })
    .where(and(eq(webhookDeliveries.id, next.id), eq(webhookDeliveries.status, 'pending')));
  await enqueueDeliveries(deps, [next.id]);
}
