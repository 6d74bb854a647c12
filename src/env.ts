import type { Database } from './db/client';
import type { Surface } from './history/actor';
import type { RateLimiter } from './http/rate-limit';

/** Bindings declared in wrangler.toml. */
export interface Bindings {
  DB: D1Database;
  OAUTH_KV: KVNamespace;
  FILES: R2Bucket;
  JOB_QUEUE: Queue<JobMessage>;
  SERVICE_NAME: string;
  /** Milliseconds without a heartbeat after which a job counts as stale (docs/reliability.md); default 2 minutes. */
  JOB_STALE_MS?: string;
  /** Per-IP counters of the public endpoints (docs/spec.md part 8). */
  RATE_LIMITER: DurableObjectNamespace<RateLimiter>;
  /** The web application's static files (dist/web); the asset layer serves them before the Worker runs. */
  ASSETS: Fetcher;
  /** One Durable Object per MCP session (2025 protocol revisions). */
  MCP_SESSION: DurableObjectNamespace<import('./mcp/session-agent').McpSession>;
  /** Worker secret: key for the connection secrets of the sync (docs/sync.md). */
  SYNC_ENCRYPTION_KEY?: string;
  /** Worker secret: HMAC key of the signed media URLs handed to shop connectors. */
  MEDIA_URL_KEY?: string;
  /** Public origin of the PIM for scheduled syncs' media URLs (optional; manual runs use the request's). */
  PUBLIC_BASE_URL?: string;
}

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
}

export interface AppEnv {
  Bindings: Bindings;
  Variables: {
    db: Database;
    requestId: string;
    caller: Caller;
  };
}
