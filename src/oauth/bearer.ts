import type { MiddlewareHandler } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv, Bindings } from '../env';
import { enterCell } from '../http/cell';
import { AppError } from '../kernel/app-error';
import { authenticateAgent, type AgentProps } from './agent-auth';
import { bearerUnauthorized } from './challenge';
import { mcpResourceOf, type SurfaceScope } from './config';
import { authorizationServerFor } from './server';
import type { Caller } from '../kernel/caller';

/** A verified token: its props (scopes and audience as verified) and the caller they resolve to. */
interface VerifiedAgent {
  props: AgentProps;
  caller: Caller;
}

const BEARER = /^Bearer[\t ]+([^\s,]+)$/i;

/**
 * Verifies the request's bearer token for {mcp_url} and applies every per-use rule. The token
 * record (expiry, audience, encrypted props) comes from the library; stamp, membership and
 * scope from `authenticateAgent`. A token issued for another resource, or by this service on
 * another origin, is refused with 401 like an unknown one.
 */
export async function verifyBearer(
  request: Request,
  env: Bindings,
  db: Database,
  scope: SurfaceScope,
): Promise<VerifiedAgent> {
  const url = new URL(request.url);
  const server = authorizationServerFor(url);
  if (!server) throw new AppError('unauthorized', 'bearer tokens are accepted only over https');
  const token = BEARER.exec(request.headers.get('Authorization') ?? '')?.[1];
  if (!token) throw bearerUnauthorized(url.origin, scope, 'bearer token required', false);
  const verified = await server.validateToken(mcpResourceOf(url.origin), token, env);
  if (!verified) throw bearerUnauthorized(url.origin, scope, 'token is invalid, expired or revoked');
  // The client id rides along so the change history can name the client (docs/history.md).
  const props = {
    ...(verified.props as object),
    scopes: verified.scope,
    resource: verified.audience,
    clientId: verified.clientId,
  } as AgentProps;
  return { props, caller: await authenticateAgent(db, props, scope) };
}

/** Variables a bearer-protected route sees. */
export type AgentEnv = { Bindings: AppEnv['Bindings']; Variables: AppEnv['Variables'] & { agent: Caller } };

/** Hono middleware: requires a token with `scope`; sets `agent` (and `caller` for shared code). */
export function requireAgent(scope: SurfaceScope): MiddlewareHandler<AgentEnv> {
  return async (c, next) => {
    const { caller } = await verifyBearer(c.req.raw, c.env, c.var.dbSession.primary(), scope);
    c.set('agent', caller);
    c.set('caller', {
      userId: caller.userId,
      companyId: caller.companyId,
      departmentId: caller.departmentId,
      role: caller.role,
      ...(caller.permissions ? { permissions: caller.permissions } : {}),
      ...(caller.languages ? { languages: caller.languages } : {}),
      ...(caller.productScope ? { productScope: caller.productScope } : {}),
      ...(caller.channels ? { channels: caller.channels } : {}),
      surface: caller.surface,
      clientName: caller.clientName,
      aiMayEditClassifications: caller.aiMayEditClassifications,
    });
    // Verified on the directory; the tenant work runs on the caller's cell.
    await enterCell(c, caller.companyId);
    await next();
  };
}
