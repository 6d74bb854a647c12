import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type BatchStatement, chunkForInsert, type Database, runBatch } from '../db/client';
import { reviewStates } from '../db/schema';
import { dbNow } from '../kernel/clock';
import { conflict, forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { guardStatement, isWriteConflict } from '../records/write-guard';
import { findChannel } from './channels';
import { assertChannelInScope } from '../db/product-scope';
import { reviewEventStatement } from './review-events';
import {
  allInState,
  assertMasters,
  assertMayDecide,
  assertReviewOn,
  assertStates,
  idList,
  readStates,
  ReviewProductIds,
  reviewChannel,
} from './review-scope';

/**
 * The review state machine (docs/review.md), per channel and master product:
 * draft → (SubmitForReview) → in_review → (ApproveProducts) → approved, and in_review →
 * (RejectProducts, with a comment) → draft. An approved product goes back to in_review when a
 * write matches the channel's rule (trigger `review_back_on_change`, migration 0058). Each
 * operation takes up to 100 products and is all-or-nothing: one product in the wrong state is a
 * 409 and nothing changes. A transition is one batch guarded by the states (and, for approval,
 * the history) it was decided on, so a racing write or decision turns it into a 409.
 */
export const SubmitForReviewDto = z.strictObject({ channelId: z.uuid(), productIds: ReviewProductIds });
export const ApproveProductsDto = SubmitForReviewDto;
export const RejectProductsDto = SubmitForReviewDto.extend({
  /** Why the products go back to draft: kept on each product until it is submitted again and approved. */
  comment: z.string().trim().min(1, 'comment must not be empty').max(2000),
});

export const ReviewTransitionOut = z.object({
  channelId: z.string(),
  state: z.enum(['in_review', 'approved', 'draft']),
  productIds: z.array(z.string()),
});

const RACE = 'the products changed while this ran (a write or another decision); read the inbox and try again';

/** The rows of `ids` for the channel. */
const inList = (caller: Caller, channelKey: number, ids: readonly string[]) =>
  and(
    eq(reviewStates.companyId, caller.companyId),
    eq(reviewStates.channelKey, channelKey),
    sql`${reviewStates.productId} IN ${idList(ids)}`,
  );

async function runTransition(db: Database, statements: BatchStatement[]): Promise<void> {
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (isWriteConflict(err)) throw conflict(RACE);
    throw err;
  }
}

/** SubmitForReview: drafts go to in_review (every company member and agent may submit). */
export async function submitForReview(db: Database, caller: Caller, input: z.infer<typeof SubmitForReviewDto>) {
  const channel = await reviewChannel(db, caller, input.channelId);
  await assertMasters(db, caller, input.productIds);
  assertStates(await readStates(db, caller, channel.id, input.productIds), input.productIds, 'draft', 'submitted');
  const ids = input.productIds;
  await runTransition(db, [
    guardStatement(
      db,
      sql`NOT EXISTS (SELECT 1 FROM review_states WHERE company_id = ${caller.companyId} AND channel_key = ${channel.id}
        AND state <> 'draft' AND product_id IN ${idList(ids)})`,
    ),
    ...chunkForInsert([...ids], 5).map((chunk) =>
      db
        .insert(reviewStates)
        .values(
          chunk.map((productId) => ({
            companyId: caller.companyId,
            channelKey: channel.id,
            productId,
            state: 'in_review' as const,
            submittedBy: caller.userId,
            submittedAt: dbNow,
            updatedAt: dbNow,
          })),
        )
        .onConflictDoUpdate({
          target: [reviewStates.channelKey, reviewStates.productId],
          set: { state: 'in_review', submittedBy: caller.userId, submittedAt: dbNow, updatedAt: dbNow },
        }),
    ),
    reviewEventStatement(db, caller, channel, 'review.submitted', ids),
  ]);
  return { channelId: channel.channelId, state: 'in_review' as const, productIds: ids };
}

