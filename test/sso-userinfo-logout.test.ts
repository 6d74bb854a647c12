import { exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { graphEndpoint, MAX_GROUP_PAGES } from '../src/accounts/sso/group-overage';
import { sessions, users } from '../src/db/schema';
import { sha256Hex } from '../src/kernel/hashing';
import { db, makeCompany, makeUser, memberOf } from './helpers/factories';
import { call, loginAs, ORIGIN } from './helpers/http';

/**
 * Claims from the userinfo endpoint and the sign-out at the provider (docs/sso.md), against an
 * identity provider played by a fetch mock as in test/sso.test.ts, here with a
 * `userinfo_endpoint` and an `end_session_endpoint`. The token endpoint answers the ID token the
 * test hands it for the code and the access token `at-<code>`; userinfo answers what the test
 * put under that access token.
 */
const ISSUER = 'https://idp-userinfo.test';
const CLIENT_ID = 'pim-client-2';

let signingKey: CryptoKey;
let jwks: { keys: unknown[] };
const tokensByCode = new Map<string, string>();
const userinfoByToken = new Map<string, Record<string, unknown>>();
/** Userinfo answered as a signed JWT (`application/jwt`) instead of JSON, by access token. */
const signedUserinfoByToken = new Map<string, string>();
const userinfoRequests: string[] = [];
/** Group-overage claim sources (`/claims/...` at the issuer's origin): what each answers, and the requests made. */
const claimSourceAnswers = new Map<string, { status: number; body?: unknown }>();
const claimSourceRequests: { method: string; path: string; token: string; body: string }[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'u1', alg: 'RS256', use: 'sig' }] };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== ISSUER) return realFetch(input, init);
    if (url.pathname === '/.well-known/openid-configuration')
      return Response.json({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/authorize`,
        token_endpoint: `${ISSUER}/token`,
        jwks_uri: `${ISSUER}/jwks`,
        userinfo_endpoint: `${ISSUER}/userinfo`,
        end_session_endpoint: `${ISSUER}/logout?realm=pim`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    if (url.pathname === '/jwks') return Response.json(jwks);
    if (url.pathname.startsWith('/claims/')) {
      const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      claimSourceRequests.push({
        method: request.method,
        path: url.pathname,
        token,
        body: request.method === 'POST' ? await request.text() : '',
      });
      const answer = claimSourceAnswers.get(url.pathname);
      if (!answer) return new Response('not found', { status: 404 });
      return answer.status === 200
        ? Response.json(answer.body)
        : Response.json({ error: { code: 'Authorization_RequestDenied' } }, { status: answer.status });
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const code = new URLSearchParams(await request.text()).get('code') ?? '';
      const idToken = tokensByCode.get(code);
      if (!idToken) return Response.json({ error: 'invalid_grant' }, { status: 400 });
      return Response.json({ access_token: `at-${code}`, token_type: 'Bearer', id_token: idToken });
    }
    if (url.pathname === '/userinfo') {
      const token = (request.headers.get('Authorization') ?? '').replace(/^Bearer /, '');
      userinfoRequests.push(token);
      const signed = signedUserinfoByToken.get(token);
      if (signed) return new Response(signed, { headers: { 'Content-Type': 'application/jwt; charset=utf-8' } });
      const info = userinfoByToken.get(token);
      return info ? Response.json(info) : Response.json({ error: 'invalid_token' }, { status: 401 });
    }
    return new Response('not found', { status: 404 });
  });
});

afterAll(() => vi.restoreAllMocks());

/** An ID token with only the claims given beside the required ones. */
const idToken = (nonce: string, sub: string, claims: Record<string, unknown> = {}, audience = CLIENT_ID) =>
  new SignJWT({ nonce, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'u1' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signingKey);

async function ssoCompany(clientId = CLIENT_ID) {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  const cookie = await loginAs(admin.email);
  const slug = `ui-${company.companyId.slice(-8)}`;
  const res = await call('POST', '/api/Account/SetSsoSettings', {
    cookie,
    body: {
      slug,
      issuer: ISSUER,
      clientId,
      clientSecret: 'secret-of-the-second-idp',
      groupRoles: [{ group: 'pim-editors', role: 'editor' }],
      defaultRole: null,
      mandatory: false,
    },
  });
  expect(res.status, res.text).toBe(200);
  return { ...company, admin, cookie, slug };
}

/** The round trip: SsoStart, the provider's redirect with a code whose ID token `make` builds and whose userinfo is `info`. */
async function signIn(slug: string, make: (nonce: string) => Promise<string>, info?: Record<string, unknown>) {
  const started = await call('POST', '/api/Account/SsoStart', { body: { slug } });
  expect(started.status, started.text).toBe(200);
  const url = new URL(started.json.redirectUrl);
  const browser = started.headers.get('Set-Cookie')!.split(';')[0]!;
  const code = crypto.randomUUID();
  const token = await make(url.searchParams.get('nonce')!);
  tokensByCode.set(code, token);
  if (info) userinfoByToken.set(`at-${code}`, info);
  const res = await exports.default.fetch(
    new Request(
      `${ORIGIN}/api/Account/SsoCallback?${new URLSearchParams({ state: url.searchParams.get('state')!, code })}`,
      {
        headers: { Cookie: browser },
        redirect: 'manual',
      },
    ),
  );
  await res.text();
  const session = /Service\.Cookie=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1];
  return {
    location: res.headers.get('Location') ?? '',
    cookie: session ? `Service.Cookie=${session}` : undefined,
    code,
    token,
  };
}

describe('SSO: claims from the userinfo endpoint', () => {
  it('reads the e-mail and groups from userinfo when the ID token has neither, with the access token of the exchange', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `ui-${sub.slice(0, 8)}@example.com`;
    const result = await signIn(co.slug, (nonce) => idToken(nonce, sub, { name: 'Userinfo User' }), {
      sub,
      email,
      email_verified: true,
      groups: ['pim-editors'],
    });
    expect(result.location).toBe('/');
    expect(userinfoRequests.at(-1)).toBe(`at-${result.code}`);
    expect(await memberOf(co.companyId, email)).toMatchObject({ role: 'editor' });
    const me = await call('GET', '/api/Account/Me', { cookie: result.cookie });
    expect(me.status, me.text).toBe(200);
    expect(me.json.user).toMatchObject({ email, name: 'Userinfo User' });
  });

  it('refuses a userinfo answer whose sub is not the ID token sub, and creates nobody', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `sub-${sub.slice(0, 8)}@example.com`;
    const result = await signIn(co.slug, (nonce) => idToken(nonce, sub), {
      sub: crypto.randomUUID(),
      email,
      groups: ['pim-editors'],
    });
    expect(result.location).toBe('/?ssoError=token');
    expect(result.cookie).toBeUndefined();
    expect(await db().query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
  });

  it('keeps the ID token values and does not call userinfo when the ID token has them; a userinfo without e-mail is no-email', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `id-${sub.slice(0, 8)}@example.com`;
    const before = userinfoRequests.length;
    const result = await signIn(co.slug, (nonce) => idToken(nonce, sub, { email, groups: ['pim-editors'] }));
    expect(result.location).toBe('/');
    expect(userinfoRequests.length).toBe(before);

    const other = crypto.randomUUID();
    const refused = await signIn(co.slug, (nonce) => idToken(nonce, other, { groups: ['pim-editors'] }), {
      sub: other,
    });
    expect(refused.location).toBe('/?ssoError=no-email');
    expect(userinfoRequests.length).toBe(before + 1);
  });
});

describe('SSO: a signed userinfo answer (application/jwt)', () => {
  /** Userinfo claims signed as the provider does for a client registered for signed answers. */
  const signedInfo = (claims: Record<string, unknown>, opts: { audience?: string; key?: CryptoKey } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'u1' })
      .setIssuer(ISSUER)
      .setAudience(opts.audience ?? CLIENT_ID)
      .setIssuedAt()
      .sign(opts.key ?? signingKey);

  /** A sign-in whose userinfo answer is the JWT `signed` builds for the sub. */
  async function signInSigned(slug: string, sub: string, signed: () => Promise<string>) {
    const started = await call('POST', '/api/Account/SsoStart', { body: { slug } });
    const url = new URL(started.json.redirectUrl);
    const browser = started.headers.get('Set-Cookie')!.split(';')[0]!;
    const code = crypto.randomUUID();
    tokensByCode.set(code, await idToken(url.searchParams.get('nonce')!, sub));
    signedUserinfoByToken.set(`at-${code}`, await signed());
    const res = await exports.default.fetch(
      new Request(
        `${ORIGIN}/api/Account/SsoCallback?${new URLSearchParams({ state: url.searchParams.get('state')!, code })}`,
        { headers: { Cookie: browser }, redirect: 'manual' },
      ),
    );
    await res.text();
    return { location: res.headers.get('Location') ?? '', setCookie: res.headers.get('Set-Cookie') ?? '' };
  }

  it('verifies the signature through the JWKS and reads the e-mail and groups from it', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `sig-${sub.slice(0, 8)}@example.com`;
    const result = await signInSigned(co.slug, sub, () =>
      signedInfo({ sub, email, email_verified: true, groups: ['pim-editors'] }),
    );
    expect(result.location).toBe('/');
    expect(await memberOf(co.companyId, email)).toMatchObject({ role: 'editor' });
  });

  it('refuses an answer for another audience, signed by a key not in the JWKS, or encrypted; creates nobody', async () => {
    const co = await ssoCompany();
    const stranger = (await generateKeyPair('RS256')).privateKey;
    const cases: [string, (sub: string, email: string) => Promise<string>][] = [
      [
        'another audience',
        (sub, email) => signedInfo({ sub, email, groups: ['pim-editors'] }, { audience: 'other-client' }),
      ],
      ['a foreign key', (sub, email) => signedInfo({ sub, email, groups: ['pim-editors'] }, { key: stranger })],
      // five dot-separated parts: the compact form of a JWE, which the PIM cannot decrypt
      ['encrypted', async () => 'eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d'],
    ];
    for (const [label, make] of cases) {
      const sub = crypto.randomUUID();
      const email = `bad-${sub.slice(0, 8)}@example.com`;
      const result = await signInSigned(co.slug, sub, () => make(sub, email));
      expect(result.location, label).toBe('/?ssoError=token');
      expect(result.setCookie, label).not.toMatch(/Service\.Cookie=[^;]/);
      expect(await db().query.users.findFirst({ where: eq(users.email, email) }), label).toBeUndefined();
    }
  });
});

describe('SSO: sign-out at the provider (RP-initiated logout)', () => {
  it('answers the end_session_endpoint with id_token_hint, client_id and post_logout_redirect_uri, and ends the session', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `out-${sub.slice(0, 8)}@example.com`;
    const result = await signIn(co.slug, (nonce) => idToken(nonce, sub, { email, groups: ['pim-editors'] }));
    expect(result.cookie).toBeDefined();
    const tokenHash = await sha256Hex(result.cookie!.split('=')[1]!);
    const [row] = await db().select().from(sessions).where(eq(sessions.tokenHash, tokenHash));
    // kept sealed, never in the clear
    expect(row!.ssoIdToken).toMatch(/^v1\./);
    expect(row!.ssoIdToken).not.toContain(result.token.split('.')[1]!);

    const out = await call('POST', '/api/Account/Logout', { cookie: result.cookie });
    expect(out.status, out.text).toBe(200);
    const url = new URL(out.json.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${ISSUER}/logout`);
    expect(url.searchParams.get('realm')).toBe('pim');
    expect(url.searchParams.get('id_token_hint')).toBe(result.token);
    expect(url.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${ORIGIN}/`);
    expect(await db().select().from(sessions).where(eq(sessions.tokenHash, tokenHash))).toEqual([]);
    expect((await call('GET', '/api/Account/Me', { cookie: result.cookie })).status).toBe(401);
    // signing out again (the session is gone) sends nowhere
    const again = await call('POST', '/api/Account/Logout', { cookie: result.cookie });
    expect(again.json).toEqual({ ok: true });
  });

  it('answers no provider URL for a password session of the same company', async () => {
    const co = await ssoCompany();
    const out = await call('POST', '/api/Account/Logout', { cookie: co.cookie });
    expect(out.status, out.text).toBe(200);
    expect(out.json).toEqual({ ok: true });
  });
});

describe('SSO: back-channel logout (the provider ends the PIM sessions)', () => {
  const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
  /** A logout token as a provider sends it; `claims` may override or remove (undefined) any claim. */
  const logoutToken = (
    claims: Record<string, unknown>,
    opts: { audience?: string; key?: CryptoKey; iat?: number; jti?: string } = {},
  ) =>
    new SignJWT({ events: { [EVENT]: {} }, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'u1', typ: 'logout+jwt' })
      .setIssuer(ISSUER)
      .setAudience(opts.audience ?? CLIENT_ID)
      .setIssuedAt(opts.iat)
      .setJti(opts.jti ?? crypto.randomUUID())
      .sign(opts.key ?? signingKey);

  const post = async (body: BodyInit, type = 'application/x-www-form-urlencoded') => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Account/SsoBackchannelLogout`, {
        method: 'POST',
        headers: { 'Content-Type': type },
        body,
      }),
    );
    return { status: res.status, text: await res.text(), cacheControl: res.headers.get('Cache-Control') };
  };
  const send = async (token: string) => post(new URLSearchParams({ logout_token: token }));
  const alive = async (cookie: string | undefined) => (await call('GET', '/api/Account/Me', { cookie })).status === 200;

  /** A member signed in twice through SSO (two sessions at the provider: sid-a, sid-b). */
  async function twoSessions(co: { slug: string }) {
    const sub = crypto.randomUUID();
    const email = `bc-${sub.slice(0, 8)}@example.com`;
    const claims = { email, groups: ['pim-editors'] };
    const a = await signIn(co.slug, (nonce) => idToken(nonce, sub, { ...claims, sid: `sid-a-${sub}` }));
    const b = await signIn(co.slug, (nonce) => idToken(nonce, sub, { ...claims, sid: `sid-b-${sub}` }));
    expect(await alive(a.cookie)).toBe(true);
    expect(await alive(b.cookie)).toBe(true);
    return { sub, a: a.cookie, b: b.cookie };
  }

  it('ends the session of the sid the token names, answers 200 no-store, and refuses a replay', async () => {
    const co = await ssoCompany();
    const { sub, a, b } = await twoSessions(co);
    const token = await logoutToken({ sub, sid: `sid-a-${sub}` });
    const res = await send(token);
    expect(res.status, res.text).toBe(200);
    expect(res.cacheControl).toBe('no-store');
    expect(await alive(a)).toBe(false);
    expect(await alive(b)).toBe(true);

    const replay = await send(token);
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.text)).toMatchObject({ error: 'invalid_request' });
    expect(await alive(b)).toBe(true);
  });

  it("ends every SSO session of the token's sub and nothing else: other members, password sessions, other clients", async () => {
    const co = await ssoCompany();
    const { sub, a, b } = await twoSessions(co);
    const other = await twoSessions(co);
    const password = await loginAs(co.admin.email);
    // the same subject in a company that registered another client of the provider
    const elsewhere = await ssoCompany('another-client');
    const foreign = await signIn(elsewhere.slug, (nonce) =>
      idToken(nonce, sub, { email: `bc2-${sub.slice(0, 8)}@example.com`, groups: ['pim-editors'] }, 'another-client'),
    );
    expect(await alive(foreign.cookie)).toBe(true);

    const res = await send(await logoutToken({ sub }));
    expect(res.status, res.text).toBe(200);
    expect(await alive(a)).toBe(false);
    expect(await alive(b)).toBe(false);
    expect(await alive(other.a)).toBe(true);
    expect(await alive(password)).toBe(true);
    expect(await alive(foreign.cookie)).toBe(true);
  });

  it('refuses a token that is not a valid logout token with 400 invalid_request, and ends nothing', async () => {
    const co = await ssoCompany();
    const { sub, a } = await twoSessions(co);
    const stranger = (await generateKeyPair('RS256')).privateKey;
    const cases: [string, () => Promise<{ status: number; text: string }>][] = [
      ['unknown audience', async () => send(await logoutToken({ sub }, { audience: 'nobody' }))],
      ['foreign key', async () => send(await logoutToken({ sub }, { key: stranger }))],
      ['an ID token (nonce)', async () => send(await logoutToken({ sub, nonce: 'n' }))],
      ['no logout event', async () => send(await logoutToken({ sub, events: undefined }))],
      ['another event', async () => send(await logoutToken({ sub, events: { 'urn:other': {} } }))],
      ['neither sub nor sid', async () => send(await logoutToken({}))],
      [
        'issued an hour ago',
        async () => send(await logoutToken({ sub }, { iat: Math.floor(Date.now() / 1000) - 3600 })),
      ],
      ['not a JWT', async () => send('not-a-token')],
      ['no logout_token', async () => post(new URLSearchParams({ token: 'x' }))],
      ['JSON instead of a form', async () => post(JSON.stringify({ logout_token: 'x' }), 'application/json')],
    ];
    for (const [label, run] of cases) {
      const res = await run();
      expect(res.status, label).toBe(400);
      expect(JSON.parse(res.text), label).toMatchObject({ error: 'invalid_request' });
      expect(res.text, label).not.toMatch(/select|sqlite|stack/i);
    }
    expect(await alive(a)).toBe(true);
  });
});

