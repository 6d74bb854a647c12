import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { products, reviewStates } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { isPermitted } from '../kernel/permissions';
import { findChannel } from './channels';
import { productScopeSql } from '../db/product-scope';

/** Product ids of a review operation: masters of the caller's company, at most 100 at once. */
export const ReviewProductIds = z.array(z.uuid()).min(1, 'productIds must name at least one product').max(100);

/** The one message for an agent asked to decide a review, on every surface. */
export const AGENTS_NEVER_APPROVE =
  'agents can submit for review, never approve or reject: a reviewer or company admin other than the last editor decides';

/** The one message for a member whose role may not decide a review. */
export const ONLY_REVIEWERS_DECIDE = 'only a reviewer or a company admin may approve or reject';

export type ReviewChannel = Awaited<ReturnType<typeof findChannel>>;

/** A channel of the caller's company (404) whose review is on (409: nothing to submit to or decide). */
export async function reviewChannel(db: Database, caller: Caller, channelId: string): Promise<ReviewChannel> {
  return assertReviewOn(await findChannel(db, caller, channelId));
}

/** 409 for a channel whose review is off. */
export function assertReviewOn(channel: ReviewChannel): ReviewChannel {
  if (!channel.reviewEnabled)
    throw conflict(
      `review is off for the channel "${channel.name}"; a company admin turns it on with SetChannelReview`,
    );
  return channel;
}

/** Checks that every id names a master product of the caller's company: 404 / 400 naming `productIds[i]`. */
export async function assertMasters(db: Database, caller: Caller, ids: readonly string[]): Promise<void> {
  for (const [i, id] of ids.entries())
    if (ids.indexOf(id) !== i) throw badRequest(`productIds[${i}]: ${id} is listed twice`);
  const rows = await db
    .select({ id: products.id, parentId: products.parentId })
    .from(products)
    .where(
      and(
        eq(products.companyId, caller.companyId),
        inArray(products.id, [...ids]),
        // a product outside the member's scope is as unknown as one of another company
        caller.productScope
          ? productScopeSql(caller.productScope, caller.companyId, sql`${products.catalogId}`, sql`${products.id}`)
          : undefined,
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const [i, id] of ids.entries()) {
    const row = byId.get(id);
    if (!row) throw notFound(`productIds[${i}]: product ${id}`);
    if (row.parentId !== null)
      throw badRequest(`productIds[${i}]: ${id} is a variant; review is per master product (its parentId)`);
  }
}

/**
 * Deciding a review needs `review.decide` (reviewers and admins, kernel/permissions.ts) on the
 * web, never an agent's (docs/review.md). The REST guard refuses other roles before validation
 * with the same 403; this is the check of every surface.
 */
export function assertMayDecide(caller: Caller): void {
  if (caller.surface === 'agent' || caller.surface === 'mcp') throw forbidden(AGENTS_NEVER_APPROVE);
  if (!isPermitted(caller, 'review.decide')) throw forbidden(ONLY_REVIEWERS_DECIDE);
}

/** The stored states of `ids` for the channel (a product without a row is a draft). */
export async function readStates(db: Database, caller: Caller, channelKey: number, ids: readonly string[]) {
  const rows = await db
    .select()
    .from(reviewStates)
    .where(
      and(
        eq(reviewStates.companyId, caller.companyId),
        eq(reviewStates.channelKey, channelKey),
        inArray(reviewStates.productId, [...ids]),
      ),
    );
  return new Map(rows.map((r) => [r.productId, r]));
}

/** 409 naming the first product not in `expected` (the state machine of docs/review.md). */
export function assertStates(
  states: Map<string, { state: string }>,
  ids: readonly string[],
  expected: 'draft' | 'in_review',
  action: string,
): void {
  for (const [i, id] of ids.entries()) {
    const state = states.get(id)?.state ?? 'draft';
    if (state !== expected)
      throw conflict(`productIds[${i}]: ${id} is ${state}; only a product ${expected} can be ${action}`);
  }
}

/** JSON of the ids, bound as one parameter and read with json_each (any count under D1's parameter limit). */
export const idList = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** Condition: every listed product still has `state` for the channel (the batch guard of a transition). */
export function allInState(caller: Caller, channelKey: number, ids: readonly string[], state: string) {
  return sql`(SELECT count(*) FROM review_states WHERE company_id = ${caller.companyId} AND channel_key = ${channelKey}
    AND state = ${state} AND product_id IN ${idList(ids)}) = ${ids.length}`;
}
