import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import SummaryReporter from '../test/reporters/summary-reporter';

const here = (path: string) => resolve(dirname(fileURLToPath(import.meta.url)), path);

/** Workers-pool tests of the shop connector (npm run test:connector), against its own bindings. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(here('./migrations'));
  return {
    plugins: [
      // The bindings of wrangler.toml minus its queue consumers: tests drive the image consumer
      // themselves (createMessageBatch / getQueueResult), so nothing fetches in the background.
      cloudflareTest({
        main: here('./src/index.ts'),
        miniflare: {
          compatibilityDate: '2026-11-01',
          compatibilityFlags: ['nodejs_compat'],
          d1Databases: ['DB'],
          r2Buckets: ['MEDIA'],
          queueProducers: { IMAGE_QUEUE: 'shop-connector-images' },
          bindings: {
            TEST_MIGRATIONS: migrations,
            // `targets` and `remote` sign the tests of real-shop targets (test/target*.test.ts,
            // test/remote-*.test.ts): their targets never redirect another file's key.
            CONNECTOR_KEYS: JSON.stringify({
              test: 'test-connector-secret-1',
              next: 'test-connector-secret-2',
              targets: 'test-connector-secret-3',
              remote: 'test-connector-secret-4',
            }),
          },
        },
      }),
    ],
    test: {
      root: here('.'),
      include: ['test/**/*.test.ts'],
      setupFiles: ['./test/setup.ts'],
      reporters: ['default', new SummaryReporter('connector')],
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
});
