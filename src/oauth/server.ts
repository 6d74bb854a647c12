import { OAuthAuthorizationServer } from '@cloudflare/workers-oauth-provider';
import type { Bindings } from '../env';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  PATHS,
  REFRESH_TOKEN_TTL_SECONDS,
  SCOPES,
  isOAuthOrigin,
  mcpResourceOf,
} from './config';
import { applyGrantPolicy } from './grant-policy';
import { checkRegistration } from './registration-policy';

/**
 * We use the library's authorization-server role (`OAuthAuthorizationServer`) rather than the
 * combined `OAuthProvider`: the combined one only protects routes under its resource path, and
 * `/api/ai/*` must accept tokens of {mcp_url} (docs/spec.md 5.2 step 5). Both protected surfaces are
 * ours (see `bearer.ts`) and ask `validateToken()` for the one resource.
 *
 * The issuer is the origin the Worker is reached on, so one instance is built per origin and
 * kept for the isolate's life. Grant and token records in OAUTH_KV do not depend on the issuer.
 */
const servers = new Map<string, OAuthAuthorizationServer<Bindings>>();

export function authorizationServerFor(url: URL): OAuthAuthorizationServer<Bindings> | null {
  if (!isOAuthOrigin(url)) return null;
  let server = servers.get(url.origin);
  if (!server) {
    server = new OAuthAuthorizationServer<Bindings>({
      issuer: url.origin,
      resources: [mcpResourceOf(url.origin)],
      authorizeEndpoint: PATHS.authorize,
      tokenEndpoint: PATHS.token,
      clientRegistrationEndpoint: PATHS.register,
      scopesSupported: [...SCOPES],
      accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTTL: REFRESH_TOKEN_TTL_SECONDS,
      tokenExchangeCallback: applyGrantPolicy,
      clientRegistrationCallback: checkRegistration,
    });
    servers.set(url.origin, server);
  }
  return server;
}
