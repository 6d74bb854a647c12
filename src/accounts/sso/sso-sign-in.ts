import { and, eq, lt } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Database } from '../../db/client';
import { nowIso } from '../../db/client';
import { memberships, sessions, ssoIdentities, ssoLogins, ssoSettings, users } from '../../db/schema';
import { AppError, notFound } from '../../kernel/app-error';
import { sha256Hex } from '../../kernel/hashing';
import { randomToken } from '../passwords';
import { CLOCK_TOLERANCE_S, discoveryOf, issuerFetch, keySetOf } from './issuer';
import { SsoSignInError } from './sso-errors';
import { sealSessionIdToken } from './sso-sign-out';
import { withDistributedGroups } from './group-overage';
import { withUserinfoClaims } from './userinfo';
import { isDeactivated } from '../member-status';
import { consumeInvitationAtSignOn } from '../invitations';
import { applyMappedRole, provisionMember, roleForGroups, scimGroupNames } from './provisioning';
import { CALLBACK_PATH, openClientSecret, type SsoEnv } from './sso-settings';

export { type SsoFailure, SsoSignInError } from './sso-errors';

/** How long the browser has between leaving for the identity provider and coming back. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

async function s256(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/**
 * Starts a sign-in through the company's identity provider: keeps state, nonce and PKCE verifier
 * server-side for ten minutes, bound to the browser by the returned `browserKey` (a cookie), and
 * answers the authorization URL to send the browser to.
 */
export async function startSsoSignIn(db: Database, env: SsoEnv, input: { slug: string }, origin: string) {
  const settings = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.slug, input.slug.toLowerCase()) });
  if (!settings) throw notFound('slug: no single sign-on under this name');
  const discovery = await discoveryOf(db, env, settings);
  const state = randomToken(32);
  const nonce = randomToken(32);
  const codeVerifier = randomToken(48);
  const browserKey = randomToken(32);
  // Expired rows of abandoned sign-ins go with every new one; the table stays small.
  await db.batch([
    db.delete(ssoLogins).where(lt(ssoLogins.expiresAt, nowIso())),
    db.insert(ssoLogins).values({
      stateHash: await sha256Hex(state),
      browserHash: await sha256Hex(browserKey),
      companyId: settings.companyId,
      nonce,
      codeVerifier,
      expiresAt: new Date(Date.now() + LOGIN_TTL_MS).toISOString(),
    }),
  ]);
  const url = new URL(discovery.authorization_endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', settings.clientId);
  url.searchParams.set('redirect_uri', `${origin}${CALLBACK_PATH}`);
  url.searchParams.set('scope', settings.scopes);
  url.searchParams.set('state', state);
  url.searchParams.set('nonce', nonce);
  url.searchParams.set('code_challenge', await s256(codeVerifier));
  url.searchParams.set('code_challenge_method', 'S256');
  return { redirectUrl: url.toString(), browserKey, expiresInSeconds: LOGIN_TTL_MS / 1000 };
}

export interface CallbackInput {
  state: string | undefined;
  code: string | undefined;
  error: string | undefined;
  /** The Service.Sso cookie of the browser that started the sign-in. */
  browserKey: string | undefined;
}

/** The claims the PIM takes from a verified ID token. */
export interface VerifiedIdentity {
  subject: string;
  email: string;
  name: string;
  groups: string[];
}

/**
 * Finishes a sign-in: takes the sign-in in flight (single use), exchanges the code with the
 * PKCE verifier, verifies the ID token (signature through the issuer's JWKS, issuer, audience,
 * expiry, nonce), provisions the member with the role their groups map to and opens a web
 * session in the company.
 */
