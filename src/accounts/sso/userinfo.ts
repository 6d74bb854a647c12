import { errors as joseErrors, type JWTPayload, jwtVerify } from 'jose';
import { CLOCK_TOLERANCE_S, type IssuerEnv, issuerFetch, keySetOf } from './issuer';
import { SsoSignInError } from './sso-errors';

/** Where the claims come from and what a signed answer must name (Core 5.3.2). */
export interface UserinfoSource {
  userinfoEndpoint: string | undefined;
  accessToken: string | undefined;
  groupsClaim: string;
  issuer: string;
  jwksUri: string;
  clientId: string;
}

/**
 * The claims the sign-in reads, completed from the userinfo endpoint (OpenID Connect Core 5.3)
 * when the ID token lacks the e-mail address or the groups claim: many providers (Okta's default
 * authorization server, Keycloak without "Add to ID token", Auth0) put them into the userinfo
 * answer only. The ID token's own values win (they are signed); the userinfo answer only fills
 * what is missing. Core 5.3.2: the answer's `sub` must equal the ID token's, else the sign-in is
 * refused (a token substitution). The answer is JSON, or a signed JWT (`application/jwt`, as
 * providers answer for clients registered with a `userinfo_signed_response_alg`): its signature
 * is verified through the issuer's JWKS and it must name the issuer and this client as its
 * audience (Core 5.3.2); an encrypted answer (a JWE) is refused, the PIM holds no decryption key.
 * Without a userinfo endpoint or an access token the ID token's claims stand.
 */
export async function withUserinfoClaims(
  env: IssuerEnv,
  claims: JWTPayload,
  source: UserinfoSource,
): Promise<JWTPayload> {
  const needsEmail = typeof claims.email !== 'string' || claims.email.trim() === '';
  const needsGroups = claims[source.groupsClaim] === undefined;
  if ((!needsEmail && !needsGroups) || !source.userinfoEndpoint || !source.accessToken) return claims;
  let response: Response;
  try {
    response = await issuerFetch(env)(source.userinfoEndpoint, {
      headers: { Authorization: `Bearer ${source.accessToken}`, Accept: 'application/json, application/jwt' },
    });
  } catch (err) {
    throw new SsoSignInError('token', `userinfo endpoint unreachable: ${(err as Error).message}`);
  }
  const type = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  const signed = type === 'application/jwt';
  if (response.status !== 200 || !(signed || type.includes('json'))) {
    await response.body?.cancel();
    throw new SsoSignInError('token', `userinfo endpoint answered ${response.status} ${type}`);
  }
  const info = signed
    ? await verifiedUserinfo(env, await response.text(), source)
    : ((await response.json().catch(() => null)) as Record<string, unknown> | null);
  if (!info || typeof info !== 'object' || Array.isArray(info)) {
    throw new SsoSignInError('token', 'userinfo answer is not a JSON object');
  }
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

/** The claims of a signed userinfo answer: signature through the issuer's JWKS, `iss` and `aud` checked. */
async function verifiedUserinfo(env: IssuerEnv, jwt: string, source: UserinfoSource): Promise<JWTPayload> {
  const compact = jwt.trim();
  if (compact.split('.').length === 5) {
    throw new SsoSignInError(
      'token',
      'userinfo answer is encrypted (JWE); register the client for signed or plain answers',
    );
  }
  try {
    const { payload } = await jwtVerify(compact, keySetOf(env, source.jwksUri), {
      issuer: source.issuer,
      audience: source.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['sub'],
    });
    return payload;
  } catch (err) {
    const kind = err instanceof joseErrors.JOSEError ? err.code : 'ERR_UNKNOWN';
    throw new SsoSignInError('token', `signed userinfo answer refused (${kind}): ${(err as Error).message}`);
  }
}
