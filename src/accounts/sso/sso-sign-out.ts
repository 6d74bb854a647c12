import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { ssoSettings } from '../../db/schema';
import { seal, unseal } from '../../kernel/secret-box';
import { refusedIssuerUrl } from './issuer';
import { keyOf, type SsoEnv } from './sso-settings';

/**
 * The ID token of a session opened through SSO, sealed with SSO_ENCRYPTION_KEY and the session's
 * token hash as additional data (a sealed token copied to another session row does not open).
 * Sealed, not hashed: the sign-out hands the token itself back to the provider as `id_token_hint`.
 */
export async function sealSessionIdToken(env: SsoEnv, tokenHash: string, idToken: string): Promise<string> {
  return seal(keyOf(env), `sso-session:${tokenHash}`, idToken);
}

/** What a signed-out session leaves for the sign-out at the provider. */
export interface EndedSession {
  tokenHash: string;
  companyId: string;
  ssoIdToken: string | null;
  ssoLogoutUrl: string | null;
}

/** The path the provider sends the browser back to after signing out (register it as post-logout redirect URI). */
export const POST_LOGOUT_PATH = '/';

/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): for a session opened through SSO
 * whose provider offers an `end_session_endpoint`, the URL the browser goes to after the PIM
 * ended its session, with `id_token_hint` (the session's ID token), `client_id` and
 * `post_logout_redirect_uri` = the PIM's origin + `/`; null for any other session. A token that no
 * longer opens (SSO_ENCRYPTION_KEY rotated) is left out: the provider then asks the user.
 */
export async function providerSignOutUrl(
  db: Database,
  env: SsoEnv,
  ended: EndedSession,
  origin: string,
): Promise<string | null> {
  if (!ended.ssoLogoutUrl || refusedIssuerUrl(ended.ssoLogoutUrl, env)) return null;
  const url = new URL(ended.ssoLogoutUrl);
  const settings = await db.query.ssoSettings.findFirst({
    where: eq(ssoSettings.companyId, ended.companyId),
    columns: { clientId: true },
  });
  if (settings) url.searchParams.set('client_id', settings.clientId);
  if (ended.ssoIdToken && env.SSO_ENCRYPTION_KEY) {
    const opened = await unseal(keyOf(env), `sso-session:${ended.tokenHash}`, ended.ssoIdToken);
    if (typeof opened !== 'string') url.searchParams.set('id_token_hint', opened.plaintext);
  }
  url.searchParams.set('post_logout_redirect_uri', `${origin}${POST_LOGOUT_PATH}`);
  return url.toString();
}
