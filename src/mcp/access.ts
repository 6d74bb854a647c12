import { databaseOf } from '../db/binding';
import { openSession } from '../db/session';
import type { Bindings } from '../env';
import { AppError } from '../kernel/app-error';
import { authenticateAgent, type McpProps } from '../oauth/agent-auth';

/** How often an open SSE stream re-checks its user's access, so revocation lands within seconds. */
export const REVOCATION_CHECK_MS = 2_000;

/**
 * Re-applies every token rule (security stamp, membership, scope) to the props a request came
 * with, read on the primary so a revocation counts at once. Only a refusal says no: a passing
 * database error must not cut a healthy stream.
 */
export async function stillAllowed(env: Bindings, props: McpProps): Promise<boolean> {
  try {
    await authenticateAgent(openSession(databaseOf(env)).primary(), props, 'mcp');
    return true;
  } catch (err) {
    return !(err instanceof AppError);
  }
}
