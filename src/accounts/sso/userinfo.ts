import type { JWTPayload } from 'jose';
import { issuerFetch, type IssuerEnv } from './issuer';
import { SsoSignInError } from './sso-errors';

/**
 * The claims the sign-in reads, completed from the userinfo endpoint (OpenID Connect Core 5.3)
 * when the ID token lacks the e-mail address or the groups claim: many providers (Okta's default
 * authorization server, Keycloak without "Add to ID token", Auth0) put them into the userinfo
 * answer only. The ID token's own values win (they are signed); the userinfo answer only fills
 * what is missing. Core 5.3.2: the answer's `sub` must equal the ID token's, else the sign-in is
 * refused (a token substitution). Only JSON answers are read (a signed `application/jwt` answer
 * is refused). Without a userinfo endpoint or an access token the ID token's claims stand.
 */
export async function withUserinfoClaims(
  env: IssuerEnv,
  claims: JWTPayload,
  source: { userinfoEndpoint: string | undefined; accessToken: string | undefined; groupsClaim: string },
): Promise<JWTPayload> {
  const needsEmail = typeof claims.email !== 'string' || claims.email.trim() === '';
  const needsGroups = claims[source.groupsClaim] === undefined;
  if ((!needsEmail && !needsGroups) || !source.userinfoEndpoint || !source.accessToken) return claims;
  let response: Response;
  try {
    response = await issuerFetch(env)(source.userinfoEndpoint, {
      headers: { Authorization: `Bearer ${source.accessToken}`, Accept: 'application/json' },
    });
  } catch (err) {
    throw new SsoSignInError('token', `userinfo endpoint unreachable: ${(err as Error).message}`);
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (response.status !== 200 || !type.includes('json')) {
    await response.body?.cancel();
    throw new SsoSignInError('token', `userinfo endpoint answered ${response.status} ${type}`);
  }
  const info = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (!info || typeof info !== 'object') throw new SsoSignInError('token', 'userinfo answer is not a JSON object');
  if (info.sub !== claims.sub) throw new SsoSignInError('token', "userinfo sub does not match the ID token's sub");
  const merged: JWTPayload = { ...claims };
  if (needsEmail) {
    merged.email = info.email;
    merged.email_verified = info.email_verified;
  }
  if (needsGroups) merged[source.groupsClaim] = info[source.groupsClaim];
  if (typeof merged.name !== 'string') merged.name = info.name;
  return merged;
}
