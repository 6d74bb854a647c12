import { Hono } from 'hono';
import { z } from 'zod';
import {
  getReviewInbox,
  getReviewState,
  ReviewInboxOut,
  ReviewInboxQuery,
  ReviewStateOut,
} from '../completeness/review-read';
import {
  ApproveProductsDto,
  approveProducts,
  RejectProductsDto,
  ReviewTransitionOut,
  rejectProducts,
  SubmitForReviewDto,
  submitForReview,
} from '../completeness/review-states';
import { validate } from '../http/validate';
import type { AgentEnv } from '../oauth/bearer';
import { agentCatalogDoc } from './agent-doc';

const doc = agentCatalogDoc;

const TRANSITION = 'A product is not in the state the transition starts from, or review is off for the channel';

/**
 * `{base_url}/ai/*` for review before publishing (docs/review.md): "agents can submit for
 * review, never approve their own change". An agent submits and reads the inbox and states with
 * the REST schemas and domain functions; ApproveProducts and RejectProducts exist here only to
 * answer every agent 403 with the reason, after the ids were checked like any operation's (a
 * foreign id is 404, as the contract suite requires of every documented operation). So their
 * guard asks only `read` of the role: the refusal is the domain's (`assertMayDecide`), since no
 * agent has `review.decide` (kernel/permissions.ts).
 */
export const aiReviewRoutes = new Hono<AgentEnv>()
  .post(
    '/SubmitForReview',
    doc('Submit draft products for review in a channel (all or nothing)', ReviewTransitionOut, TRANSITION, {
      permission: 'review.submit',
    }),
    validate('json', SubmitForReviewDto),
    async (c) => c.json(await submitForReview(c.var.db, c.var.agent, c.req.valid('json'))),
  )
  .post(
    '/ApproveProducts',
    doc(
      'Refused for every agent (403): agents submit for review, a reviewer or company admin approves',
      ReviewTransitionOut,
      undefined,
      {
        permission: 'read',
      },
    ),
    validate('json', ApproveProductsDto),
    async (c) => c.json(await approveProducts(c.var.db, c.var.agent, c.req.valid('json'))),
  )
  .post(
    '/RejectProducts',
    doc(
      'Refused for every agent (403): agents submit for review, a reviewer or company admin rejects',
      ReviewTransitionOut,
      undefined,
      {
        permission: 'read',
      },
    ),
    validate('json', RejectProductsDto),
    async (c) => c.json(await rejectProducts(c.var.db, c.var.agent, c.req.valid('json'))),
  )
  .get(
    '/GetReviewInbox',
    doc("A channel's products in review, each with what changed since its last approval", ReviewInboxOut),
    validate('query', ReviewInboxQuery),
    async (c) => c.json(await getReviewInbox(c.var.db, c.var.agent, c.req.valid('query'))),
  )
  .get(
    '/GetReviewState',
    doc("A master product's review state per channel", ReviewStateOut),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getReviewState(c.var.db, c.var.agent, c.req.valid('query').productId)),
  );
