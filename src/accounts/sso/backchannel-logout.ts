import { and, eq, lt } from 'drizzle-orm';
import { decodeJwt, errors as joseErrors, type JWTPayload, jwtVerify } from 'jose';
import type { Database } from '../../db/client';
import { isUniqueViolation, nowIso } from '../../db/client';
import { sessions, ssoLogoutTokens, ssoSettings } from '../../db/schema';
import { sha256Hex } from '../../kernel/hashing';
import { CLOCK_TOLERANCE_S, discoveryOf, keySetOf } from './issuer';
import type { SsoEnv } from './sso-settings';

/** The event a logout token must carry (Back-Channel Logout 1.0, section 2.4). */
const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** A logout token older than this is refused; its `jti` is remembered as long (replays). */
const MAX_TOKEN_AGE_S = 10 * 60;

/** A logout token the PIM does not act on; `message` goes to the provider as `error_description`. */
export class LogoutTokenError extends Error {}

/**
 * OpenID Connect Back-Channel Logout 1.0: the provider tells the PIM that a user signed out
 * there (or was signed out by an administrator) with a signed logout token; the PIM ends the web
 * sessions it opened through SSO for them: those of the token's `sid` (the user's session at the
 * provider) when it names one, else every SSO session of its `sub`. The token is validated per
 * section 2.6: signature through the issuer's JWKS (as the ID token), `iss` and `aud` of a company
 * that registered this provider, `iat` recent, the logout event present, `sub` or `sid`, no
 * `nonce` (an ID token is not a logout token), and a `jti` not seen before. Answers how many
 * sessions ended.
 */
export async function acceptLogoutToken(db: Database, env: SsoEnv, logoutToken: string): Promise<number> {
  const compact = logoutToken.trim();
  if (compact.split('.').length !== 3) throw new LogoutTokenError('logout_token is not a signed JWT');
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(compact);
  } catch {
    throw new LogoutTokenError('logout_token is not a JWT');
  }
  const audiences = typeof unverified.aud === 'string' ? [unverified.aud] : (unverified.aud ?? []);
  if (typeof unverified.iss !== 'string' || audiences.length === 0) {
    throw new LogoutTokenError('logout_token has no iss or aud');
  }
  // The companies that registered this provider under one of the token's audiences; the
  // signature check below decides, so an unverified iss / aud only chooses which keys to try.
  const candidates = (await db.select().from(ssoSettings).where(eq(ssoSettings.issuer, unverified.iss))).filter(
    (settings) => audiences.includes(settings.clientId),
  );
  if (candidates.length === 0) throw new LogoutTokenError('no company signs in with this issuer and client');
  // Companies that registered the same client of the same provider share its users: the token
  // ends their sessions in each, and is refused only when no company accepts it.
  let ended = 0;
  let accepted = false;
  let lastError: LogoutTokenError | undefined;
  for (const settings of candidates) {
    try {
      const claims = await verifiedLogoutClaims(db, env, compact, settings);
      ended += await endSessions(db, settings.companyId, claims);
      accepted = true;
    } catch (err) {
      if (!(err instanceof LogoutTokenError)) throw err;
      lastError = err;
    }
  }
  if (!accepted) throw lastError!;
  return ended;
}

interface LogoutClaims {
  jti: string;
  iat: number;
  sub: string | undefined;
  sid: string | undefined;
}

async function verifiedLogoutClaims(
  db: Database,
  env: SsoEnv,
  compact: string,
  settings: {
    companyId: string;
    issuer: string;
    clientId: string;
    discovery: unknown;
    discoveryFetchedAt: string | null;
  },
): Promise<LogoutClaims> {
  const discovery = await discoveryOf(db, env, settings);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(compact, keySetOf(env, discovery.jwks_uri), {
      issuer: discovery.issuer,
      audience: settings.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      maxTokenAge: MAX_TOKEN_AGE_S,
      requiredClaims: ['iat', 'jti'],
      algorithms: discovery.id_token_signing_alg_values_supported?.filter((a) => a !== 'none' && !a.startsWith('HS')),
    }));
  } catch (err) {
    const kind = err instanceof joseErrors.JOSEError ? err.code : 'ERR_UNKNOWN';
    throw new LogoutTokenError(`logout_token refused (${kind})`);
  }
  const events = payload.events as Record<string, unknown> | undefined;
  const event = events && typeof events === 'object' ? events[LOGOUT_EVENT] : undefined;
  if (!event || typeof event !== 'object' || Array.isArray(event)) {
    throw new LogoutTokenError('logout_token carries no back-channel logout event');
  }
  if (payload.nonce !== undefined) throw new LogoutTokenError('logout_token must not carry a nonce');
  const sub = typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : undefined;
  const sid = typeof payload.sid === 'string' && payload.sid !== '' ? payload.sid : undefined;
  if (!sub && !sid) throw new LogoutTokenError('logout_token names neither sub nor sid');
  if (typeof payload.jti !== 'string' || payload.jti === '') throw new LogoutTokenError('logout_token has no jti');
  return { jti: payload.jti, iat: payload.iat!, sub, sid };
}

/**
 * Ends the company's SSO sessions the token names and remembers its `jti`, in one batch: a
 * replay finds the `jti` taken (the insert fails, nothing is deleted) and is refused.
 */
async function endSessions(db: Database, companyId: string, claims: LogoutClaims): Promise<number> {
  const jtiHash = await sha256Hex(`${companyId}:${claims.jti}`);
  const seen = await db.query.ssoLogoutTokens.findFirst({ where: eq(ssoLogoutTokens.jtiHash, jtiHash) });
  if (seen) throw new LogoutTokenError('logout_token was already used');
  const named = and(
    eq(sessions.companyId, companyId),
    claims.sub ? eq(sessions.ssoSubject, claims.sub) : undefined,
    claims.sid ? eq(sessions.ssoSid, claims.sid) : undefined,
  );
  const expiresAt = new Date((claims.iat + MAX_TOKEN_AGE_S + CLOCK_TOLERANCE_S) * 1000).toISOString();
  try {
    const [, , ended] = await db.batch([
      db.delete(ssoLogoutTokens).where(lt(ssoLogoutTokens.expiresAt, nowIso())),
      db.insert(ssoLogoutTokens).values({ jtiHash, companyId, expiresAt }),
      db.delete(sessions).where(named).returning({ tokenHash: sessions.tokenHash }),
    ]);
    return ended.length;
  } catch (err) {
    // two deliveries of the same token at once: the second insert meets the first's row
    if (isUniqueViolation(err, 'sso_logout_tokens.jti_hash'))
      throw new LogoutTokenError('logout_token was already used');
    throw err;
  }
}
