import { Hono, type Context } from 'hono';
import type { AppEnv } from '../env';
import { notFound } from '../kernel/app-error';
import { PATHS, mcpResourceOf } from './config';
import { rateLimit } from '../http/rate-limit';
import { authorizationServerFor } from './server';

/** Hands a protocol request (metadata, token, revocation, registration) to the library. */
async function toAuthorizationServer(c: Context<AppEnv>): Promise<Response> {
  const server = authorizationServerFor(new URL(c.req.url));
  if (!server) throw notFound('route');
  return server.fetch(c.req.raw, c.env, c.executionCtx as ExecutionContext);
}

/**
 * RFC 9728 document of {mcp_url}, the one protected resource. Served at the path-suffixed
 * address and, for clients that only probe the root, at the root too: `/api/ai/*` accepts the
 * same tokens, so there is no second resource to describe.
 */
function resourceMetadata(c: Context<AppEnv>): Response {
  const url = new URL(c.req.url);
  if (!authorizationServerFor(url)) throw notFound('route');
  c.header('Access-Control-Allow-Origin', '*');
  c.header('Cache-Control', 'public, max-age=300');
  return c.json({
    resource: mcpResourceOf(url.origin),
    authorization_servers: [url.origin],
    scopes_supported: ['mcp', 'api'],
    bearer_methods_supported: ['header'],
    resource_name: c.env.SERVICE_NAME,
    resource_documentation: `${url.origin}/api/docs`,
  });
}

/** The authorization server's protocol endpoints and discovery documents at {auth_url}. */
export const oauthProtocolRoutes = new Hono<AppEnv>()
  .all(PATHS.asMetadata, toAuthorizationServer)
  .get(PATHS.resourceMetadata, resourceMetadata)
  .get(`${PATHS.resourceMetadata}${PATHS.mcp}`, resourceMetadata)
  .all(PATHS.token, toAuthorizationServer)
  .post(PATHS.register, rateLimit('register'), toAuthorizationServer)
  .options(PATHS.register, toAuthorizationServer);