/** The newest history version of each master and its variants: `{id, userId}` or null without history. */
async function lastChanges(db: Database, caller: Caller, ids: readonly string[]) {
  const rows = await db.all<{ productId: string; last: string | null }>(sql`
    SELECT j.value AS productId, (SELECT h.id || ' ' || h.user_id FROM history_versions h
      WHERE h.company_id = ${caller.companyId}
        AND h.element_id IN (SELECT j.value UNION ALL SELECT v.id FROM products v WHERE v.parent_id = j.value)
      ORDER BY h.id DESC LIMIT 1) AS last
    FROM json_each(${JSON.stringify(ids)}) j`);
  return new Map(
    rows.map((r) => {
      const [id, userId] = r.last ? r.last.split(' ') : [];
      return [r.productId, id ? { id, userId: userId! } : null];
    }),
  );
}

/**
 * ApproveProducts (company admins, never agents): in_review goes to approved. Nobody approves
 * their own change: an admin who made the newest change of a product (or of one of its
 * variants) gets 403 for it, and another admin decides. The approval records the newest history
 * version, the base of the inbox's "change since the last approval".
 */
export async function approveProducts(db: Database, caller: Caller, input: z.infer<typeof ApproveProductsDto>) {
  // Who may decide before whether there is anything to decide: an agent learns 403, never 409.
  const found = await findChannel(db, caller, input.channelId);
  const ids = input.productIds;
  await assertMasters(db, caller, ids);
  assertMayDecide(caller);
  assertChannelInScope(caller, input.channelId);
  const channel = assertReviewOn(found);
  assertStates(await readStates(db, caller, channel.id, ids), ids, 'in_review', 'approved');
  const last = await lastChanges(db, caller, ids);
  const versions: Record<string, string> = {};
  for (const [i, id] of ids.entries()) {
    const change = last.get(id) ?? null;
    if (change?.userId === caller.userId)
      throw forbidden(`productIds[${i}]: you made the last change of ${id}; another admin approves it`);
    versions[id] = change?.id ?? '0';
  }
  // UUIDv7 ids sort as text in creation order: the newest version any listed product has.
  const newest = Object.values(versions).sort().at(-1) ?? '0';
  await runTransition(db, [
    guardStatement(
      db,
      sql`${allInState(caller, channel.id, ids, 'in_review')} AND NOT EXISTS (SELECT 1 FROM history_versions h
        WHERE h.company_id = ${caller.companyId} AND h.id > ${newest} AND h.element_id IN
          (SELECT value FROM json_each(${JSON.stringify(ids)})
           UNION ALL SELECT v.id FROM products v WHERE v.parent_id IN ${idList(ids)}))`,
    ),
    db
      .update(reviewStates)
      .set({
        state: 'approved',
        approvedBy: caller.userId,
        approvedAt: dbNow,
        updatedAt: dbNow,
        approvedVersion: sql`json_extract(${JSON.stringify(versions)}, '$."' || product_id || '"')`,
      })
      .where(inList(caller, channel.id, ids)),
    reviewEventStatement(db, caller, channel, 'review.approved', ids),
  ]);
  return { channelId: channel.channelId, state: 'approved' as const, productIds: ids };
}

/** RejectProducts (company admins, never agents): in_review goes back to draft with the comment kept. */
export async function rejectProducts(db: Database, caller: Caller, input: z.infer<typeof RejectProductsDto>) {
  // Who may decide before whether there is anything to decide: an agent learns 403, never 409.
  const found = await findChannel(db, caller, input.channelId);
  const ids = input.productIds;
  await assertMasters(db, caller, ids);
  assertMayDecide(caller);
  assertChannelInScope(caller, input.channelId);
  const channel = assertReviewOn(found);
  assertStates(await readStates(db, caller, channel.id, ids), ids, 'in_review', 'rejected');
  await runTransition(db, [
    guardStatement(db, allInState(caller, channel.id, ids, 'in_review')),
    db
      .update(reviewStates)
      .set({
        state: 'draft',
        rejectedBy: caller.userId,
        rejectedAt: dbNow,
        rejectionComment: input.comment,
        updatedAt: dbNow,
      })
      .where(inList(caller, channel.id, ids)),
    reviewEventStatement(db, caller, channel, 'review.rejected', ids, input.comment),
  ]);
  return { channelId: channel.channelId, state: 'draft' as const, productIds: ids };
}
