import type { D1Migration } from '@cloudflare/vitest-plugin';

// Tests only add their own bindings to the connector's one Env (connector/src/env.ts).
declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
