import { z } from 'zod';
import type { Database } from '../db/client';
import { AppError } from '../kernel/app-error';
import { bearerUnauthorized, insufficientScope } from './challenge';
import { PATHS, type SurfaceScope } from './config';
import { agentRefusal, loadAgentAccount } from './agent-account';
import type { Caller } from '../kernel/caller';

/**
 * The props of a grant, stored encrypted by the OAuth library with every token of the grant.
 * Opaque ids only (token strings embed the user id): never an email.
 *
 * - `userId`, `companyId`: the delegating user and their single company at consent time.
 * - `securityStamp`: the user's stamp when they consented; a changed stamp revokes the token.
 * - `scopes`: granted at consent. When a token is verified, replaced by the token's own scopes
 *   (a refresh may narrow them).
 * - `resource`: the token's audience, {mcp_url}. Set from the verified audience on every use.
 */
export const AgentProps = z.object({
  userId: z.string().min(1),
  companyId: z.string().min(1),
  securityStamp: z.string().min(1),
  scopes: z.array(z.string()),
  resource: z.url(),
  /** The OAuth client the token was issued to (set from the verified token on every use). */
  clientId: z.string().optional(),
  /** The client's registered name at consent time, for the change history. */
  clientName: z.string().max(200).optional(),
});
export type AgentProps = z.infer<typeof AgentProps>;

/**
 * `ctx.props` of a request forwarded to `/mcp`: the verified props plus the caller they
 * resolved to. Long-lived MCP code can re-check with `authenticateAgent(db, props, 'mcp')`.
 */
export type McpProps = AgentProps & { caller: Caller };

/**
 * Applies docs/spec.md 5.2 at one use of a token whose signature, expiry and audience the library
 * already verified: the props are well-formed and bound to {mcp_url}; the security stamp is
 * still current (else 401: revoked); the account is still a single-company non-admin member
 * of the same company (else 403); the token carries `requiredScope` (else 403
 * insufficient_scope). Throws `AppError`s with `WWW-Authenticate`. The caller it answers acts in
 * the user's default department, with the membership's role and language scope (what it permits
 * is narrowed for agents in kernel/permissions.ts), the user's AI switch and the token's scopes.
 */
export async function authenticateAgent(db: Database, props: unknown, requiredScope: SurfaceScope): Promise<Caller> {
  const parsed = AgentProps.safeParse(props);
  if (!parsed.success || new URL(parsed.data.resource).pathname !== PATHS.mcp) {
    throw new AppError('unauthorized', 'token is not valid here');
  }
  const { userId, companyId, securityStamp, scopes, resource, clientId, clientName } = parsed.data;
  const origin = new URL(resource).origin;
  const account = await loadAgentAccount(db, userId);
  if (!account || account.securityStamp !== securityStamp) {
    throw bearerUnauthorized(origin, requiredScope, 'token revoked; authorize again');
  }
  const refusal = agentRefusal(account);
  if (refusal) throw new AppError('forbidden', refusal);
  const membership = account.memberships[0]!;
  if (membership.companyId !== companyId)
    throw new AppError('forbidden', 'the account no longer belongs to the company it authorized for');
  if (!scopes.includes(requiredScope)) throw insufficientScope(origin, requiredScope);
  return {
    userId,
    companyId,
    departmentId: membership.departmentId,
    role: membership.role,
    ...(membership.permissions ? { permissions: membership.permissions } : {}),
    ...(membership.languages ? { languages: membership.languages } : {}),
    ...(membership.productScope ? { productScope: membership.productScope } : {}),
    ...(membership.channels ? { channels: membership.channels } : {}),
    surface: requiredScope === 'mcp' ? 'mcp' : 'agent',
    clientName: clientName ?? clientId ?? null,
    aiMayEditClassifications: account.aiMayEditClassifications,
    scopes,
  };
}
