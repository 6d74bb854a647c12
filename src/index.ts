import { createApp } from './app';
import { createDb } from './db/client';
import type { Bindings, JobMessage } from './env';
import { HISTORY_PRUNE_CRON, pruneHistory } from './history/retention';
import { handleJobBatch } from './jobs/queue-consumer';

export { RateLimiter } from './oauth/rate-limit';
export { McpSession } from './mcp/session-agent';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleJobBatch(batch, env),
  /** Cron Triggers (wrangler.toml): each task checks its own schedule and does bounded work. */
  scheduled: async (controller, env) => {
    if (controller.cron === HISTORY_PRUNE_CRON) await pruneHistory(createDb(env.DB));
  },
} satisfies ExportedHandler<Bindings, JobMessage>;
