/**
 * The shops `npm run bench:connector -- --target <kind>` writes into: the real engines
 * (Vendure from shops/vendure, Medusa from shops/medusa on Debian's PostgreSQL 15) or the
 * contract servers of test/shops (Shopify's Admin GraphQL, Shopware's Admin API), each behind
 * a counting proxy (bench/lib/target-proxy.ts) with the target's rate limit simulated:
 *
 * - Shopify: the contract server's leaky bucket on the wall clock, 1000 points and a restore
 *   rate per plan (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits:
 *   Standard 100 points/s, Advanced 200, Plus 1000; older plans' tables said 50 for Standard).
 * - Shopware: a self-hosted shop's Admin API has no fixed public limit (its rate limiter
 *   covers logins, OAuth tokens and a few storefront forms, not `_action/sync`), so the proxy
 *   holds requests in a configurable token bucket (requests per second, burst).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VendureDb } from '../../shops/vendure/start';
import type { TargetKind } from '../../src/sync/protocol/target';
import { freePort } from '../../scripts/lib/dev-server';
import { startTargetProxy, type TargetProxy, type TokenBucket } from './target-proxy';
import type { BulkModel } from '../../test/shops/shopify/shop-bulk';

export type ShopKind = Exclude<TargetKind, 'reference'>;
export const SHOP_KINDS: readonly ShopKind[] = ['vendure', 'medusa', 'shopify', 'shopware'];

export interface BenchShop {
  kind: ShopKind;
  /** What PUT /target gets: the proxy's URL and the shop's credentials. */
  url: string;
  credentials: Record<string, string>;
  proxy: TargetProxy;
  /** The simulated limit in words (for the table), or null for a real engine. */
  limit: string | null;
  /** Shopify's restore rate (points/s) or Shopware's token rate (requests/s). */
  rate: { points?: number; requests?: number; burst: number } | null;
  /** The engine's database where it has a choice (Vendure: sqljs or postgres). */
  database?: string;
  /** Called after the initial sync: Shopify's budget goes from the initial to the measured rate. */
  afterInitial?(): void;
  /** What the shop did beside the requests (Shopify: bulk operations and their lines), for the round's line. */
  extra?(): string;
  stop(): Promise<void>;
}

export interface ShopOptions {
  shopifyRestore: number;
  /** Shopify's restore rate during the initial sync (a shop filled on a larger plan, or by an import of its own); default `shopifyRestore`. */
  shopifyInitialRestore?: number;
  /** The contract server's modelled time of a bulk operation (Shopify publishes none). */
  shopifyBulk?: BulkModel;
  shopwareBucket: TokenBucket;
  /** Vendure's database (shops/vendure/start.ts): sql.js, or PostgreSQL for large catalogs. */
  vendureDb: VendureDb;
}

const SHOPIFY_TOKEN = 'shpat_bench_token';

export async function startShop(kind: ShopKind, options: ShopOptions): Promise<BenchShop> {
  if (kind === 'shopify') {
    const { startShopifyContract } = await import('../../test/shops/shopify/contract-server');
    const bucket = { maximum: 1000, restoreRate: options.shopifyInitialRestore ?? options.shopifyRestore };
    const server = await startShopifyContract({
      token: SHOPIFY_TOKEN,
      now: () => Date.now(),
      bucket,
      refund: true,
      bulk: options.shopifyBulk,
    });
    const proxy = await startTargetProxy(server.url, { readShopifyCost: true });
    const rate = { points: bucket.restoreRate, burst: bucket.maximum };
    return {
      kind,
      url: proxy.url,
      credentials: { accessToken: SHOPIFY_TOKEN },
      proxy,
      limit: `leaky bucket 1000 points, ${bucket.restoreRate} points/s${bucket.restoreRate === options.shopifyRestore ? '' : ` for the initial sync, ${options.shopifyRestore} points/s after it`}`,
      rate,
      afterInitial() {
        bucket.restoreRate = options.shopifyRestore;
        rate.points = options.shopifyRestore;
      },
      extra() {
        const runs = server.bulk.runs.splice(0);
        const lines = runs.reduce((sum, run) => sum + run.lines, 0);
        // The contract server's modelled processing (shop-bulk.ts), which the adapter waits out polling.
        const startMs = options.shopifyBulk?.startMs ?? 2000;
        const lineMs = options.shopifyBulk?.lineMs ?? 50;
        const modelled = (runs.length * startMs + lines * lineMs) / 1000;
        return runs.length > 0
          ? `bulk operations ${runs.length} (${lines} lines, ${modelled.toFixed(1)} s of modelled processing)`
          : '';
      },
      async stop() {
        await proxy.close();
        await server.close();
      },
    };
  }
  if (kind === 'shopware') {
    const { CLIENT, ShopwareContractServer } = await import('../../test/shops/shopware/contract-server');
    const server = new ShopwareContractServer();
    await server.start();
    // The contract server logs every request with its body: a catalog's worth would only fill memory.
    server.log.push = () => 0;
    const proxy = await startTargetProxy(server.url, { bucket: options.shopwareBucket });
    const { ratePerSecond, burst } = options.shopwareBucket;
    return {
      kind,
      url: proxy.url,
      credentials: { clientId: CLIENT.clientId, clientSecret: CLIENT.clientSecret },
      proxy,
      limit: `token bucket ${ratePerSecond} requests/s, burst ${burst}`,
      rate: { requests: ratePerSecond, burst },
      async stop() {
        await proxy.close();
        await server.stop();
      },
    };
  }
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${kind}-`));
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'vendure') {
    const { startVendure } = await import('../../shops/vendure/start');
    const shop = await startVendure({ dataDir, db: options.vendureDb });
    const proxy = await startTargetProxy(shop.adminApiUrl);
    return {
      kind,
      url: proxy.url,
      credentials: { username: shop.username, password: shop.password },
      proxy,
      limit: null,
      rate: null,
      database: shop.db,
      async stop() {
        await proxy.close();
        await shop.stop();
        removeData();
      },
    };
  }
  const { startMedusa } = await import('../../shops/medusa/start');
  const shop = await startMedusa({ port: await freePort(), pgPort: await freePort(), dataDir });
  const proxy = await startTargetProxy(shop.url);
  return {
    kind,
    url: proxy.url,
    credentials: { apiKey: shop.apiKey },
    proxy,
    limit: null,
    rate: null,
    async stop() {
      await proxy.close();
      await shop.stop();
      removeData();
    },
  };
}