export async function finishSsoSignIn(db: Database, env: SsoEnv, input: CallbackInput, origin: string) {
  if (!input.state || !input.browserKey) throw new SsoSignInError('expired', 'state or browser cookie missing');
  // Deleting is the claim: a replayed state, or a second tab racing the first, finds no row.
  const [login] = await db
    .delete(ssoLogins)
    .where(eq(ssoLogins.stateHash, await sha256Hex(input.state)))
    .returning();
  if (!login || login.expiresAt <= nowIso()) throw new SsoSignInError('expired', 'unknown, used or expired state');
  if (login.browserHash !== (await sha256Hex(input.browserKey))) {
    throw new SsoSignInError('expired', 'the sign-in was started in another browser');
  }
  if (input.error) throw new SsoSignInError('denied', `identity provider error: ${input.error}`);
  if (!input.code) throw new SsoSignInError('token', 'no code');
  const settings = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, login.companyId) });
  if (!settings) throw new SsoSignInError('expired', 'single sign-on was removed meanwhile');
  const discovery = await discoveryOf(db, env, settings);
  const clientSecret = await openClientSecret(env, settings.companyId, settings.clientSecret);
  const { idToken, accessToken } = await exchangeCode(env, discovery, {
    code: input.code,
    codeVerifier: login.codeVerifier,
    clientId: settings.clientId,
    clientSecret,
    redirectUri: `${origin}${CALLBACK_PATH}`,
  });
  const claims = await verifyIdToken(env, idToken, {
    issuer: discovery.issuer,
    jwksUri: discovery.jwks_uri,
    clientId: settings.clientId,
    nonce: login.nonce,
    algorithms: discovery.id_token_signing_alg_values_supported,
  });
  const identity = identityOf(
    await withUserinfoClaims(env, await withDistributedGroups(env, claims, settings.groupsClaim, accessToken), {
      userinfoEndpoint: discovery.userinfo_endpoint,
      accessToken,
      groupsClaim: settings.groupsClaim,
      issuer: discovery.issuer,
      jwksUri: discovery.jwks_uri,
      clientId: settings.clientId,
    }),
    settings.groupsClaim,
  );

  const known = await db.query.ssoIdentities.findFirst({
    where: and(eq(ssoIdentities.companyId, settings.companyId), eq(ssoIdentities.subject, identity.subject)),
  });
  const byEmail = known ? null : await db.query.users.findFirst({ where: eq(users.email, identity.email) });
  const linked = known
    ? known
    : byEmail
      ? await db.query.ssoIdentities.findFirst({
          where: and(eq(ssoIdentities.companyId, settings.companyId), eq(ssoIdentities.userId, byEmail.id)),
        })
      : undefined;
  if (linked && !linked.active) throw new SsoSignInError('deactivated', 'deactivated by SCIM');
  // An admin's deactivation holds against the provider too, until an admin reactivates (docs/teams.md).
  const candidate = known?.userId ?? byEmail?.id;
  if (candidate && (await isDeactivated(db, settings.companyId, candidate))) {
    throw new SsoSignInError('deactivated', 'deactivated by a company admin');
  }
  // The groups of the ID token and, for identity providers that push them, the SCIM groups.
  const pushedGroups = linked ? await scimGroupNames(db, settings.companyId, linked.userId) : [];
  const mapped = roleForGroups([...identity.groups, ...pushedGroups], settings.groupRoles, settings.defaultRole);
  if (!mapped) throw new SsoSignInError('no-role', `no mapped group among ${JSON.stringify(identity.groups)}`);
  let userId: string;
  let role = mapped;
  if (known) {
    // The subject decides who signs in; the e-mail address may have changed at the provider.
    userId = known.userId;
    // an admin's hand-given role holds while the provider maps as before (docs/sso.md)
    role = await applyMappedRole(db, settings.companyId, userId, mapped, 'sso');
  } else {
    try {
      ({ userId } = await provisionMember(db, {
        companyId: settings.companyId,
        email: identity.email,
        name: identity.name,
        role,
        subject: identity.subject,
      }));
      // An invited address signing on for the first time consumes its invitation (docs/teams.md).
      await consumeInvitationAtSignOn(db, { companyId: settings.companyId, email: identity.email, userId, role });
    } catch (err) {
      if (err instanceof AppError && (err.status === 403 || err.status === 409)) {
        throw new SsoSignInError('foreign-account', err.message);
      }
      throw err;
    }
  }
  const member = await db.query.memberships.findFirst({
    where: and(eq(memberships.userId, userId), eq(memberships.companyId, settings.companyId)),
  });
  if (!member) throw new SsoSignInError('deactivated', 'no membership');
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS).toISOString();
  await db.insert(sessions).values({
    tokenHash,
    userId,
    companyId: settings.companyId,
    departmentId: member.defaultDepartmentId,
    expiresAt,
    // what a back-channel logout token names: the user at the provider, and their session there
    ssoSubject: identity.subject,
    ssoSid: typeof claims.sid === 'string' && claims.sid !== '' ? claims.sid : null,
    // kept for the sign-out at the provider (RP-initiated logout), sealed to this session
    ...(discovery.end_session_endpoint
      ? { ssoIdToken: await sealSessionIdToken(env, tokenHash, idToken), ssoLogoutUrl: discovery.end_session_endpoint }
      : {}),
  });
  return { token, expiresAt, userId, role, companyId: settings.companyId };
}

