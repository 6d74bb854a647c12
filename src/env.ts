import type { Database } from './db/client';
import type { DbSession } from './db/session';
import type { Caller } from './kernel/caller';

declare global {
  namespace Cloudflare {
    /**
     * What `wrangler types` cannot see: `worker-configuration.d.ts` (generated from wrangler.toml by
     * `npm run types`, run by `npm run typecheck`; not committed) declares every binding and var
     * of wrangler.toml. Secrets and optional tuning vars are absent from wrangler.toml (a var
     * there would overwrite the deployed value on every deploy), so they are declared here, once.
     */
    interface Env {
      /** Worker secret: key for the connection secrets of the sync (docs/sync.md). */
      SYNC_ENCRYPTION_KEY?: string;
      /** Worker secret: key of the sealed OpenID Connect client secrets (docs/sso.md). */
      SSO_ENCRYPTION_KEY?: string;
      /** Worker secret: HMAC key of the signed media URLs handed to shop connectors. */
      MEDIA_URL_KEY?: string;
      /** Public origin of the PIM for scheduled syncs' media URLs (optional; manual runs use the request's). */
      PUBLIC_BASE_URL?: string;
      /** Milliseconds without a heartbeat after which a job counts as stale (docs/reliability.md); default 2 minutes. */
      JOB_STALE_MS?: string;
      /** Milliseconds an export slice runs before it hands over to a continuation message; default 20 s. */
      EXPORT_SLICE_MS?: string;
      /** Milliseconds a sync slice runs before it hands over to a continuation message; default 20 s. */
      SYNC_SLICE_MS?: string;
      /** Products per sync batch (docs/sync.md); default in src/sync. */
      SYNC_BATCH_SIZE?: string;
      /** Tests and local trials only: a second D1 database that plays a lagging read replica (src/db/binding.ts). */
      DB_REPLICA_SIM?: D1Database;
      /** The same for cell-2 and cell-3 (src/db/cells.ts `cellDatabase`). */
      CELL_2_REPLICA_SIM?: D1Database;
      CELL_3_REPLICA_SIM?: D1Database;
      /** Worker secret: key that seals the webhook signing secrets (docs/webhooks.md "Secrets"). */
      WEBHOOK_ENCRYPTION_KEY?: string;
      /** Local development and tests only: "true" lets webhook endpoints and identity providers be on private or loopback addresses (docs/webhooks.md, docs/sso.md). */
      ALLOW_PRIVATE_TARGETS?: string;
      /** Local end-to-end tests only, and only with ALLOW_PRIVATE_TARGETS: divides the webhook retry schedule (src/webhooks/deliver.ts `retryDivisorOf`). */
      WEBHOOK_RETRY_DIVISOR?: string;
      /** Local trials only (`npm run dev -- --lag 3s`): ms by which the simulated replicas trail (src/db/binding.ts). */
      REPLICA_SIM_LAG_MS?: string;
    }
  }
}

/**
 * The Worker's bindings: the one Env, generated from wrangler.toml plus the declarations above.
 * Tests add their own test-only bindings to the same interface (test/env.d.ts).
 */
export type Bindings = Cloudflare.Env;

/** The one message shape on JOB_QUEUE: the consumer loads everything else from the job row. */
export interface JobMessage {
  jobId: string;
  /** The D1 bookmark of the request that queued the work: the job reads at least that new. */
  bookmark?: string;
  /** The tenant cell whose database holds the job row (src/db/cells.ts); absent = cell-1. */
  cell?: string;
}

/** A webhook delivery attempt on JOB_QUEUE (docs/webhooks.md): the consumer loads the delivery row. */
export interface WebhookMessage {
  webhookDeliveryId: string;
  /** The tenant cell whose database holds the delivery row; absent = cell-1. */
  cell?: string;
}

/** Everything JOB_QUEUE carries. */
export type QueueMessage = JobMessage | WebhookMessage;

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    /** The request's D1 session (`db` is its handle; `dbSession.primary()` for security reads). */
    dbSession: DbSession;
    db: Database;
    requestId: string;
    caller: Caller;
  };
}
