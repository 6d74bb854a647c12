/**
 * The fixed facts of the authorization server. Addresses are derived from the origin the
 * Worker is served on ({auth_url} = origin, {mcp_url} = origin + /mcp), so the same code serves
 * `wrangler dev` on any port and a production hostname.
 */
export const SCOPES = ['mcp', 'api', 'offline_access'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope each protected surface needs: `/api/ai/*` takes `api`, `/mcp` takes `mcp`. */
export type SurfaceScope = Exclude<Scope, 'offline_access'>;

/** Granted when the client asks for no scope at all: both surfaces, no refresh token. */
export const DEFAULT_SCOPES: Scope[] = ['mcp', 'api'];

export const ACCESS_TOKEN_TTL_SECONDS = 300;
/** A grant (and so its refresh token) lives 30 days from the code exchange, however often refreshed. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

export const PATHS = {
  authorize: '/connect/authorize',
  token: '/connect/token',
  register: '/connect/register',
  login: '/connect/login',
  logout: '/connect/logout',
  mcp: '/mcp',
  asMetadata: '/.well-known/oauth-authorization-server',
  resourceMetadata: '/.well-known/oauth-protected-resource',
} as const;

/** The one protected resource (RFC 8707) every token is bound to: {mcp_url}. */
export function mcpResourceOf(origin: string): string {
  return `${origin}${PATHS.mcp}`;
}

/** RFC 9728 address of the resource's metadata: the well-known prefix, then the resource path. */
export function resourceMetadataUrlOf(origin: string): string {
  return `${origin}${PATHS.resourceMetadata}${PATHS.mcp}`;
}

/**
 * OAuth 2.1 wants https; the library accepts plain http only on a loopback host (wrangler dev).
 * Any other origin gets no authorization server at all.
 */
export function isOAuthOrigin(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}
