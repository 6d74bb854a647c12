import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  buildSchema,
  type DocumentNode,
  execute,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { SHOPIFY_API_VERSION } from '../../../connector/src/adapters/shopify/shopify-graphql';
import { requestedCost } from './query-cost';
import { type BulkModel, shopifyBulk } from './shop-bulk';
import { shopResolvers } from './shop-resolvers';
import { ShopState } from './shop-state';

const SCHEMA_FILE = join(
  import.meta.dirname,
  `../../../connector/contracts/shopify/admin-${SHOPIFY_API_VERSION}.graphql.gz`,
);
let pinned: GraphQLSchema | null = null;

/** The pinned Admin API schema (connector/contracts/shopify/), built once per test file. */
export function pinnedSchema(): GraphQLSchema {
  pinned ??= buildSchema(gunzipSync(readFileSync(SCHEMA_FILE)).toString('utf8'));
  return pinned;
}

/** One injected failure: the next `times` requests of `operation` (after `skip` of them) fail this way. */
export interface Fault {
  operation: string;
  kind: 'http429' | 'http500' | 'timeout' | 'lostAnswer';
  times: number;
  skip?: number;
}

export interface ContractServerOptions {
  token: string;
  /** The clock the bucket refills by: the test's virtual clock, which the adapter's recorded sleeps advance. */
  now: () => number;
  /**
   * Shopify's leaky bucket per app and shop. Default: a standard plan's 100 points per second
   * restore with a 1000-point bucket (https://shopify.dev/docs/api/usage/limits, "GraphQL Admin
   * API": Standard 100 points/second; 1000 points is the largest single query).
   */
  bucket?: { maximum: number; restoreRate: number };
  /**
   * Refund the difference between the requested and the actual cost after a query ran, as
   * Shopify does (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits,
   * "requestedQueryCost" / "actualQueryCost"): the actual cost counts the connection nodes
   * returned instead of `first`. Off by default (the tests charge the requested cost).
   */
  refund?: boolean;
  /** The modelled processing time of bulk operations (shop-bulk.ts). */
  bulk?: BulkModel;
}

