import type { WebhookMessage } from '../../src/env';
import { attemptDelivery, type DeliverDeps } from '../../src/webhooks/deliver';
import { addEndpoint } from '../../src/webhooks/endpoints';
import { env } from 'cloudflare:workers';
import { asActor, db, type FixtureTenant } from './factories';

/** A queue that keeps what is sent (with its delay), so a test drives each delivery attempt itself. */
export function heldQueue() {
  const sent: { id: string; delaySeconds: number }[] = [];
  const queue = {
    send: async (body: WebhookMessage, options?: { delaySeconds?: number }) => {
      sent.push({ id: body.webhookDeliveryId, delaySeconds: options?.delaySeconds ?? 0 });
    },
    sendBatch: async (messages: Iterable<{ body: WebhookMessage; delaySeconds?: number }>) => {
      for (const m of messages) sent.push({ id: m.body.webhookDeliveryId, delaySeconds: m.delaySeconds ?? 0 });
    },
  } as unknown as Queue<WebhookMessage>;
  return { queue, sent };
}

export interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver behind a fake fetch: answers with `answer(request)` and keeps every request. */
export function fakeReceiver(answer: (r: Received) => Response | Promise<Response> = () => new Response('ok')) {
  const received: Received[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request: Received = {
      url: String(input),
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: String(init?.body ?? ''),
    };
    received.push(request);
    return answer(request);
  }) as typeof globalThis.fetch;
  return { fetch, received };
}

export const RECEIVER_URL = 'https://receiver.example.com/hooks';

export async function makeEndpoint(tenant: FixtureTenant, overrides: { url?: string; eventTypes?: string[] } = {}) {
  return addEndpoint(
    { db: db(), encryptionKey: env.WEBHOOK_ENCRYPTION_KEY, allowPrivate: false },
    { ...asActor(tenant), role: 'admin' },
    { url: overrides.url ?? RECEIVER_URL, eventTypes: overrides.eventTypes as never },
  );
}

export function deliverDeps(
  queue: Queue<WebhookMessage>,
  fetch: typeof globalThis.fetch,
  now?: () => Date,
): DeliverDeps {
  return {
    db: db(),
    queue,
    fetch,
    encryptionKey: env.WEBHOOK_ENCRYPTION_KEY,
    allowPrivate: false,
    ...(now ? { now } : {}),
  };
}

export const attempt = (deps: DeliverDeps, id: string) => attemptDelivery(deps, id);
