import { z } from 'zod';
import {
  getReviewInbox,
  getReviewState,
  ReviewInboxOut,
  ReviewInboxQuery,
  ReviewStateOut,
} from '../../completeness/review-read';
import { ReviewTransitionOut, SubmitForReviewDto, submitForReview } from '../../completeness/review-states';
import { defineTool, READ_ONLY, WRITE } from '../tool-definition';

/**
 * Tools over review before publishing (docs/review.md): an agent submits products for review and
 * reads the inbox and states. There is no approve or reject tool: agents never decide a review
 * (the domain refuses them on every surface), so the tool list offers only what an agent may do.
 */
export const reviewTools = [
  defineTool({
    name: 'submit_for_review',
    title: 'Submit products for review',
    description:
      "Submits draft master products for review in a channel whose review is on, so that a company admin can approve them; only approved products go into that channel's exports and shop syncs. All or nothing: a product not in draft is a conflict and nothing changes.",
    input: SubmitForReviewDto.extend({
      channelId: SubmitForReviewDto.shape.channelId.describe('The channel id (see list_channels).'),
      productIds: SubmitForReviewDto.shape.productIds.describe('Master product ids (at most 100).'),
    }),
    output: ReviewTransitionOut,
    annotations: WRITE,
    permission: 'review.submit',
    run: ({ db, caller }, input) => submitForReview(db, caller, input),
  }),
  defineTool({
    name: 'get_review_inbox',
    title: "A channel's products in review",
    description:
      'The products in review for a channel, by product id with a cursor, each with what changed since its last approval (path, before, after, from the change history) and who made the newest change.',
    input: ReviewInboxQuery.extend({
      limit: z.number().int().min(1).max(100).optional().describe('Products per page (default 20).'),
    }),
    output: ReviewInboxOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getReviewInbox(db, caller, { ...input, limit: input.limit ?? 20 }),
  }),
  defineTool({
    name: 'get_review_state',
    title: "A product's review state per channel",
    description:
      "A master product's review state (draft, in_review, approved) in every channel with review on, with who submitted, approved or rejected it and the last rejection comment.",
    input: z.strictObject({ productId: z.uuid().describe('A master product id (see search_products).') }),
    output: ReviewStateOut,
    annotations: READ_ONLY,
    run: ({ db, caller }, input) => getReviewState(db, caller, input.productId),
  }),
];
