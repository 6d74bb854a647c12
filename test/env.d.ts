import type { D1Migration } from '@cloudflare/vitest-plugin';

// Tests only add their own bindings (vitest.config.ts) to the Worker's one Env (src/env.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** Queue without consumer (vitest.config.ts): continuation messages of test-driven exports. */
      EXPORT_HOLD_QUEUE: Queue<{ jobId: string }>;
      /** Empty database (vitest.config.ts) on which migration tests apply migrations one by one. */
      MIGRATION_TEST_DB: D1Database;
      /** Operations of test/lag/stale-loop.test.ts (vitest.lag.config.ts). */
      STALE_OPS?: string;
      /** Operations of the session-level loop in test/lag/stale-loop.test.ts (vitest.lag.config.ts). */
      STALE_SESSION_OPS?: string;
    }
  }
}