describe('SSO: front-channel logout (the provider loads the PIM in an iframe)', () => {
  const frontchannel = async (query: Record<string, string>) => {
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Account/SsoFrontchannelLogout?${new URLSearchParams(query)}`),
    );
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  const alive = async (cookie: string | undefined) => (await call('GET', '/api/Account/Me', { cookie })).status === 200;

  async function twoSessions(co: { slug: string }) {
    const sub = crypto.randomUUID();
    const claims = { email: `fc-${sub.slice(0, 8)}@example.com`, groups: ['pim-editors'] };
    const a = await signIn(co.slug, (nonce) => idToken(nonce, sub, { ...claims, sid: `fc-a-${sub}` }));
    const b = await signIn(co.slug, (nonce) => idToken(nonce, sub, { ...claims, sid: `fc-b-${sub}` }));
    expect(await alive(a.cookie)).toBe(true);
    expect(await alive(b.cookie)).toBe(true);
    return { sub, a: a.cookie, b: b.cookie };
  }

  it('ends the sessions of the sid, uncached, framable by the provider only', async () => {
    const co = await ssoCompany();
    const { sub, a, b } = await twoSessions(co);
    const res = await frontchannel({ iss: ISSUER, sid: `fc-a-${sub}` });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.headers.get('Cache-Control')).toBe('no-cache, no-store');
    expect(res.headers.get('Pragma')).toBe('no-cache');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    expect(csp).toMatch(/frame-ancestors https:\/\/idp-userinfo\.test(;|$)/);
    expect(csp).toContain("default-src 'none'");
    expect(res.headers.get('X-Frame-Options')).toBeNull();
    expect(await alive(a)).toBe(false);
    expect(await alive(b)).toBe(true);
    // a password session of the same company is not an SSO session of any sid
    expect(await alive(co.cookie)).toBe(true);
  });

  it('refuses a request without iss or sid, or of an issuer no company registered, framable by no one, and ends nothing', async () => {
    const co = await ssoCompany();
    const { sub, a } = await twoSessions(co);
    const refused: Record<string, string>[] = [
      { sid: `fc-a-${sub}` },
      { iss: ISSUER },
      { iss: 'https://idp-unknown.test', sid: `fc-a-${sub}` },
    ];
    for (const query of refused) {
      const res = await frontchannel(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(JSON.parse(res.text).error).toMatch(/iss and sid are required|no company signs in with this issuer/);
      expect(res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('Cache-Control')).toBe('no-cache, no-store');
    }
    expect(await alive(a)).toBe(true);
    // a sid nobody holds: 200, nothing ended
    expect((await frontchannel({ iss: ISSUER, sid: 'fc-nobody' })).status).toBe(200);
    expect(await alive(a)).toBe(true);
  });

  it('is advertised by GetSsoSettings beside the back-channel URI', async () => {
    const co = await ssoCompany();
    const res = await call('GET', '/api/Account/GetSsoSettings', { cookie: co.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.json.frontchannelLogoutUri).toBe(`${ORIGIN}/api/Account/SsoFrontchannelLogout`);
    expect(res.json.backchannelLogoutUri).toBe(`${ORIGIN}/api/Account/SsoBackchannelLogout`);
  });
});

describe('SSO: group overage (groups as a distributed claim, as Entra ID sends for more than 200 groups)', () => {
  const overage = (endpoint: string, extra: Record<string, unknown> = {}) => ({
    _claim_names: { groups: 'src1' },
    _claim_sources: { src1: { endpoint, ...extra } },
  });
  const many = Array.from({ length: 250 }, (_, i) => `group-${i}`);

  it("POSTs getMemberObjects with the sign-in's access token and maps the groups it answers", async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `ov-${sub.slice(0, 8)}@example.com`;
    const path = `/claims/v1.0/users/${sub}/getMemberObjects`;
    claimSourceAnswers.set(path, { status: 200, body: { value: [...many, 'pim-editors'] } });
    const result = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub, { email, email_verified: true, ...overage(`${ISSUER}${path}`) }),
    );
    expect(result.location).toBe('/');
    expect(claimSourceRequests.at(-1)).toEqual({
      method: 'POST',
      path,
      token: `at-${result.code}`,
      body: JSON.stringify({ securityEnabledOnly: false }),
    });
    expect(await memberOf(co.companyId, email)).toMatchObject({ role: 'editor' });
  });

  it("reads another endpoint with GET and the source's own access token", async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `ov-get-${sub.slice(0, 8)}@example.com`;
    const path = `/claims/${sub}/groups`;
    claimSourceAnswers.set(path, { status: 200, body: { groups: ['pim-editors'] } });
    const result = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub, {
        email,
        email_verified: true,
        ...overage(`${ISSUER}${path}`, { access_token: 'src-token' }),
      }),
    );
    expect(result.location).toBe('/');
    expect(claimSourceRequests.at(-1)).toMatchObject({ method: 'GET', path, token: 'src-token' });
    expect(await memberOf(co.companyId, email)).toMatchObject({ role: 'editor' });
  });

  it('refuses the sign-in (ssoError=groups) when the source is refused by the SSRF rule, answers an error or no list; creates nobody', async () => {
    const co = await ssoCompany();
    const denied = `/claims/denied-${co.companyId}`;
    claimSourceAnswers.set(denied, { status: 403 });
    const notAList = `/claims/not-a-list-${co.companyId}`;
    claimSourceAnswers.set(notAList, { status: 200, body: { groups: 'pim-editors' } });
    const sources = [
      'https://10.0.0.7/v1.0/users/x/getMemberObjects',
      'http://localhost/groups',
      `${ISSUER}${denied}`,
      `${ISSUER}${notAList}`,
    ];
    for (const endpoint of sources) {
      const sub = crypto.randomUUID();
      const email = `ov-no-${sub.slice(0, 8)}@example.com`;
      const before = claimSourceRequests.length;
      const result = await signIn(co.slug, (nonce) =>
        idToken(nonce, sub, { email, email_verified: true, ...overage(endpoint) }),
      );
      expect(result.location, endpoint).toBe('/?ssoError=groups');
      expect(result.cookie).toBeUndefined();
      expect(await db().query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
      // the private and non-https addresses are never requested
      if (!endpoint.startsWith(ISSUER)) expect(claimSourceRequests.length).toBe(before);
    }
    // an aggregated claim (a JWT of another issuer) is refused as well
    const sub = crypto.randomUUID();
    const aggregated = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub, {
        email: `ov-agg-${sub.slice(0, 8)}@example.com`,
        email_verified: true,
        _claim_names: { groups: 'src1' },
        _claim_sources: { src1: { JWT: 'a.b.c' } },
      }),
    );
    expect(aggregated.location).toBe('/?ssoError=groups');
  });

  it('follows @odata.nextLink with GET and the same token: getMemberObjects, then memberOf objects', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `ov-paged-${sub.slice(0, 8)}@example.com`;
    const first = `/claims/v1.0/users/${sub}/getMemberObjects`;
    const second = `/claims/v1.0/paged-${sub}/2`;
    claimSourceAnswers.set(first, {
      status: 200,
      body: { value: many, '@odata.nextLink': `${ISSUER}${second}?$skiptoken=abc` },
    });
    // the last page names the group mapped to a role: read only by following the link
    claimSourceAnswers.set(second, { status: 200, body: { value: ['pim-editors'], '@odata.nextLink': null } });
    const before = claimSourceRequests.length;
    const result = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub, { email, email_verified: true, ...overage(`${ISSUER}${first}`) }),
    );
    expect(result.location).toBe('/');
    expect(claimSourceRequests.slice(before).map((r) => [r.method, r.path, r.token])).toEqual([
      ['POST', first, `at-${result.code}`],
      ['GET', second, `at-${result.code}`],
    ]);
    expect(await memberOf(co.companyId, email)).toMatchObject({ role: 'editor' });

    // memberOf: a Graph collection of directory objects, paged the same way
    const sub2 = crypto.randomUUID();
    const email2 = `ov-memberof-${sub2.slice(0, 8)}@example.com`;
    const memberOfPath = `/claims/v1.0/users/${sub2}/memberOf`;
    const memberOfNext = `/claims/v1.0/users/${sub2}/memberOf/next`;
    claimSourceAnswers.set(memberOfPath, {
      status: 200,
      body: {
        value: [{ '@odata.type': '#microsoft.graph.group', id: 'group-x' }],
        '@odata.nextLink': `${ISSUER}${memberOfNext}`,
      },
    });
    claimSourceAnswers.set(memberOfNext, {
      status: 200,
      body: { value: [{ '@odata.type': '#microsoft.graph.group', id: 'pim-editors' }] },
    });
    const result2 = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub2, { email: email2, email_verified: true, ...overage(`${ISSUER}${memberOfPath}`) }),
    );
    expect(result2.location).toBe('/');
    expect(claimSourceRequests.at(-1)).toMatchObject({ method: 'GET', path: memberOfNext });
    expect(await memberOf(co.companyId, email2)).toMatchObject({ role: 'editor' });
  });

  it('refuses a next page at another origin or a private address (never requested), and a source paging on without end', async () => {
    const co = await ssoCompany();
    const refusedLinks = [
      'https://elsewhere.example/v1.0/next',
      'https://10.0.0.7/next',
      'http://idp-userinfo.test/next',
    ];
    for (const link of refusedLinks) {
      const sub = crypto.randomUUID();
      const email = `ov-link-${sub.slice(0, 8)}@example.com`;
      const path = `/claims/v1.0/users/${sub}/getMemberObjects`;
      claimSourceAnswers.set(path, { status: 200, body: { value: ['pim-editors'], '@odata.nextLink': link } });
      const before = claimSourceRequests.length;
      const result = await signIn(co.slug, (nonce) =>
        idToken(nonce, sub, { email, email_verified: true, ...overage(`${ISSUER}${path}`) }),
      );
      expect(result.location, link).toBe('/?ssoError=groups');
      expect(claimSourceRequests.length - before).toBe(1); // the first page only
      expect(await db().query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
    }
    // a page that names itself as the next one: read MAX_GROUP_PAGES times, then refused
    const sub = crypto.randomUUID();
    const email = `ov-loop-${sub.slice(0, 8)}@example.com`;
    const loop = `/claims/v1.0/loop-${sub}`;
    claimSourceAnswers.set(loop, {
      status: 200,
      body: { value: ['pim-editors'], '@odata.nextLink': `${ISSUER}${loop}` },
    });
    const before = claimSourceRequests.length;
    const result = await signIn(co.slug, (nonce) =>
      idToken(nonce, sub, { email, email_verified: true, ...overage(`${ISSUER}${loop}`) }),
    );
    expect(result.location).toBe('/?ssoError=groups');
    expect(claimSourceRequests.length - before).toBe(MAX_GROUP_PAGES);
    expect(await db().query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
  });

  it("calls Entra's legacy graph.windows.net source at Microsoft Graph", () => {
    expect(graphEndpoint('https://graph.windows.net/tenant-1/users/oid-1/getMemberObjects')).toEqual({
      url: 'https://graph.microsoft.com/v1.0/users/oid-1/getMemberObjects',
      memberObjects: true,
    });
    expect(graphEndpoint('https://graph.microsoft.com/v1.0/me/getMemberGroups')).toEqual({
      url: 'https://graph.microsoft.com/v1.0/me/getMemberGroups',
      memberObjects: true,
    });
    expect(graphEndpoint('https://claims.example.com/groups').memberObjects).toBe(false);
  });
});
