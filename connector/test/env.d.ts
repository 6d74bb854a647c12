import type { D1Migration } from '@cloudflare/vitest-plugin';
import type { ConnectorBindings } from '../src/env';

declare global {
  namespace Cloudflare {
    interface Env extends ConnectorBindings {
      TEST_MIGRATIONS: D1Migration[];
    }
  }
}
