import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { mkdirSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { prebundledDependencies } from './test/setup/prebundle';
import SummaryReporter from './test/reporters/summary-reporter';

/**
 * Files that read or change state beyond their own tenants, so they need a database of their
 * own: the migration tests (one shared MIGRATION_TEST_DB they expect empty), the query-plan
 * tests (ANALYZE statistics other files' data would change), and the sweeps over every
 * company's history. They run isolated, one fresh Miniflare each; every other file shares its
 * worker's Miniflare and module cache (`isolate: false`), which starts a file in about a
 * second instead of seven (docs/testing.md "Test isolation").
 */
const ISOLATED = [
  'test/migration-*.test.ts',
  'test/languages-migration-*.test.ts',
  'test/filter-plan.test.ts',
  'test/search-plan.test.ts',
  'test/history-retention.test.ts',
  'test/sync/sync-batch-bytes.test.ts',
  'test/sync/sync-recovery.test.ts',
];

export default defineConfig(async () => {
  // wrangler.toml's [assets] directory must exist; the Workers-pool tests never need the built web app.
  mkdirSync('./dist/web', { recursive: true });
  const migrations = await readD1Migrations('./migrations');
  const worker = () =>
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          EXPORT_SLICE_MS: '20000',
          // Test-only keys of the sync (production sets them with `wrangler secret put`).
          SYNC_ENCRYPTION_KEY: 'test-sync-encryption-key-0123456789',
          MEDIA_URL_KEY: 'test-media-url-key-0123456789',
          SSO_ENCRYPTION_KEY: 'test-sso-encryption-key-0123456789',
          WEBHOOK_ENCRYPTION_KEY: 'test-webhook-encryption-key-0123456789',
          // Production's rule (no private receivers or issuers), whatever a local `.dev.vars`
          // written by `npm run dev` says: the SSRF tests depend on it.
          ALLOW_PRIVATE_TARGETS: 'false',
        },
        // A real queue without a consumer: export tests hand it to the runner so continuation
        // messages wait there and the test itself drives every slice (JOB_QUEUE as in wrangler.toml).
        queueProducers: { JOB_QUEUE: 'pim-jobs', EXPORT_HOLD_QUEUE: 'pim-export-hold' },
        // An empty second database for migration tests (DB as in wrangler.toml).
        d1Databases: {
          DB: '00000000-0000-0000-0000-000000000000',
          CELL_2: '00000000-0000-0000-0000-000000000002',
          CELL_3: '00000000-0000-0000-0000-000000000003',
          MIGRATION_TEST_DB: 'migration-test',
        },
      },
    });
  const common = {
    setupFiles: ['./test/setup/apply-migrations.ts'],
    deps: prebundledDependencies(['./src', './test']),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  };
  return {
    test: {
      reporters: ['default', new SummaryReporter('unit')],
      projects: [
        {
          plugins: [worker()],
          test: {
            ...common,
            name: 'unit',
            isolate: false,
            include: ['test/**/*.test.ts'],
            // test/lag/ runs with a lagging replica (vitest.lag.config.ts).
            // End-to-end tests run in Node against wrangler dev (vitest.e2e.config.ts), not in workerd;
            // so do the shop adapters against real engines and contracts (vitest.shops.config.ts).
            exclude: ['test/e2e/**', 'test/lag/**', 'test/shops/**', 'node_modules/**', ...ISOLATED],
          },
        },
        {
          plugins: [worker()],
          test: { ...common, name: 'unit-isolated', include: ISOLATED },
        },
      ],
    },
  };
});
