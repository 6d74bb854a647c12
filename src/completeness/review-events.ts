import { sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { domainEvents } from '../db/schema';
import { dbNow } from '../kernel/clock';
import type { Caller } from '../kernel/caller';
import { idList } from './review-scope';

/**
 * The webhook events of the review workflow (docs/review.md, docs/webhooks.md "Events"). The
 * first three are written here by the transitions; `review.reopened` (an approved product sent
 * back to in_review by a change matching the channel's rule) by the trigger
 * `review_reopened_webhook` (migration 0064), in the transaction of that change.
 */
export const REVIEW_EVENT_TYPES = [
  'review.submitted',
  'review.approved',
  'review.rejected',
  'review.reopened',
] as const;
/** The events of the review operations (SubmitForReview, ApproveProducts, RejectProducts). */
export type ReviewEventType = Exclude<(typeof REVIEW_EVENT_TYPES)[number], 'review.reopened'>;

/**
 * The outbox rows of one review transition, one per product (ordered by the product, so each
 * product's events reach an endpoint in order with its product events): `{productId, sku,
 * channelId, channelName, state, userId, surface, clientName?, comment?}`, where `userId` is who
 * submitted or decided and `comment` the rejection's. Goes into the transition's own batch after
 * its guard, so an event exists exactly when the transition committed. Written to `domain_events`
 * (migration 0069): a changes-feed item for every company, an outbox row for one with an enabled
 * endpoint.
 */
export function reviewEventStatement(
  db: Database,
  caller: Caller,
  channel: { id: number; channelId: string; name: string },
  type: ReviewEventType,
  productIds: readonly string[],
  comment?: string,
): BatchStatement {
  const state = type === 'review.submitted' ? 'in_review' : type === 'review.approved' ? 'approved' : 'draft';
  const extra = JSON.stringify({
    ...(caller.clientName ? { clientName: caller.clientName } : {}),
    ...(comment !== undefined ? { comment } : {}),
  });
  // Columns in the table's order: id, company_id, event_type, order_key, data, at.
  return db
    .insert(domainEvents)
    .select(sql`SELECT 'evt_' || lower(hex(randomblob(16))), ${caller.companyId}, ${type}, p.id, json_patch(json_object('productId', p.id, 'sku', p.sku,
        'channelId', ${channel.channelId}, 'channelName', ${channel.name}, 'state', ${state},
        'userId', ${caller.userId}, 'surface', ${caller.surface}), ${extra}), ${dbNow}
    FROM products p WHERE p.company_id = ${caller.companyId} AND p.id IN ${idList(productIds)}
    ORDER BY p.id`);
}