export interface Received {
  operationName: string;
  query: string;
  variables: Record<string, unknown>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A local Shopify Admin GraphQL endpoint answering per the pinned schema: every document is
 * validated (an invalid one is answered with GraphQL errors, as Shopify does, and recorded in
 * `invalid`), variables are coerced by graphql-js against the schema's input types, and the
 * answer is executed against the schema over an in-memory shop, with `extensions.cost` from a
 * leaky bucket (THROTTLED when a request's cost exceeds what is available) and injected faults.
 */
export async function startShopifyContract(options: ContractServerOptions) {
  const schema = pinnedSchema();
  const state = new ShopState();
  const rootValue: Record<string, unknown> = shopResolvers(state);
  let baseUrl = '';
  const bulk = shopifyBulk({ schema, rootValue, now: options.now, baseUrl: () => baseUrl, model: options.bulk });
  Object.assign(rootValue, bulk.resolvers);
  const limits = options.bucket ?? { maximum: 1000, restoreRate: 100 };
  const bucket = { available: limits.maximum, at: options.now() };
  const received: Received[] = [];
  const invalid: { operationName: string | null; errors: string[] }[] = [];
  const faults: Fault[] = [];
  const counts = { throttled: 0, http429: 0, http500: 0, timeouts: 0 };
  const hanging = new Set<ServerResponse>();

  const throttleStatus = () => ({
    maximumAvailable: limits.maximum,
    currentlyAvailable: Math.floor(bucket.available),
    restoreRate: limits.restoreRate,
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    // The staged upload and the results file: signed storage URLs at Shopify, no access token.
    if (req.method === 'POST' && req.url === '/pim-staged-uploads') {
      const request = new Request(`${baseUrl}${req.url}`, {
        method: 'POST',
        headers: { 'Content-Type': String(req.headers['content-type'] ?? '') },
        body: await readBody(req),
      });
      const status = await bulk.upload(request);
      res.writeHead(status);
      return void res.end();
    }
    const resultsPath = /^\/pim-bulk-results\/([^/]+)\.jsonl$/.exec(req.method === 'GET' ? (req.url ?? '') : '');
    if (resultsPath) {
      const results = await bulk.results(decodeURIComponent(resultsPath[1]!));
      if (results === null) return json(res, 404, { errors: 'Not Found' });
      res.writeHead(200, { 'Content-Type': 'application/jsonl' });
      return void res.end(results);
    }
    if (req.method !== 'POST' || req.url !== `/admin/api/${SHOPIFY_API_VERSION}/graphql.json`) {
      return json(res, 404, { errors: 'Not Found' });
    }
    if (req.headers['x-shopify-access-token'] !== options.token) {
      return json(res, 401, { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
    }
    const body = JSON.parse(await readBody(req)) as { query: string; variables?: Record<string, unknown> };
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (error) {
      invalid.push({ operationName: null, errors: [String(error)] });
      return json(res, 200, { errors: [{ message: String(error) }] });
    }
    const operation = document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    const operationName = operation?.name?.value ?? '';
    const errors = validate(schema, document);
    if (errors.length > 0) {
      invalid.push({ operationName, errors: errors.map((error) => error.message) });
      return json(res, 200, { errors: errors.map((error) => error.toJSON()) });
    }
    const variables = body.variables ?? {};
    received.push({ operationName, query: body.query, variables });

    const fault = faults.find((f) => f.operation === operationName && f.times > 0);
    let loseAnswer = false;
    if (fault && (fault.skip ?? 0) > 0) fault.skip!--;
    else if (fault) {
      fault.times--;
      if (fault.kind === 'http429') {
        counts.http429++;
        return json(res, 429, { errors: 'Exceeded 2 calls per second for api client.' }, { 'Retry-After': '2.0' });
      }
      if (fault.kind === 'http500') {
        counts.http500++;
        return json(res, 500, { errors: 'Internal Server Error' });
      }
      counts.timeouts++;
      if (fault.kind === 'timeout') return void hanging.add(res);
      loseAnswer = true;
    }

    const cost = requestedCost(schema, document, variables);
    if (cost > 1000) {
      invalid.push({ operationName, errors: [`cost ${cost} exceeds 1000`] });
      return json(res, 200, {
        errors: [
          {
            message: `Query cost is ${cost}, which exceeds the single query max cost limit (1000).`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: 1000 },
          },
        ],
      });
    }
    const now = options.now();
    bucket.available = Math.min(limits.maximum, bucket.available + (limits.restoreRate * (now - bucket.at)) / 1000);
    bucket.at = now;
    if (cost > bucket.available) {
      counts.throttled++;
      return json(res, 200, {
        errors: [
          {
            message: 'Throttled',
            extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
          },
        ],
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } },
      });
    }
    bucket.available -= cost;
    const result = await execute({ schema, document, rootValue, variableValues: variables });
    if (result.data === undefined) invalid.push({ operationName, errors: (result.errors ?? []).map((e) => e.message) });
    // Applied, but the answer never comes (the adapter times out and retries the same write).
    if (loseAnswer) return void hanging.add(res);
    let actual = cost;
    if (options.refund && result.data) {
      actual = Math.min(cost, actualCost(result.data, operation?.operation === 'mutation'));
      bucket.available = Math.min(limits.maximum, bucket.available + cost - actual);
    }
    return json(res, 200, {
      ...(result.data === undefined ? {} : { data: result.data }),
      ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}),
      extensions: { cost: { requestedQueryCost: cost, actualQueryCost: actual, throttleStatus: throttleStatus() } },
    });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { errors: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    url: baseUrl,
    state,
    /** The bulk operations run, and their faults (shop-bulk.ts). */
    bulk,
    received,
    invalid,
    faults,
    counts,
    /** Empties the bucket (another app's burst), so the adapter must wait. */
    drain(to = 0) {
      bucket.available = to;
      bucket.at = options.now();
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What an answer actually cost, after the rules of `requestedCost` applied to what came back:
 * an object 1, a connection 2 plus its returned nodes, a mutation field 10.
 */
function actualCost(data: Record<string, unknown>, mutation: boolean): number {
  const walk = (value: unknown): number => {
    if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + walk(item), 0);
    if (value === null || typeof value !== 'object') return 0;
    const entries = Object.entries(value as Record<string, unknown>);
    const nodes = (value as { nodes?: unknown }).nodes;
    if (Array.isArray(nodes)) return 2 + nodes.reduce((sum: number, node) => sum + Math.max(1, walk(node)), 0);
    return 1 + entries.reduce((sum, [, inner]) => sum + walk(inner), 0);
  };
  return Object.values(data).reduce((sum: number, field) => sum + (mutation ? 10 : 0) + walk(field), 0);
}

export type ShopifyContract = Awaited<ReturnType<typeof startShopifyContract>>;
