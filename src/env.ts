import type { Database } from './db/client';
import type { Surface } from './history/actor';

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
}

/** Who is calling: resolved from the session cookie (web) or the bearer token (agent surface). */
export interface Caller {
  userId: string;
  companyId: string;
  departmentId: string;
  role: 'admin' | 'editor';
  /** Through what the caller writes, for the change history (docs/history.md). */
  surface: Surface;
  /** The OAuth client's name on the agent and MCP surfaces. */
  clientName?: string | null;
  /** The job on the job surface. */
  jobId?: string | null;
  /** The user's switch "AI may edit classifications", on the agent surfaces (classification/ai-switch.ts). */
  aiMayEditClassifications?: boolean;
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    db: Database;
    requestId: string;
    caller: Caller;
  };
}
