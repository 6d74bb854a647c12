import { eq } from 'drizzle-orm';
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { nowIso } from '../../db/client';
import { ssoSettings } from '../../db/schema';
import { AppError, badRequest } from '../../kernel/app-error';
import { allowsPrivateTargets, refusedUrlReason } from '../../sync/protocol/url-guard';

/** How long a fetched discovery document is used before it is fetched again. */
export const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const FETCH_TIMEOUT_MS = 8000;
/** Seconds of clock difference allowed on the times of every token a provider signs. */
export const CLOCK_TOLERANCE_S = 60;

/** What the PIM reads of an issuer's `/.well-known/openid-configuration`. */
export const Discovery = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  end_session_endpoint: z.url().optional(),
  userinfo_endpoint: z.url().optional(),
});
export type Discovery = z.infer<typeof Discovery>;

/** The Worker var that lets issuers on private or loopback addresses be fetched (development and tests only). */
export interface IssuerEnv {
  ALLOW_PRIVATE_TARGETS?: string;
}

/** Why an issuer-side URL may not be fetched, or null (the SSRF rule of src/sync/protocol/url-guard.ts). */
export function refusedIssuerUrl(url: string, env: IssuerEnv): string | null {
  const allowPrivate = allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS);
  const reason = refusedUrlReason(url, allowPrivate);
  if (reason) return reason;
  // OpenID Connect requires TLS; plain http only where private addresses are allowed (local trials).
  if (!allowPrivate && new URL(url).protocol !== 'https:') return 'the URL must use https';
  return null;
}

/**
 * `fetch` for every request to an identity provider: the SSRF rule on the URL, no redirects
 * (a redirect could lead inward), and a time limit.
 */
export function issuerFetch(env: IssuerEnv) {
  return async (url: string, init: RequestInit = {}): Promise<Response> => {
    const refused = refusedIssuerUrl(url, env);
    if (refused) throw badRequest(`the identity provider's URL is refused: ${refused}`);
    return fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  };
}

/** Fetches and checks an issuer's discovery document (OpenID Connect Discovery 1.0, section 4). */
export async function fetchDiscovery(env: IssuerEnv, issuer: string): Promise<Discovery> {
  const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await issuerFetch(env)(url, { headers: { Accept: 'application/json' } });
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreachable();
  }
  if (response.status !== 200) throw unreachable();
  const parsed = Discovery.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw badRequest("the identity provider's discovery document is not valid OpenID Connect");
  // Discovery section 4.3: the document must name exactly the issuer it was fetched for.
  if (parsed.data.issuer !== issuer) {
    throw badRequest(`the identity provider names itself "${parsed.data.issuer}", not the issuer entered`);
  }
  const { authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint, end_session_endpoint } = parsed.data;
  for (const endpoint of [authorization_endpoint, token_endpoint, jwks_uri, userinfo_endpoint, end_session_endpoint]) {
    if (endpoint === undefined) continue;
    const refused = refusedIssuerUrl(endpoint, env);
    if (refused) throw badRequest(`the identity provider's endpoint ${endpoint} is refused: ${refused}`);
  }
  return parsed.data;
}

const unreachable = () =>
  badRequest("the identity provider's discovery document (/.well-known/openid-configuration) could not be fetched");

/** The company's discovery document: the cached one while it is fresh, else fetched and stored. */
export async function discoveryOf(
  db: Database,
  env: IssuerEnv,
  settings: { companyId: string; issuer: string; discovery: unknown; discoveryFetchedAt: string | null },
): Promise<Discovery> {
  const cached = Discovery.safeParse(settings.discovery);
  const age = settings.discoveryFetchedAt ? Date.now() - Date.parse(settings.discoveryFetchedAt) : Infinity;
  if (cached.success && cached.data.issuer === settings.issuer && age < DISCOVERY_TTL_MS) return cached.data;
  const fresh = await fetchDiscovery(env, settings.issuer);
  await db
    .update(ssoSettings)
    .set({ discovery: fresh, discoveryFetchedAt: nowIso() })
    .where(eq(ssoSettings.companyId, settings.companyId));
  return fresh;
}

/**
 * One key set per JWKS URL per isolate: jose caches the keys (10 minutes) and refetches on an
 * unknown `kid`, so a key rotation at the provider is picked up at the next sign-in.
 */
const keySets = new Map<string, JWTVerifyGetKey>();

export function keySetOf(env: IssuerEnv, jwksUri: string): JWTVerifyGetKey {
  const key = `${allowsPrivateTargets(env.ALLOW_PRIVATE_TARGETS)}|${jwksUri}`;
  let keySet = keySets.get(key);
  if (!keySet) {
    const guarded = issuerFetch(env);
    keySet = createRemoteJWKSet(new URL(jwksUri), {
      [customFetch]: (url: string, options: RequestInit) => guarded(url, options),
    });
    keySets.set(key, keySet);
  }
  return keySet;
}
