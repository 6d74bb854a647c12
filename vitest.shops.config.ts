import { defineConfig } from 'vitest/config';
import SummaryReporter from './test/reporters/summary-reporter';

/**
 * The shop adapters against real engines and published contracts (docs/shops.md), in Node:
 * Vendure and Medusa started from their npm packages (shops/), Shopify's Admin GraphQL schema
 * and Shopware's Admin API OpenAPI document pinned under connector/contracts/ and answered by
 * local contract servers. One file at a time: an engine is a heavy process on a 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['test/shops/**/*.test.ts'],
    reporters: ['default', new SummaryReporter('shops')],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    passWithNoTests: true,
  },
});
