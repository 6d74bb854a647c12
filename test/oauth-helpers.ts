/**
 * Helpers for the OAuth tests in the Workers pool: a client that registers, runs the
 * authorization-code flow with PKCE S256 through the real consent page, and calls the agent
 * surface. The origin is https (OAuth 2.1 refuses plain http off loopback).
 */
import { env, exports } from 'cloudflare:workers';
import { expect } from 'vitest';
import { db, makeCompany, makeUser } from './helpers/factories';
import { loginAs } from './helpers/http';
import { memberships } from '../src/db/schema';

export const ORIGIN = 'https://pim.test';
export const MCP_RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT_URI = 'https://agent.example/callback';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One request to the Worker; `form` is sent url-encoded, `json` as JSON. */
export async function send(
  method: string,
  path: string,
  options: {
    form?: Record<string, string | string[]>;
    json?: unknown;
    headers?: Record<string, string>;
    cookie?: string;
    token?: string;
    origin?: string;
  } = {},
): Promise<Reply> {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (options.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options.form)) for (const item of [v].flat()) params.append(k, item);
    body = params.toString();
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('Content-Type', 'application/json');
  }
  if (options.cookie) headers.set('Cookie', options.cookie);
  if (options.token) headers.set('Authorization', `Bearer ${options.token}`);
  const response = await exports.default.fetch(
    new Request(`${options.origin ?? ORIGIN}${path}`, { method, headers, body, redirect: 'manual' }),
  );
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** `name=value` pairs of a response's Set-Cookie headers, ready for a Cookie header. */
export function cookiesOf(headers: Headers): string[] {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .filter((c) => !c.endsWith('='));
}

/** A fresh IP per registration, so the 5-per-hour limit of one test does not touch another. */
export const randomIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

export async function registerClient(metadata: Record<string, unknown> = {}) {
  const res = await send('POST', '/connect/register', {
    json: { client_name: 'Test Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', ...metadata },
    headers: { 'CF-Connecting-IP': randomIp() },
  });
  expect(res.status, res.text).toBe(201);
  return res.json as { client_id: string; client_secret?: string };
}

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export async function pkcePair() {
  const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
}

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'api mcp offline_access',
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: MCP_RESOURCE,
    ...extra,
  }).toString();
}

/** Opens the consent page as the signed-in user and returns what its form needs. */
export async function openConsent(session: string, query: string) {
  const page = await send('GET', `/connect/authorize?${query}`, { cookie: session });
  expect(page.status, page.text).toBe(200);
  const handle = /name="handle" value="([^"]+)"/.exec(page.text)?.[1];
  const userId = /name="userId" value="([^"]+)"/.exec(page.text)?.[1];
  expect(handle).toBeTruthy();
  return { page, handle: handle!, userId: userId!, cookies: [session, ...cookiesOf(page.headers)].join('; ') };
}

/** Approves on the consent page and returns the client's redirect (code, state, iss). */
export async function approve(session: string, query: string, scope?: string[]) {
  const consent = await openConsent(session, query);
  const res = await send('POST', '/connect/authorize', {
    cookie: consent.cookies,
    headers: { Origin: ORIGIN },
    form: {
      handle: consent.handle,
      userId: consent.userId,
      decision: 'approve',
      scope: scope ?? new URLSearchParams(query).get('scope')!.split(' '),
    },
  });
  expect(res.status, res.text).toBe(302);
  return new URL(res.headers.get('Location')!);
}

export async function exchangeCode(
  clientId: string,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return send('POST', '/connect/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      resource: MCP_RESOURCE,
      ...extra,
    },
  });
}

export async function refresh(clientId: string, refreshToken: string, extra: Record<string, string> = {}) {
  return send('POST', '/connect/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId, ...extra },
  });
}

/** A user with a web session, in a company of their own. */
export async function makeAgentUser(options: { role?: 'admin' | 'editor'; aiSwitch?: boolean } = {}) {
  const company = await makeCompany();
  const user = await makeUser(company, { aiSwitch: options.aiSwitch ?? true, role: options.role });
  return { ...user, session: await loginAs(user.email) };
}

/** Adds a second company membership (docs/spec.md 5.2 rule 2 refuses such accounts). */
export async function joinSecondCompany(userId: string) {
  const other = await makeCompany();
  await db()
    .insert(memberships)
    .values({ userId, companyId: other.companyId, role: 'editor', defaultDepartmentId: other.departmentId });
  return other;
}

/** Registers a public client and runs the whole flow as `user`: the token response. */
export async function tokensFor(user: { session: string }, options: { scope?: string; clientName?: string } = {}) {
  const client = await registerClient(options.clientName ? { client_name: options.clientName } : {});
  const { verifier, challenge } = await pkcePair();
  const query = authorizeQuery(client.client_id, challenge, options.scope ? { scope: options.scope } : {});
  const redirect = await approve(user.session, query);
  const res = await exchangeCode(client.client_id, redirect.searchParams.get('code')!, verifier);
  expect(res.status, res.text).toBe(200);
  return {
    ...(res.json as { access_token: string; refresh_token?: string; scope: string; expires_in: number }),
    clientId: client.client_id,
  };
}

export { env };
