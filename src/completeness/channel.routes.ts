import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import { afterAnswer } from '../http/background';
import type { Caller } from '../kernel/caller';
import { countCatalogScopeDay } from './catalog-scope-days';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { JobRef } from '../jobs/jobs';
import {
  addChannel,
  ChannelDto,
  ChannelsOut,
  ChannelWriteOut,
  deleteChannel,
  listChannels,
  updateChannel,
} from './channels';
import {
  CompletenessOverviewOut,
  getCompletenessOverview,
  getProductCompleteness,
  ProductCompletenessOut,
} from './completeness-read';
import { CompletenessTrendOut, getCompletenessTrend, TrendQuery } from './completeness-trend';
import { IncompleteOut, IncompleteQuery, listIncompleteProducts } from './incomplete-products';

const ChannelIdDto = z.strictObject({ channelId: z.uuid() });

/**
 * After the GetCompletenessTrend answer of a member whose scope names catalogs (REST and
 * `/api/ai`): today's count of their scope (migration 0094) when it is missing, through
 * `waitUntil`. The cron counts it too (src/scheduled.ts), but Cron Triggers do not fire under
 * `wrangler dev`: this way a local member's days are made as well. Once today's count is stored,
 * this costs one primary-key read; lost, the cron or the next read counts it.
 */
export function countScopeDayAfter<E extends { Variables: { db: Database } }>(
  c: Context<E>,
  caller: Pick<Caller, 'companyId' | 'productScope'>,
): void {
  const scope = caller.productScope;
  if (!scope?.catalogIds.length) return;
  const db = c.var.db;
  afterAnswer(c, 'catalog_scope_day_failed', () => countCatalogScopeDay(db, caller.companyId, scope));
}

/** `/api/Catalog/*Channel*`: channels and their requirements (docs/completeness.md); writes are admin only. */
export const channelRoutes = new Hono<AppEnv>()
  .get(
    '/GetChannels',
    describeOperation({
      tag: 'Catalog',
      summary: "The company's channels with the requirements each makes per language",
      response: ChannelsOut,
      security: 'cookie',
    }),
    async (c) => c.json(await listChannels(c.var.db, c.var.caller)),
  )
  .get(
    '/GetCompleteness',
    describeOperation({
      tag: 'Catalog',
      summary: "A product's completeness per channel and language, with what is missing and where to fix it",
      response: ProductCompletenessOut,
      security: 'cookie',
    }),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getProductCompleteness(c.var.db, c.var.caller, c.req.valid('query').productId)),
  )
  .get(
    '/GetCompletenessOverview',
    describeOperation({
      tag: 'Catalog',
      summary: 'Per channel and language: masters scored, complete, mean score and the most missed requirements',
      response: CompletenessOverviewOut,
      security: 'cookie',
    }),
    async (c) => c.json(await getCompletenessOverview(c.var.db, c.var.caller)),
  )
  .get(
    '/GetCompletenessTrend',
    describeOperation({
      tag: 'Catalog',
      summary:
        "How completeness moved: per channel and language one point per day of the last `days` (default 30): masters scored, complete, mean score. A member limited by a scope sees their products' series from the day their scope was first counted (one whose scope names catalogs: counted once a day)",
      response: CompletenessTrendOut,
      security: 'cookie',
      references: ['channel'],
    }),
    validate('query', TrendQuery),
    async (c) => {
      const trend = await getCompletenessTrend(c.var.db, c.var.caller, c.req.valid('query'));
      countScopeDayAfter(c, c.var.caller);
      return c.json(trend);
    },
  )
  .get(
    '/GetIncompleteProducts',
    describeOperation({
      tag: 'Catalog',
      summary:
        'The incomplete products of a channel, worst first, with what each is missing and a summary per language',
      response: IncompleteOut,
      security: 'cookie',
      references: ['channel'],
    }),
    validate('query', IncompleteQuery),
    async (c) => c.json(await listIncompleteProducts(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/AddChannel',
    describeOperation({
      tag: 'Catalog',
      summary: 'Define a channel and its requirements; its scores are computed by the job it answers (admin only)',
      response: ChannelWriteOut,
      security: 'cookie',
      adminOnly: true,
      conflict: 'A channel of that name already exists',
    }),
    validate('json', ChannelDto),
    async (c) => c.json(await addChannel({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateChannel',
    describeOperation({
      tag: 'Catalog',
      summary: "Replace a channel's name, languages and requirements; a job recomputes its scores (admin only)",
      response: ChannelWriteOut,
      security: 'cookie',
      adminOnly: true,
      conflict: 'A channel of that name already exists',
    }),
    validate('json', ChannelDto),
    async (c) =>
      c.json(await updateChannel({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/DeleteChannel',
    describeOperation({
      tag: 'Catalog',
      summary: 'Delete a channel; a job removes its scores (admin only)',
      response: JobRef,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', ChannelIdDto),
    async (c) =>
      c.json(
        await deleteChannel({ db: c.var.db, queue: c.env.JOB_QUEUE }, c.var.caller, c.req.valid('json').channelId),
      ),
  );
