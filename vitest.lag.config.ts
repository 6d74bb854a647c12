import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { mkdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { prebundledDependencies } from './test/setup/prebundle';

/**
 * The read-your-writes suite (test/lag/): the same Worker with `DB_REPLICA_SIM` bound, so every
 * session reads from a replica that lags until a bookmark demands otherwise
 * (src/db/simulated-replica.ts), and every further cell `CELL_<n>` its own `CELL_<n>_REPLICA_SIM`. Its own config because the lag must hold for the whole Worker
 * (requests, queue consumer, MCP Durable Objects), which the main suite's fixtures do not expect.
 */
export default defineConfig(async () => {
  mkdirSync('./dist/web', { recursive: true });
  const migrations = await readD1Migrations('./migrations');
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            MEDIA_URL_KEY: 'test-media-url-key-0123456789',
            // Operations of test/lag/stale-loop.test.ts (bench/stale-reads.ts sets 10,000).
            STALE_OPS: process.env.STALE_OPS ?? '30',
            STALE_SESSION_OPS: process.env.STALE_SESSION_OPS ?? '30',
          },
          d1Databases: {
            DB: '00000000-0000-0000-0000-000000000000',
            CELL_2: '00000000-0000-0000-0000-000000000002',
            CELL_3: '00000000-0000-0000-0000-000000000003',
            DB_REPLICA_SIM: 'replica-sim',
            // Each further cell has its own lagging copy (src/db/cells.ts `cellDatabase`).
            CELL_2_REPLICA_SIM: 'replica-sim-2',
            CELL_3_REPLICA_SIM: 'replica-sim-3',
          },
        },
      }),
    ],
    test: {
      include: ['test/lag/**/*.test.ts'],
      setupFiles: ['./test/lag/setup.ts'],
      deps: prebundledDependencies(['./src', './test']),
      testTimeout: 60_000,
      hookTimeout: 30_000,
    },
  };
});
