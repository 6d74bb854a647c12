import type { BodyOf, GetResult } from '../api/operations';

/** An event type an endpoint can subscribe to, as the API's OpenAPI document lists them. */
export type WebhookEventType = NonNullable<BodyOf<'Webhooks/AddEndpoint'>['eventTypes']>[number];
export type WebhookDelivery = GetResult<'Webhooks/GetDeliveries'>['items'][number];

/**
 * The events the subscription form offers, grouped for reading. The union above comes from the
 * API, so a type the API adds and this list lacks fails `npm run typecheck` (`missing` below).
 */
export const WEBHOOK_EVENT_GROUPS = [
  ['product.created', 'product.updated', 'product.deleted'],
  ['category.created', 'category.updated', 'category.deleted'],
  ['catalog.created', 'catalog.updated', 'catalog.deleted'],
  ['template.created', 'template.updated', 'template.deleted'],
  ['import.finished', 'import.failed', 'export.finished', 'export.failed'],
  ['sync.finished', 'sync.failed', 'job.finished', 'job.failed', 'release.upgraded'],
  ['completeness.reached', 'completeness.lost'],
  ['review.submitted', 'review.approved', 'review.rejected', 'review.reopened'],
  ['webhook.test'],
] as const satisfies readonly (readonly WebhookEventType[])[];

type Listed = (typeof WEBHOOK_EVENT_GROUPS)[number][number];
const missing: [Exclude<WebhookEventType, Listed>] extends [never] ? true : Exclude<WebhookEventType, Listed> = true;
void missing;

/** What a delivery is about, read from its payload: an element of the catalog, a job, or the test. */
export type DeliverySubject =
  | { kind: 'element'; elementKind: string; elementId: string; changes: number }
  | { kind: 'job'; jobId: string; jobKind: string }
  | { kind: 'none' };

export function deliverySubject(delivery: Pick<WebhookDelivery, 'payload'>): DeliverySubject {
  const payload = delivery.payload as { data?: Record<string, unknown> } | null;
  const data = payload && typeof payload === 'object' ? payload.data : undefined;
  if (!data || typeof data !== 'object') return { kind: 'none' };
  if (typeof data.elementId === 'string')
    return {
      kind: 'element',
      elementKind: typeof data.elementKind === 'string' ? data.elementKind : '',
      elementId: data.elementId,
      changes: Array.isArray(data.changes) ? data.changes.length : 0,
    };
  // completeness and review events name their master product
  if (typeof data.productId === 'string')
    return { kind: 'element', elementKind: 'product', elementId: data.productId, changes: 0 };
  if (typeof data.jobId === 'string')
    return { kind: 'job', jobId: data.jobId, jobKind: typeof data.kind === 'string' ? data.kind : '' };
  return { kind: 'none' };
}

/** The last answer of a delivery in one short line: the HTTP code, else the error, else nothing yet. */
export function lastResponse(delivery: Pick<WebhookDelivery, 'lastStatus' | 'lastError'>): string {
  if (delivery.lastStatus !== null) return String(delivery.lastStatus);
  return delivery.lastError ?? '';
}
