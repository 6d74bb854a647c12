import type { JWTPayload } from 'jose';
import { type IssuerEnv, issuerFetch } from './issuer';
import { SsoSignInError } from './sso-errors';

/** Most groups taken from a claim source (Entra answers at most 11,000 from getMemberObjects). */
const MAX_GROUPS = 11_000;
/** Largest answer read from a claim source (11,000 object ids are about 450 KB). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Groups delivered as a distributed claim (OpenID Connect Core 5.6.2), as Microsoft Entra ID does
 * for a user in more than 200 groups ("group overage"): instead of the groups claim the ID token
 * carries `_claim_names: {groups: "src1"}` and `_claim_sources: {src1: {endpoint, access_token?}}`.
 * The PIM fetches the groups from that endpoint with the source's own access token, else the
 * sign-in's, through the identity provider fetch (SSRF rule, https, no redirect, time limit):
 * a Microsoft Graph `getMemberObjects` / `getMemberGroups` endpoint is POSTed
 * `{"securityEnabledOnly": false}` and answers `{value: [object ids]}` (the legacy
 * `graph.windows.net` endpoint Entra still names is called at Microsoft Graph, its successor); any
 * other endpoint is read with GET and must answer a JSON object with the claim, or a Graph
 * collection (memberOf: `{value: [{id}]}`). A Graph answer's `@odata.nextLink` is followed with
 * GET, at the source's origin only, under the same fetch rules, at most MAX_GROUP_PAGES pages and
 * MAX_GROUPS groups in all. A claim source
 * that cannot be read refuses the sign-in (reason `groups`): signing in with no groups could
 * give the default role to an administrator of the provider. Claims without a distributed groups
 * claim are answered as they are.
 */
export async function withDistributedGroups(
  env: IssuerEnv,
  claims: JWTPayload,
  groupsClaim: string,
  accessToken: string | undefined,
): Promise<JWTPayload> {
  if (claims[groupsClaim] !== undefined) return claims;
  const names = claims._claim_names as Record<string, unknown> | undefined;
  const sourceName = names && typeof names === 'object' ? names[groupsClaim] : undefined;
  if (typeof sourceName !== 'string') return claims;
  const sources = claims._claim_sources as Record<string, unknown> | undefined;
  const source = sources && typeof sources === 'object' ? sources[sourceName] : undefined;
  if (!source || typeof source !== 'object') {
    throw new SsoSignInError(
      'groups',
      `the ID token names claim source "${sourceName}" for the groups but not where it is`,
    );
  }
  const { endpoint, access_token: sourceToken } = source as { endpoint?: unknown; access_token?: unknown };
  if (typeof endpoint !== 'string') {
    // an aggregated claim (a JWT signed by another issuer) is not taken: the PIM has no key for it
    throw new SsoSignInError('groups', 'the groups are an aggregated claim, which the PIM does not read');
  }
  const token = typeof sourceToken === 'string' ? sourceToken : accessToken;
  if (!token) throw new SsoSignInError('groups', 'the groups claim source needs an access token and none was issued');
  const groups = await fetchGroups(env, graphEndpoint(endpoint), token, groupsClaim);
  return { ...claims, [groupsClaim]: groups };
}

/** Entra's legacy Azure AD Graph endpoint, called at Microsoft Graph (same path shape, v1.0). */
export function graphEndpoint(endpoint: string): { url: string; memberObjects: boolean } {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new SsoSignInError('groups', 'the groups claim source is not a URL');
  }
  const memberObjects = /\/(getMemberObjects|getMemberGroups)$/i.test(url.pathname);
  if (url.hostname === 'graph.windows.net' && memberObjects) {
    // https://graph.windows.net/{tenant}/users/{oid}/getMemberObjects -> .../v1.0/users/{oid}/getMemberObjects
    const user = /\/users\/([^/]+)\/(getMemberObjects|getMemberGroups)$/i.exec(url.pathname);
    if (user) return { url: `https://graph.microsoft.com/v1.0/users/${user[1]}/${user[2]}`, memberObjects };
  }
  return { url: url.toString(), memberObjects };
}

