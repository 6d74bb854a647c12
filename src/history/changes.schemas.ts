import { z } from 'zod';
import { SURFACES } from '../kernel/caller';
import { JsonValue } from './history.schemas';

/** Page sizes of the changes feed: bounded so one page stays one indexed range read. */
export const CHANGES_MAX_LIMIT = 1000;

/** `GET /api/Changes/GetChanges?since=&limit=` (and `/api/ai/GetChanges`, MCP `get_changes`). */
export const GetChangesQuery = z.strictObject({
  since: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(CHANGES_MAX_LIMIT).default(100),
  /** `events`: review and completeness events come too, as items of their own, in commit order with the changes. */
  include: z.enum(['events']).optional(),
});

/** The event types the feed carries with `include=events` (the webhooks' review and completeness events). */
export const FEED_EVENT_TYPES = [
  'review.submitted',
  'review.approved',
  'review.rejected',
  'review.reopened',
  'completeness.reached',
  'completeness.lost',
] as const;

/**
 * A review or completeness event in the feed (`include=events`): `type` names it, `data` is the
 * webhook payload's `data` of the same event (docs/webhooks.md "Events").
 */
export const EventItemOut = z.object({
  type: z.enum(FEED_EVENT_TYPES),
  /** The event's own id (`evt_...`), the same across polls. */
  eventId: z.string(),
  /** Resume right after this event: pass it as `since`. */
  cursor: z.string(),
  at: z.string(),
  data: z.record(z.string(), JsonValue),
});

export const ChangeItemOut = z.object({
  /** Always `change` (an event item names its event type here). */
  type: z.literal('change'),
  /** The history version this change is (GetHistory's versionId). */
  changeId: z.string(),
  /** Resume right after this change: pass it as `since`. */
  cursor: z.string(),
  at: z.string(),
  action: z.enum(['create', 'update', 'delete', 'restore']),
  elementKind: z.enum(['catalog', 'category', 'product', 'variant', 'template']),
  elementId: z.string(),
  userId: z.string(),
  surface: z.enum(SURFACES),
  clientName: z.string().optional(),
  jobId: z.string().optional(),
  /** The changed fields without their language (`name`, `values.voltage`, `categories`, ...). */
  fields: z.array(z.string()),
  /** The languages of translated fields that changed (`name@deu` gives `deu`). */
  languages: z.array(z.string()),
  changes: z.array(z.object({ path: z.string(), before: JsonValue, after: JsonValue })),
});

export const ChangesPageOut = z.object({
  items: z.array(z.union([ChangeItemOut, EventItemOut])),
  /** Where the next poll starts: after the last item, or `since` itself when nothing is new. Never null. */
  cursor: z.string(),
  /** More changes are already committed past `cursor`: call again at once. */
  hasMore: z.boolean(),
});
