import { TargetError } from '../target-adapter';
import type { TargetHttp } from '../target-http';

/** The Admin API version the adapter speaks; the contract tests pin the same schema (connector/contracts/shopify/). */
export const SHOPIFY_API_VERSION = '2026-07';

/** Tries of one document answered THROTTLED before the record is given up as retryable. */
const THROTTLED_ATTEMPTS = 6;

export interface GraphqlError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

export interface GraphqlResult<T> {
  data: T | null;
  errors: GraphqlError[];
}

/** Shopify's `extensions.cost` (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits). */
interface QueryCost {
  requestedQueryCost?: number;
  actualQueryCost?: number | null;
  throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export interface ShopifyGraphql {
  /**
   * Sends one document; answers data and GraphQL errors, throws `TargetError` for transport
   * failures. `once`: a mutation that is not idempotent: a lost answer throws `OutcomeUnknown`
   * (target-http.ts) instead of sending it again.
   */
  request<T>(
    document: string,
    variables?: Record<string, unknown>,
    options?: { once?: boolean },
  ): Promise<GraphqlResult<T>>;
}

export interface ShopifyGraphqlOptions {
  http: TargetHttp;
  /** `https://x.myshopify.com` */
  url: string;
  accessToken: string;
  /** The clock the cost budget refills by (tests pass the one their sleeps advance). */
  now: () => number;
}

/**
 * The Admin GraphQL endpoint with Shopify's cost-based throttling on top of TargetHttp's
 * retries (429, 5xx, timeouts). Shopify answers every request with the bucket's state
 * (`throttleStatus`: currentlyAvailable, restoreRate, maximumAvailable) and the document's
 * `requestedQueryCost`; before the next request the client refills its copy of the bucket by
 * the time passed and, when the document's last known cost does not fit, waits until it
 * would. A request Shopify still answers with THROTTLED is retried after the refill time.
 */
export function createShopifyGraphql(options: ShopifyGraphqlOptions): ShopifyGraphql {
  const endpoint = `${options.url.replace(/\/+$/, '')}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
  const costs = new Map<string, number>();
  let bucket: { available: number; maximum: number; restoreRate: number; at: number } | null = null;

  const availableNow = () =>
    bucket === null
      ? Number.POSITIVE_INFINITY
      : Math.min(bucket.maximum, bucket.available + (bucket.restoreRate * (options.now() - bucket.at)) / 1000);

  async function waitFor(cost: number) {
    if (bucket === null || bucket.restoreRate <= 0) return;
    const missing = Math.min(cost, bucket.maximum) - availableNow();
    if (missing > 0) await options.http.sleep(Math.ceil((missing / bucket.restoreRate) * 1000));
  }

  function observe(cost: QueryCost | undefined) {
    const status = cost?.throttleStatus;
    if (!status) return;
    bucket = {
      available: status.currentlyAvailable,
      maximum: status.maximumAvailable,
      restoreRate: status.restoreRate,
      at: options.now(),
    };
  }

  async function post(document: string, variables: Record<string, unknown>, once: boolean) {
    const response = await options.http.send({
      once,
      method: 'POST',
      url: endpoint,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'X-Shopify-Access-Token': options.accessToken,
      },
      body: JSON.stringify({ query: document, variables }),
    });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new TargetError('the shop refused the access token (check the app and its scopes)', false, response.status);
    }
    if (response.status === 402 || response.status === 423) {
      await response.body?.cancel();
      throw new TargetError('the shop is frozen or locked and accepts no changes', false, response.status);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new TargetError(`the shop answered HTTP ${response.status}`, false, response.status);
    }
    const body = (await response.json().catch(() => null)) as {
      data?: unknown;
      errors?: GraphqlError[];
      extensions?: { cost?: QueryCost };
    } | null;
    if (body === null || typeof body !== 'object')
      throw new TargetError('the shop answered something other than JSON', true);
    return body;
  }

  /** Waits for the cost budget, and again after THROTTLED (Shopify refused before running it). */
  async function request<T>(
    document: string,
    variables: Record<string, unknown> = {},
    { once = false } = {},
  ): Promise<GraphqlResult<T>> {
    for (let attempt = 1; ; attempt++) {
      await waitFor(costs.get(document) ?? 0);
      const body = await post(document, variables, once);
      const cost = body.extensions?.cost;
      observe(cost);
      if (cost?.requestedQueryCost !== undefined) costs.set(document, cost.requestedQueryCost);
      const errors = Array.isArray(body.errors) ? body.errors : [];
      const throttled = errors.some((error) => error.extensions?.code === 'THROTTLED');
      if (!throttled) return { data: (body.data ?? null) as T | null, errors };
      if (attempt >= THROTTLED_ATTEMPTS) {
        throw new TargetError('the shop kept throttling requests (query cost budget exhausted)', true, 200);
      }
      // Shopify refused before charging anything: wait until the requested cost has refilled (a second at least).
      const status = cost?.throttleStatus;
      const missing = (cost?.requestedQueryCost ?? 0) - (status?.currentlyAvailable ?? 0);
      const rate = status?.restoreRate ?? 0;
      await options.http.sleep(Math.max(1000, rate > 0 ? Math.ceil((missing / rate) * 1000) : 0));
    }
  }

  return { request };
}

/** The first GraphQL error in plain words (Shopify's messages name the field; no internals). */
export function graphqlErrorText(errors: GraphqlError[]): string {
  return errors
    .slice(0, 3)
    .map((error) => error.message)
    .join('; ');
}
