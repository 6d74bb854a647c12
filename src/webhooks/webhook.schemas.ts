import { z } from 'zod';
import { COMPLETENESS_EVENT_TYPES } from '../completeness/completeness-events';
import { REVIEW_EVENT_TYPES } from '../completeness/review-events';
import { PageQuery } from '../kernel/pagination';

/** Every event a webhook endpoint can subscribe to (docs/webhooks.md "Events"). One list: schemas, dispatcher, docs. */
export const EVENT_TYPES = [
  'product.created',
  'product.updated',
  'product.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'catalog.created',
  'catalog.updated',
  'catalog.deleted',
  'template.created',
  'template.updated',
  'template.deleted',
  'import.finished',
  'import.failed',
  'export.finished',
  'export.failed',
  'sync.finished',
  'sync.failed',
  'job.finished',
  'job.failed',
  'release.upgraded',
  ...COMPLETENESS_EVENT_TYPES,
  ...REVIEW_EVENT_TYPES,
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Endpoints per company: each one multiplies every event's deliveries. */
export const MAX_ENDPOINTS = 20;

const Url = z.string().trim().min(1).max(2000);
const EventTypes = z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length);

/** `POST /api/Webhooks/AddEndpoint`. No `eventTypes` (or an empty list): every event. */
export const AddEndpointDto = z.strictObject({
  url: Url,
  description: z.string().trim().max(500).optional(),
  eventTypes: EventTypes.optional(),
});

/** `POST /api/Webhooks/UpdateEndpoint`: only the fields given change; `enabled: true` re-enables a disabled one. */
export const UpdateEndpointDto = z.strictObject({
  endpointId: z.uuid(),
  url: Url.optional(),
  description: z.string().trim().max(500).optional(),
  eventTypes: EventTypes.optional(),
  enabled: z.boolean().optional(),
});

export const EndpointRefDto = z.strictObject({ endpointId: z.uuid() });
export const DeliveryRefDto = z.strictObject({ deliveryId: z.uuid() });

export const GetDeliveriesQuery = z.strictObject({
  endpointId: z.uuid(),
  status: z.enum(['pending', 'delivered', 'failed']).optional(),
  ...PageQuery,
});

export const EndpointOut = z.object({
  endpointId: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  enabled: z.boolean(),
  /** Why the service disabled the endpoint (its deliveries failed for more than 24 hours); null otherwise. */
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  /** Until when the secret before the last rotation is still signed with; null when there is none. */
  previousSecretExpiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** AddEndpoint and RotateSecret: the only answers that carry the secret (it is stored encrypted). */
export const EndpointWithSecretOut = EndpointOut.extend({ secret: z.string() });

export const EndpointsOut = z.object({ items: z.array(EndpointOut) });

export const AttemptOut = z.object({
  at: z.string(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  ms: z.number(),
});

export const DeliveryOut = z.object({
  deliveryId: z.string(),
  endpointId: z.string(),
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  /** The last attempts, oldest first (at most 10). */
  log: z.array(AttemptOut),
  payload: z.json(),
});

export const DeliveriesPageOut = z.object({ items: z.array(DeliveryOut), nextCursor: z.string().nullable() });
export const DeletedEndpointOut = z.object({ endpointId: z.string(), deleted: z.literal(true) });