/**
 * Most pages followed through `@odata.nextLink`: Graph's memberOf answers 100 entries a page by
 * default, so 11,000 groups are 110 pages; a source that pages on past this is refused.
 */
export const MAX_GROUP_PAGES = 120;

async function fetchGroups(
  env: IssuerEnv,
  target: { url: string; memberObjects: boolean },
  token: string,
  groupsClaim: string,
): Promise<string[]> {
  const groups: string[] = [];
  const origin = new URL(target.url).origin;
  let next: string | null = target.url;
  for (let page = 0; next !== null; page++) {
    if (page === MAX_GROUP_PAGES)
      throw new SsoSignInError('groups', `the groups claim source pages on past ${MAX_GROUP_PAGES} pages`);
    // Graph's next page is read with GET (its link carries the paging state), even after a POST.
    const body = await fetchPage(env, next, token, target.memberObjects && page === 0);
    const { list, nextLink } = pageOf(body, groupsClaim, target.memberObjects);
    groups.push(...list);
    if (groups.length > MAX_GROUPS) throw new SsoSignInError('groups', `more than ${MAX_GROUPS} groups`);
    next = nextLink === undefined || nextLink === null ? null : nextPage(nextLink, origin);
  }
  return groups;
}

/**
 * The next page's URL: only at the source's own origin (the access token goes with it), and
 * through the same identity provider fetch (SSRF rule, https, no redirect, time limit).
 */
function nextPage(link: unknown, origin: string): string {
  let url: URL;
  try {
    url = new URL(String(link));
  } catch {
    throw new SsoSignInError('groups', 'the groups claim source named a next page that is not a URL');
  }
  if (typeof link !== 'string' || url.origin !== origin)
    throw new SsoSignInError('groups', 'the groups claim source named a next page at another address');
  return url.toString();
}

async function fetchPage(env: IssuerEnv, url: string, token: string, post: boolean): Promise<unknown> {
  let response: Response;
  try {
    response = await issuerFetch(env)(
      url,
      post
        ? {
            method: 'POST',
            headers: {
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              Accept: 'application/json',
            },
            body: JSON.stringify({ securityEnabledOnly: false }),
          }
        : { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } },
    );
  } catch (err) {
    throw new SsoSignInError('groups', `the groups claim source could not be read: ${(err as Error).message}`);
  }
  const type = (response.headers.get('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  const length = Number(response.headers.get('Content-Length') ?? '0');
  if (response.status !== 200 || !type.includes('json') || length > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new SsoSignInError('groups', `the groups claim source answered ${response.status} ${type}`);
  }
  const text = await response.text();
  if (text.length > MAX_ANSWER_BYTES) throw new SsoSignInError('groups', 'the groups claim source answered too much');
  try {
    return JSON.parse(text);
  } catch {
    throw new SsoSignInError('groups', 'the groups claim source did not answer JSON');
  }
}

/**
 * One page's groups and its `@odata.nextLink`: getMemberObjects answers `{value: [ids]}`, a
 * Graph collection such as memberOf `{value: [{id, ...}]}`, another source `{<claim>: [...]}`.
 */
function pageOf(body: unknown, groupsClaim: string, memberObjects: boolean): { list: string[]; nextLink: unknown } {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const graph = memberObjects || (record[groupsClaim] === undefined && Array.isArray(record.value));
  const raw = graph ? record.value : record[groupsClaim];
  const list = Array.isArray(raw)
    ? raw.map((g) =>
        typeof g === 'string'
          ? g
          : graph && g && typeof g === 'object' && typeof (g as { id?: unknown }).id === 'string'
            ? (g as { id: string }).id
            : null,
      )
    : null;
  if (!list || list.some((g) => g === null)) {
    throw new SsoSignInError('groups', 'the groups claim source did not answer a list of groups');
  }
  return { list: list as string[], nextLink: graph ? record['@odata.nextLink'] : undefined };
}
