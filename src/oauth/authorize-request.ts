import {
  AuthorizationError,
  authorizationErrorRedirect,
  type AuthRequest,
  type OAuthHelpers,
} from '@cloudflare/workers-oauth-provider';
import { AppError } from '../kernel/app-error';
import { DEFAULT_SCOPES, SCOPES, type Scope } from './config';

type AgentAuthRequest = AuthRequest & { scope: Scope[] };

/** Either a request to show to the user, or an OAuth error to send back to the client. */
type ParsedAuthorization =
  | { request: AgentAuthRequest; redirect?: undefined }
  | { redirect: string; request?: undefined };

const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/**
 * Validates an authorization request: the library checks client, exact redirect URI, response
 * type, resource and the PKCE method; we add docs/spec.md 5.2's stricter rules. An error is sent back to
 * the client only once the library has validated its redirect URI; before that it is shown
 * here (a 400 page), so this endpoint can never be used as an open redirect.
 */
export async function parseAuthorization(oauth: OAuthHelpers, raw: Request): Promise<ParsedAuthorization> {
  let request: AuthRequest;
  try {
    request = await oauth.parseAuthRequest(raw);
  } catch (err) {
    if (err instanceof AuthorizationError) {
      if (err.redirectTo) return { redirect: err.redirectTo };
      throw new AppError('bad_request', `This authorization request is not valid: ${err.description}`);
    }
    throw err;
  }
  // The library lets confidential clients skip PKCE; docs/spec.md 5.2 requires S256 of every client.
  if (!request.codeChallenge || request.codeChallengeMethod !== 'S256') {
    return {
      redirect: authorizationErrorRedirect(
        request,
        'invalid_request',
        'PKCE with code_challenge_method=S256 is required',
      ),
    };
  }
  const requested = request.scope.length > 0 ? request.scope : DEFAULT_SCOPES;
  const unknown = requested.filter((s) => !isScope(s));
  if (unknown.length > 0) {
    return {
      redirect: authorizationErrorRedirect(
        request,
        'invalid_scope',
        `unknown scope: ${unknown.join(' ')}; offered: ${SCOPES.join(' ')}`,
      ),
    };
  }
  const scope = [...new Set(requested.filter(isScope))];
  if (!scope.includes('mcp') && !scope.includes('api')) {
    return {
      redirect: authorizationErrorRedirect(
        request,
        'invalid_scope',
        'ask for mcp or api (offline_access alone grants nothing)',
      ),
    };
  }
  return { request: { ...request, scope } };
}

/** What the user ticked, limited to what the client asked for: consent can only narrow. */
export function grantedScopes(ticked: unknown, requested: string[]): Scope[] {
  const list = Array.isArray(ticked) ? ticked : ticked === undefined ? [] : [ticked];
  return [...new Set(list.filter((s): s is Scope => typeof s === 'string' && isScope(s) && requested.includes(s)))];
}