async function exchangeCode(
  env: SsoEnv,
  discovery: { token_endpoint: string; token_endpoint_auth_methods_supported?: string[] },
  input: { code: string; codeVerifier: string; clientId: string; clientSecret: string; redirectUri: string },
): Promise<{ idToken: string; accessToken: string | undefined }> {
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    code_verifier: input.codeVerifier,
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  // client_secret_basic is the default of OpenID Connect; _post where only that is offered.
  const methods = discovery.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (!methods.includes('client_secret_basic') && methods.includes('client_secret_post')) {
    body.set('client_id', input.clientId);
    body.set('client_secret', input.clientSecret);
  } else {
    const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    headers.Authorization = `Basic ${btoa(`${encode(input.clientId)}:${encode(input.clientSecret)}`)}`;
  }
  let response: Response;
  try {
    response = await issuerFetch(env)(discovery.token_endpoint, { method: 'POST', headers, body });
  } catch (err) {
    throw new SsoSignInError('token', `token endpoint unreachable: ${(err as Error).message}`);
  }
  const json = (await response.json().catch(() => null)) as {
    id_token?: unknown;
    access_token?: unknown;
    error?: unknown;
  } | null;
  if (response.status !== 200 || typeof json?.id_token !== 'string') {
    throw new SsoSignInError('token', `token endpoint answered ${response.status} ${String(json?.error ?? '')}`);
  }
  return { idToken: json.id_token, accessToken: typeof json.access_token === 'string' ? json.access_token : undefined };
}

/** OpenID Connect Core 3.1.3.7: the checks of an ID token received at the token endpoint; answers its claims. */
export async function verifyIdToken(
  env: SsoEnv,
  idToken: string,
  expected: {
    issuer: string;
    jwksUri: string;
    clientId: string;
    nonce: string;
    algorithms?: string[];
  },
): Promise<JWTPayload> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, keySetOf(env, expected.jwksUri), {
      issuer: expected.issuer,
      audience: expected.clientId,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ['sub', 'exp', 'iat'],
      algorithms: expected.algorithms?.filter((a) => a !== 'none' && !a.startsWith('HS')),
    }));
  } catch (err) {
    const kind = err instanceof joseErrors.JOSEError ? err.code : 'ERR_UNKNOWN';
    throw new SsoSignInError('token', `ID token refused (${kind}): ${(err as Error).message}`);
  }
  // With several audiences the token must name us as its authorized party (Core 3.1.3.7 rule 4-5).
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== expected.clientId) {
    throw new SsoSignInError('token', 'ID token azp is not this client');
  }
  if (payload.nonce !== expected.nonce) throw new SsoSignInError('token', 'ID token nonce does not match');
  return payload;
}

/** The identity the PIM takes from the claims (the ID token's, completed from userinfo). */
function identityOf(payload: JWTPayload, groupsClaim: string): VerifiedIdentity {
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
    throw new SsoSignInError('no-email', 'neither the ID token nor userinfo has an e-mail address');
  }
  if (payload.email_verified === false) throw new SsoSignInError('no-email', 'the e-mail address is not verified');
  const rawGroups = payload[groupsClaim];
  const groups = (Array.isArray(rawGroups) ? rawGroups : typeof rawGroups === 'string' ? [rawGroups] : []).filter(
    (g): g is string => typeof g === 'string',
  );
  const name = typeof payload.name === 'string' ? payload.name.trim().slice(0, 200) : '';
  return { subject: payload.sub!, email, name: name || email, groups };
}
