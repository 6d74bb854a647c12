import { createApp } from './app';
import { databaseOf } from './db/binding';
import { cellNames, openCellSession } from './db/cells';
import { openSession } from './db/session';
import type { Bindings, JobMessage } from './env';
import { HISTORY_PRUNE_CRON, pruneHistory } from './history/retention';
import { pruneSignInThrottle } from './accounts/sign-in-throttle';
import { handleJobBatch } from './jobs/queue-consumer';
import { sweepDeps, sweepJobs } from './jobs/recovery';
import { runDueSyncs } from './sync/schedule';

export { RateLimiter } from './http/rate-limit';
export { McpSession } from './mcp/session-agent';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleJobBatch(batch, env),
  /** Cron Triggers (wrangler.toml `[triggers]`): one line per periodic domain task, each bounded. */
  scheduled: async (controller, env) => {
    const now = new Date(controller.scheduledTime);
    // Sweeps and schedules decide from the newest state: they start on the primary. The
    // sign-in throttle is in the directory; jobs, history and syncs are tenant rows, so every
    // cell is swept (its requeued messages name their cell).
    await pruneSignInThrottle(openSession(databaseOf(env)).primary());
    for (const cell of cellNames(env)) {
      const db = openCellSession(env, cell).primary();
      await sweepJobs(sweepDeps(env, db), now);
      if (controller.cron === HISTORY_PRUNE_CRON) await pruneHistory(db);
      await runDueSyncs({ db, queue: env.JOB_QUEUE, publicBaseUrl: env.PUBLIC_BASE_URL }, now);
    }
  },
} satisfies ExportedHandler<Bindings, JobMessage>;
