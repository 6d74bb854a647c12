/**
 * A reverse proxy in front of a benchmark's shop: it counts the requests the connector sends
 * the target (the requests per product), optionally holds requests in a token bucket (the
 * simulated rate limit of a self-hosted Shopware: a request waits for a token, as nginx's
 * `limit_req` with a burst delays it), and reads Shopify's cost answers
 * (`extensions.cost.actualQueryCost`, `THROTTLED`), so the points spent and the throttled
 * requests are known without touching the contract server.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenBucket {
  /** Tokens (requests) refilled per second. */
  ratePerSecond: number;
  /** Bucket size: requests that may pass at once after a quiet spell. */
  burst: number;
}

export interface ProxyCounters {
  requests: number;
  /** Shopify: the cost points the answers say were spent, and the THROTTLED answers. */
  points: number;
  throttled: number;
  /** Token bucket: milliseconds during which at least one request was held for a token. */
  heldMs: number;
  /** Milliseconds during which at least one forwarded request awaited the shop's answer (the shop's own time). */
  busyMs: number;
  /** Per operation (GraphQL operation name, else method and path with ids blanked): requests and milliseconds answering. */
  operations: Map<string, { requests: number; ms: number }>;
}

export interface TargetProxy {
  url: string;
  counters: ProxyCounters;
  /** The counters so far, then zeroed (one benchmark round each). */
  take(): ProxyCounters;
  close(): Promise<void>;
}

const zero = (): ProxyCounters => ({
  requests: 0,
  points: 0,
  throttled: 0,
  heldMs: 0,
  busyMs: 0,
  operations: new Map(),
});

/**
 * What a request asks the shop, for the per-operation timings: a GraphQL document's operation
 * name (`mutation UpdateProduct`), else the method and the path with ids and query blanked
 * (`POST /admin/products/:id`), so the slow calls of a round can be named.
 */
export function operationOf(method: string, url: string, body: Buffer): string {
  const text = body.subarray(0, 400).toString('utf8');
  const named = /"(?:query|operations)"\s*:\s*"[^"]*?\b(query|mutation)\s+([A-Za-z_]\w*)/.exec(text);
  if (named) return `${named[1]} ${named[2]}`;
  const path = (url.split('?')[0] ?? '').replace(/\/[^/]*\d[^/]*/g, '/:id');
  return `${method} ${path}`;
}

/** The operations of a round, slowest first: `name: requests × average ms`. */
export function describeOperations(operations: ProxyCounters['operations']): string[] {
  return [...operations.entries()]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(
      ([name, o]) => `${name}: ${o.requests} × ${(o.ms / o.requests).toFixed(0)} ms = ${(o.ms / 1000).toFixed(2)} s`,
    );
}

export async function startTargetProxy(
  upstream: string,
  options: { bucket?: TokenBucket; readShopifyCost?: boolean } = {},
): Promise<TargetProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let counters = zero();
  const bucket = options.bucket;
  let tokens = bucket?.burst ?? 0;
  let refilledAt = performance.now();
  // The next free slot when requests queue: each held request takes the slot after the previous one's.
  let nextSlot = 0;
  let held = 0;
  let heldSince = 0;
  let open = 0;
  let openSince = 0;
  const opened = () => {
    if (open++ === 0) openSince = performance.now();
  };
  const closed = () => {
    if (--open === 0) counters.busyMs += performance.now() - openSince;
  };

  /** Milliseconds this request must wait for its token (0 when one is in the bucket). */
  function reserve(): number {
    if (!bucket) return 0;
    const now = performance.now();
    tokens = Math.min(bucket.burst, tokens + ((now - refilledAt) * bucket.ratePerSecond) / 1000);
    refilledAt = now;
    if (tokens >= 1 && nextSlot <= now) {
      tokens -= 1;
      return 0;
    }
    const interval = 1000 / bucket.ratePerSecond;
    const slot = Math.max(now + ((1 - tokens) * 1000) / bucket.ratePerSecond, nextSlot + interval);
    nextSlot = slot;
    tokens = Math.min(tokens, 0);
    return slot - now;
  }

  async function hold(ms: number): Promise<void> {
    if (ms <= 0) return;
    if (held++ === 0) heldSince = performance.now();
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (--held === 0) counters.heldMs += performance.now() - heldSince;
  }

  function forward(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    opened();
    const operation = operationOf(req.method ?? 'GET', req.url ?? '/', body);
    const sentAt = performance.now();
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        closed();
        const stats = counters.operations.get(operation) ?? { requests: 0, ms: 0 };
        stats.requests++;
        stats.ms += performance.now() - sentAt;
        counters.operations.set(operation, stats);
      }
    };
    const upstreamReq = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
        agent,
      },
      (upstreamRes) => {
        finish();
        if (!options.readShopifyCost) {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          upstreamRes.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
        upstreamRes.on('end', () => {
          const text = Buffer.concat(chunks);
          try {
            const answer = JSON.parse(text.toString('utf8')) as {
              errors?: { extensions?: { code?: string } }[];
              extensions?: { cost?: { actualQueryCost?: number | null } };
            };
            counters.points += answer.extensions?.cost?.actualQueryCost ?? 0;
            if (answer.errors?.some((e) => e.extensions?.code === 'THROTTLED')) counters.throttled++;
          } catch {
            // Not JSON: nothing to read.
          }
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          res.end(text);
        });
      },
    );
    upstreamReq.on('error', () => {
      finish();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    upstreamReq.end(body);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      counters.requests++;
      void hold(reserve()).then(() => forward(req, res, Buffer.concat(chunks)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = new URL(upstream);
  base.host = `127.0.0.1:${port}`;
  return {
    url: base.toString().replace(/\/$/, ''),
    get counters() {
      return counters;
    },
    take() {
      const taken = counters;
      if (held > 0) {
        taken.heldMs += performance.now() - heldSince;
        heldSince = performance.now();
      }
      if (open > 0) {
        taken.busyMs += performance.now() - openSince;
        openSince = performance.now();
      }
      counters = zero();
      return taken;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
