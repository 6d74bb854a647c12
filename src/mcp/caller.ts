import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Database } from '../db/client';
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

/**
 * The SDK hands every tool call the `AuthInfo` of the HTTP request that carried it; the caller
 * authenticated for that very request rides in `extra.caller`. Reading it per call (rather than
 * binding a caller when a session opens) means a switch turned off mid-session applies at once.
 * The token itself never travels further than the OAuth layer.
 */
export function toAuthInfo(caller: Caller): AuthInfo {
  return { token: 'verified-by-oauth-layer', clientId: 'oauth-client', scopes: caller.scopes ?? [], extra: { caller } };
}

export function callerFrom(authInfo: AuthInfo | undefined): Caller {
  const caller = authInfo?.extra?.caller as Caller | undefined;
  // Unreachable through the handler, which authenticates before any message reaches the SDK.
  if (!caller) throw unauthorized('no authenticated caller for this MCP request');
  return caller;
}
