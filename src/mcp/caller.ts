import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Database } from '../db/client';
import type { DbSession } from '../db/session';
import type { JobMessage } from '../env';
import { unauthorized } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';

/** Everything a tool may touch: the caller's tenant and the bindings the domain functions take. */
export interface ToolContext {
  db: Database;
  caller: Caller;
  queue: Queue<JobMessage>;
  /** Media files, so a bulk upsert that drops a stored file also deletes it. */
  files?: R2Bucket;
}

/** What rides with each HTTP request into the SDK: its caller and its D1 session. */
export interface RequestExtra {
  caller: Caller;
  dbSession: DbSession;
  /**
   * Told the session's bookmark after each tool call (the session's Durable Object keeps the
   * newest), and whether the tool may have written (not `readOnlyHint`): only a write's bookmark
   * must survive an eviction of the object.
   */
  remember?: (bookmark: string, wrote: boolean) => void;
}

/**
 * The SDK hands every tool call the `AuthInfo` of the HTTP request that carried it; the caller
 * authenticated for that very request rides in `extra.caller`, its D1 session in
 * `extra.dbSession`. Reading them per call (rather than binding them when a session opens)
 * means a switch turned off mid-session applies at once and every message reads at least as new
 * as the bookmark it brought. The token itself never travels further than the OAuth layer.
 */
export function toAuthInfo(request: RequestExtra): AuthInfo {
  const { caller } = request;
  return {
    token: 'verified-by-oauth-layer',
    clientId: 'oauth-client',
    scopes: caller.scopes ?? [],
    extra: request as unknown as Record<string, unknown>,
  };
}

export function requestExtraFrom(authInfo: AuthInfo | undefined): RequestExtra {
  const extra = authInfo?.extra as Partial<RequestExtra> | undefined;
  // Unreachable through the handler, which authenticates before any message reaches the SDK.
  if (!extra?.caller || !extra.dbSession) throw unauthorized('no authenticated caller for this MCP request');
  return extra as RequestExtra;
}
