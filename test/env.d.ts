import type { D1Migration } from '@cloudflare/vitest-plugin';
import type { Bindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import('../src/index');
    }
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      EXPORT_SLICE_MS: string;
      /** Queue without consumer (vitest.config.ts): continuation messages of test-driven exports. */
      EXPORT_HOLD_QUEUE: Queue<{ jobId: string }>;
      /** Empty database (vitest.config.ts) on which migration tests apply migrations one by one. */
      MIGRATION_TEST_DB: D1Database;
    }
  }
}
