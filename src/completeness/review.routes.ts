import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { ChannelOut } from './channels';
import { getReviewInbox, getReviewState, ReviewInboxOut, ReviewInboxQuery, ReviewStateOut } from './review-read';
import { SetChannelReviewDto, setChannelReview } from './review-rule';
import {
  ApproveProductsDto,
  approveProducts,
  RejectProductsDto,
  ReviewTransitionOut,
  rejectProducts,
  SubmitForReviewDto,
  submitForReview,
} from './review-states';

const TRANSITION = 'A product is not in the state the transition starts from, or review is off for the channel';

/** `/api/Catalog/*Review*`: review before publishing per channel (docs/review.md); settings are admin only, decisions need `review.decide` (reviewers and admins, docs/teams.md). */
export const reviewRoutes = new Hono<AppEnv>()
  .post(
    '/SetChannelReview',
    describeOperation({
      tag: 'Catalog',
      summary:
        "Turn review before publishing on (with the rule of which changes send an approved product back: any, or named fields and/or languages) or off; while on, the channel's exports and shop syncs take only approved products (admin only)",
      response: ChannelOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', SetChannelReviewDto),
    async (c) => c.json(await setChannelReview(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/SubmitForReview',
    describeOperation({
      tag: 'Catalog',
      summary: 'Submit draft products for review in a channel (all or nothing)',
      response: ReviewTransitionOut,
      security: 'cookie',
      permission: 'review.submit',
      conflict: TRANSITION,
    }),
    validate('json', SubmitForReviewDto),
    async (c) => c.json(await submitForReview(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/ApproveProducts',
    describeOperation({
      tag: 'Catalog',
      summary:
        'Approve products in review for a channel (all or nothing); refused for a product whose last change is your own (reviewers and admins)',
      response: ReviewTransitionOut,
      security: 'cookie',
      permission: 'review.decide',
      conflict: TRANSITION,
    }),
    validate('json', ApproveProductsDto),
    async (c) => c.json(await approveProducts(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/RejectProducts',
    describeOperation({
      tag: 'Catalog',
      summary: 'Send products in review back to draft with a comment, kept on each product (reviewers and admins)',
      response: ReviewTransitionOut,
      security: 'cookie',
      permission: 'review.decide',
      conflict: TRANSITION,
    }),
    validate('json', RejectProductsDto),
    async (c) => c.json(await rejectProducts(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetReviewInbox',
    describeOperation({
      tag: 'Catalog',
      summary: "A channel's products in review, keyset-paginated, each with what changed since its last approval",
      response: ReviewInboxOut,
      security: 'cookie',
    }),
    validate('query', ReviewInboxQuery),
    async (c) => c.json(await getReviewInbox(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .get(
    '/GetReviewState',
    describeOperation({
      tag: 'Catalog',
      summary: "A master product's review state per channel",
      response: ReviewStateOut,
      security: 'cookie',
    }),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getReviewState(c.var.db, c.var.caller, c.req.valid('query').productId)),
  );
