import { exports } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions, ssoLogins, ssoSettings, users } from '../src/db/schema';
import { db, makeCompany, makeUser, PASSWORD, memberOf } from './helpers/factories';
import { call, loginAs, ORIGIN } from './helpers/http';
import { scopeSetKept } from './helpers/members';

/**
 * OpenID Connect sign-in (docs/sso.md) against an identity provider played by a fetch mock:
 * discovery, JWKS and token endpoint on https://idp.test, ID tokens made with jose. The token
 * endpoint answers whatever ID token the test hands it for the code.
 */
const ISSUER = 'https://idp.test';
const CLIENT_ID = 'pim-client';
const CLIENT_SECRET = 'idp-client-secret-123';

let signingKey: CryptoKey;
let foreignKey: CryptoKey;
let jwks: { keys: unknown[] };
/** ID tokens the token endpoint gives out, by code. */
const tokensByCode = new Map<string, string>();
const tokenRequests: { auth: string | null; body: URLSearchParams }[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  foreignKey = (await generateKeyPair('RS256')).privateKey;
  jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }] };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== ISSUER) return realFetch(input, init);
    if (url.pathname === '/.well-known/openid-configuration') {
      return Response.json({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/authorize`,
        token_endpoint: `${ISSUER}/token`,
        jwks_uri: `${ISSUER}/jwks`,
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return Response.json(jwks);
    if (url.pathname === '/token' && request.method === 'POST') {
      const body = new URLSearchParams(await request.text());
      tokenRequests.push({ auth: request.headers.get('Authorization'), body });
      const idToken = tokensByCode.get(body.get('code') ?? '');
      if (!idToken) return Response.json({ error: 'invalid_grant' }, { status: 400 });
      return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: idToken });
    }
    return new Response('not found', { status: 404 });
  });
});

afterAll(() => vi.restoreAllMocks());

interface TokenOptions {
  nonce: string;
  sub?: string;
  email?: string;
  groups?: string[];
  issuer?: string;
  audience?: string;
  expiresIn?: string | number;
  key?: CryptoKey;
}

async function idToken(o: TokenOptions): Promise<string> {
  const jwt = new SignJWT({
    nonce: o.nonce,
    email: o.email,
    email_verified: true,
    name: 'SSO User',
    groups: o.groups ?? [],
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(o.issuer ?? ISSUER)
    .setAudience(o.audience ?? CLIENT_ID)
    .setSubject(o.sub ?? crypto.randomUUID())
    .setIssuedAt();
  if (typeof o.expiresIn === 'number') jwt.setExpirationTime(o.expiresIn);
  else jwt.setExpirationTime(o.expiresIn ?? '5m');
  return jwt.sign(o.key ?? signingKey);
}

/** A company with an admin who has set SSO up; answers the admin's cookie and the slug. */
async function ssoCompany(options: { defaultRole?: 'admin' | 'editor' | null; mandatory?: boolean } = {}) {
  const company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  const cookie = await loginAs(admin.email);
  const slug = `co-${company.companyId.slice(-8)}`;
  const res = await call('POST', '/api/Account/SetSsoSettings', {
    cookie,
    body: {
      slug,
      issuer: ISSUER,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      groupRoles: [
        { group: 'pim-admins', role: 'admin' },
        { group: 'pim-editors', role: 'editor' },
      ],
      defaultRole: options.defaultRole ?? null,
      mandatory: options.mandatory ?? false,
    },
  });
  expect(res.status, res.text).toBe(200);
  return { ...company, admin, cookie, slug };
}

/** SsoStart: the browser cookie and the state and nonce the IdP would see. */
async function start(slug: string) {
  const res = await call('POST', '/api/Account/SsoStart', { body: { slug } });
  expect(res.status, res.text).toBe(200);
  const url = new URL(res.json.redirectUrl);
  const browser = res.headers.get('Set-Cookie')!.split(';')[0]!;
  return {
    url,
    browser,
    state: url.searchParams.get('state')!,
    nonce: url.searchParams.get('nonce')!,
  };
}

async function callback(query: Record<string, string>, browser?: string) {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Account/SsoCallback?${new URLSearchParams(query)}`, {
      headers: browser ? { Cookie: browser } : {},
      redirect: 'manual',
    }),
  );
  await res.text();
  const location = res.headers.get('Location') ?? '';
  const session = /Service\.Cookie=([^;]+)/.exec(res.headers.get('Set-Cookie') ?? '')?.[1];
  return { status: res.status, location, session: session ? `Service.Cookie=${session}` : undefined };
}

/** The whole round trip with the ID token `make` builds from the nonce. */
async function signIn(slug: string, make: (nonce: string) => Promise<string>) {
  const flow = await start(slug);
  const code = crypto.randomUUID();
  tokensByCode.set(code, await make(flow.nonce));
  return { ...(await callback({ state: flow.state, code }, flow.browser)), flow, code };
}

describe('SSO settings', () => {
  it('stores the client secret sealed, never returns it, and shows the redirect URI', async () => {
    const co = await ssoCompany();
    const row = (await db().query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, co.companyId) }))!;
    expect(row.clientSecret).toMatch(/^v1\./);
    expect(row.clientSecret).not.toContain(CLIENT_SECRET);
    const res = await call('GET', '/api/Account/GetSsoSettings', { cookie: co.cookie });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(CLIENT_SECRET);
    expect(res.json.redirectUri).toBe(`${ORIGIN}/api/Account/SsoCallback`);
    expect(res.json.settings).toMatchObject({
      slug: co.slug,
      issuer: ISSUER,
      clientId: CLIENT_ID,
      hasClientSecret: true,
    });
  });

  it('refuses editors, a slug of another company, a loopback issuer and an issuer that names itself differently', async () => {
    const co = await ssoCompany();
    const editor = await makeUser(co, { role: 'editor' });
    const base = { slug: co.slug, issuer: ISSUER, clientId: CLIENT_ID };
    expect(
      (await call('POST', '/api/Account/SetSsoSettings', { cookie: await loginAs(editor.email), body: base })).status,
    ).toBe(403);
    const other = await makeCompany();
    const otherAdmin = await makeUser(other, { role: 'admin' });
    const otherCookie = await loginAs(otherAdmin.email);
    const taken = await call('POST', '/api/Account/SetSsoSettings', {
      cookie: otherCookie,
      body: { ...base, clientSecret: 'x' },
    });
    expect(taken.status).toBe(409);
    const loopback = await call('POST', '/api/Account/SetSsoSettings', {
      cookie: otherCookie,
      body: { ...base, slug: `lo-${other.companyId.slice(-8)}`, issuer: 'http://127.0.0.1:9999', clientSecret: 'x' },
    });
    expect(loopback.status).toBe(400);
    expect(loopback.json.error).toMatch(/refused/);
    const renamed = await call('POST', '/api/Account/SetSsoSettings', {
      cookie: otherCookie,
      body: { ...base, slug: `re-${other.companyId.slice(-8)}`, issuer: `${ISSUER}/tenant`, clientSecret: 'x' },
    });
    expect(renamed.status).toBe(400);
    expect(
      await db().query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, other.companyId) }),
    ).toBeUndefined();
  });

  it('answers 404 for an unknown sign-in name', async () => {
    const res = await call('POST', '/api/Account/SsoStart', { body: { slug: 'no-such-company-here' } });
    expect(res.status).toBe(404);
    expect(res.json.error).toBeTypeOf('string');
  });
});

describe('SSO sign-in', () => {
  it('sends the browser to the provider with PKCE S256, state and nonce', async () => {
    const co = await ssoCompany();
    const flow = await start(co.slug);
    expect(flow.url.origin + flow.url.pathname).toBe(`${ISSUER}/authorize`);
    expect(Object.fromEntries(flow.url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: `${ORIGIN}/api/Account/SsoCallback`,
      code_challenge_method: 'S256',
    });
    expect(flow.url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(flow.browser).toMatch(/^Service\.Sso=/);
  });

  it('provisions a new user on first sign-in with the role of their group, and opens a session', async () => {
    const co = await ssoCompany();
    const email = `new-${crypto.randomUUID()}@idp.test`;
    const res = await signIn(co.slug, (nonce) => idToken({ nonce, email, groups: ['staff', 'pim-admins'] }));
    expect(res.status).toBe(303);
    expect(res.location).toBe('/');
    expect(res.session).toBeDefined();
    // The code went back with the PKCE verifier and the client's credentials (client_secret_basic).
    const sent = tokenRequests.at(-1)!;
    expect(sent.body.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    expect(sent.body.get('code')).toBe(res.code);
    expect(sent.auth).toBe(`Basic ${btoa(`${CLIENT_ID}:${CLIENT_SECRET}`)}`);
    expect((await memberOf(co.companyId, email))?.role).toBe('admin');
    const me = await call('GET', '/api/Account/Me', { cookie: res.session });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ user: { email }, company: { companyId: co.companyId }, role: 'admin' });
  });

  it("consumes an invited address's open invitation at its first sign-in: the mapped role, the invitation's scopes", async () => {
    const co = await ssoCompany();
    const email = `invited-${crypto.randomUUID().slice(0, 8)}@idp.test`;
    const catalog = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: co.cookie,
      body: { name: 'Brand', departmentId: co.departmentId },
    });
    expect(catalog.status, catalog.text).toBe(200);
    const catalogId: string = catalog.json.catalogId;
    const invited = await call('POST', '/api/Account/InviteMember', {
      cookie: co.cookie,
      body: { email, role: 'viewer', catalogIds: [catalogId] },
    });
    expect(invited.status, invited.text).toBe(200);
    const res = await signIn(co.slug, (nonce) => idToken({ nonce, email, groups: ['pim-editors'] }));
    expect(res.status).toBe(303);
    // The provider's group mapping gives the role, as at every sign-in; the invitation its scopes.
    const me = await call('GET', '/api/Account/Me', { cookie: res.session });
    expect(me.json).toMatchObject({ role: 'editor', catalogIds: [catalogId] });
    const list = await call('GET', '/api/Account/GetInvitations', { cookie: co.cookie });
    expect(list.json.items.find((i: any) => i.invitationId === invited.json.invitationId)).toMatchObject({
      status: 'accepted',
      acceptedBy: me.json.user.userId,
    });
    const audit = await call('GET', `/api/Account/GetMemberChanges?userId=${me.json.user.userId}`, {
      cookie: co.cookie,
    });
    expect(audit.json.items.map((i: any) => i.action)).toEqual(['join']);
    expect(audit.json.items[0].changes).toContainEqual({
      path: 'invitation',
      before: null,
      after: invited.json.invitationId,
    });
    // The link no longer works.
    const token = invited.json.link.slice(invited.json.link.indexOf('#') + 1);
    expect((await call('GET', `/api/Account/GetInvitation?token=${token}`)).status).toBe(404);
  });

  it("makes the scope set of an invitation's category scope after the first sign-in, before any count", async () => {
    const co = await ssoCompany();
    const email = `invited-${crypto.randomUUID().slice(0, 8)}@idp.test`;
    const catalog = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: co.cookie,
      body: { name: 'Brand', departmentId: co.departmentId },
    });
    const category = await call('POST', '/api/Catalog/AddCategory', {
      cookie: co.cookie,
      body: { name: 'Lines', departmentId: co.departmentId, catalogId: catalog.json.catalogId },
    });
    expect(category.status, category.text).toBe(200);
    const categoryIds = [category.json.categoryId as string];
    const invited = await call('POST', '/api/Account/InviteMember', {
      cookie: co.cookie,
      body: { email, role: 'viewer', categoryIds },
    });
    expect(invited.status, invited.text).toBe(200);
    expect(await scopeSetKept(co.companyId, categoryIds)).toBe(false);
    const res = await signIn(co.slug, (nonce) => idToken({ nonce, email, groups: ['pim-editors'] }));
    expect(res.status).toBe(303);
    // made in the background of the callback (docs/teams.md "Counts"): no count was asked for
    await expect.poll(() => scopeSetKept(co.companyId, categoryIds), { timeout: 5000, interval: 50 }).toBe(true);
    expect((await call('GET', '/api/Account/Me', { cookie: res.session })).json.categoryIds).toEqual(categoryIds);
  });

  it('maps a group to a custom role, below a built-in one; the role cannot be deleted while mapped', async () => {
    const co = await ssoCompany();
    const role = await call('POST', '/api/Account/CreateRole', {
      cookie: co.cookie,
      body: { name: 'Agency', permissions: ['product.write'] },
    });
    expect(role.status, role.text).toBe(200);
    const settings = (groupRoles: { group: string; role: string }[]) =>
      call('POST', '/api/Account/SetSsoSettings', {
        cookie: co.cookie,
        body: { slug: co.slug, issuer: ISSUER, clientId: CLIENT_ID, groupRoles },
      });
    const unknown = await settings([{ group: 'pim-agency', role: crypto.randomUUID() }]);
    expect([unknown.status, unknown.json.error]).toEqual([404, 'groupRoles[0].role: role not found']);
    const saved = await settings([
      { group: 'pim-agency', role: role.json.roleId },
      { group: 'pim-editors', role: 'editor' },
    ]);
    expect(saved.status, saved.text).toBe(200);

    const email = `agency-${crypto.randomUUID().slice(0, 8)}@idp.test`;
    const first = await signIn(co.slug, (nonce) => idToken({ nonce, email, groups: ['pim-agency'] }));
    const me = await call('GET', '/api/Account/Me', { cookie: first.session });
    expect(me.json).toMatchObject({
      role: role.json.roleId,
      roleName: 'Agency',
      permissions: ['read', 'product.write'],
    });
    // A built-in role of another group of theirs wins.
    const both = await signIn(co.slug, (nonce) => idToken({ nonce, email, groups: ['pim-agency', 'pim-editors'] }));
    expect((await call('GET', '/api/Account/Me', { cookie: both.session })).json.role).toBe('editor');

    const refused = await call('POST', '/api/Account/DeleteRole', {
      cookie: co.cookie,
      body: { roleId: role.json.roleId },
    });
    expect(refused.status).toBe(409);
  });

  it('maps the groups again at every sign-in, uses the default role, and refuses without one', async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `grp-${sub}@idp.test`;
    expect(
      (await signIn(co.slug, (nonce) => idToken({ nonce, sub, email, groups: ['pim-editors'] }))).session,
    ).toBeDefined();
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');
    await signIn(co.slug, (nonce) => idToken({ nonce, sub, email, groups: ['pim-admins'] }));
    expect((await memberOf(co.companyId, email))?.role).toBe('admin');
    const stranger = `none-${sub}@idp.test`;
    const refused = await signIn(co.slug, (nonce) => idToken({ nonce, email: stranger, groups: ['sales'] }));
    expect(refused.location).toBe('/?ssoError=no-role');
    expect(refused.session).toBeUndefined();
    expect(await db().query.users.findFirst({ where: eq(users.email, stranger) })).toBeUndefined();

    const lenient = await ssoCompany({ defaultRole: 'editor' });
    const member = `def-${sub}@idp.test`;
    expect(
      (await signIn(lenient.slug, (nonce) => idToken({ nonce, email: member, groups: ['sales'] }))).session,
    ).toBeDefined();
    expect((await memberOf(lenient.companyId, member))?.role).toBe('editor');
  });

  it("keeps a role an admin gave by hand until the provider's mapped role changes, audited and marked (docs/sso.md)", async () => {
    const co = await ssoCompany();
    const sub = crypto.randomUUID();
    const email = `hand-${sub}@idp.test`;
    const as = (groups: string[]) => signIn(co.slug, (nonce) => idToken({ nonce, sub, email, groups }));
    expect((await as(['pim-editors'])).session).toBeDefined();
    const userId = (await memberOf(co.companyId, email))!.userId;
    const set = await call('POST', '/api/Account/SetMemberRole', {
      cookie: co.cookie,
      body: { userId, role: 'viewer' },
    });
    expect(set.status, set.text).toBe(200);
    // the provider maps as before: the admin's role stands, and GetUsers shows what the provider maps
    const again = await as(['pim-editors']);
    expect(again.session).toBeDefined();
    expect((await memberOf(co.companyId, email))?.role).toBe('viewer');
    expect((await call('GET', '/api/Account/Me', { cookie: again.session })).json.role).toBe('viewer');
    const listed = await call('GET', '/api/Account/GetUsers', { cookie: co.cookie });
    expect(listed.json.items.find((u: { userId: string }) => u.userId === userId)).toMatchObject({
      role: 'viewer',
      ssoMappedRole: 'editor',
    });
    const audit = async () =>
      (await call('GET', `/api/Account/GetMemberChanges?userId=${userId}`, { cookie: co.cookie })).json.items;
    expect((await audit()).filter((r: { surface: string }) => r.surface === 'sso')).toEqual([]);
    // the mapped role changes: the provider's applies, audited as the member's change through sso
    await as(['pim-admins']);
    expect((await memberOf(co.companyId, email))?.role).toBe('admin');
    expect((await audit())[0]).toMatchObject({
      action: 'role',
      surface: 'sso',
      changedBy: userId,
      changes: [{ path: 'role', before: 'viewer', after: 'admin' }],
    });
    await as(['pim-editors']);
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');
  });

  it('links an existing member by e-mail and refuses an account of another company', async () => {
    const co = await ssoCompany();
    const member = await makeUser(co, { role: 'editor' });
    const linked = await signIn(co.slug, (nonce) => idToken({ nonce, email: member.email, groups: ['pim-editors'] }));
    expect(linked.session).toBeDefined();
    const outsider = await makeUser(await makeCompany(), { role: 'editor' });
    const refused = await signIn(co.slug, (nonce) =>
      idToken({ nonce, email: outsider.email, groups: ['pim-editors'] }),
    );
    expect(refused.location).toBe('/?ssoError=foreign-account');
    expect(await memberOf(co.companyId, outsider.email)).toBeNull();
  });

  const refusedTokens: [string, (nonce: string) => Promise<string>][] = [
    ['a wrong nonce', () => idToken({ nonce: 'not-the-nonce', email: 'x@idp.test' })],
    ['a wrong audience', (nonce) => idToken({ nonce, email: 'x@idp.test', audience: 'another-client' })],
    ['a wrong issuer', (nonce) => idToken({ nonce, email: 'x@idp.test', issuer: 'https://evil.test' })],
    [
      'an expired token',
      (nonce) => idToken({ nonce, email: 'x@idp.test', expiresIn: Math.floor(Date.now() / 1000) - 600 }),
    ],
    ['a signature by another key', (nonce) => idToken({ nonce, email: 'x@idp.test', key: foreignKey })],
    [
      'a tampered payload',
      async (nonce) => {
        const [head, payload, signature] = (await idToken({ nonce, email: 'x@idp.test', groups: [] })).split('.');
        const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
        const forged = btoa(JSON.stringify({ ...claims, groups: ['pim-admins'] }))
          .replace(/\+/g, '-')
          .replace(/\//g, '_')
          .replace(/=+$/, '');
        return `${head}.${forged}.${signature}`;
      },
    ],
    [
      'an unsigned token',
      async (nonce) => {
        const enc = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
        const now = Math.floor(Date.now() / 1000);
        return `${enc({ alg: 'none' })}.${enc({ iss: ISSUER, aud: CLIENT_ID, sub: 's', nonce, email: 'x@idp.test', iat: now, exp: now + 300 })}.`;
      },
    ],
  ];
  for (const [what, make] of refusedTokens) {
    it(`refuses ${what}: no session, no user`, async () => {
      const co = await ssoCompany({ defaultRole: 'editor' });
      const before = await db().$count(sessions, eq(sessions.companyId, co.companyId));
      const res = await signIn(co.slug, make);
      expect(res.status).toBe(303);
      expect(res.location).toBe('/?ssoError=token');
      expect(res.session).toBeUndefined();
      expect(await db().$count(sessions, eq(sessions.companyId, co.companyId))).toBe(before);
      expect(await memberOf(co.companyId, 'x@idp.test')).toBeNull();
    });
  }

  it('refuses a wrong state, a replayed state, another browser and a denial by the provider', async () => {
    const co = await ssoCompany({ defaultRole: 'editor' });
    const email = `st-${crypto.randomUUID()}@idp.test`;
    const flow = await start(co.slug);
    const code = crypto.randomUUID();
    tokensByCode.set(code, await idToken({ nonce: flow.nonce, email }));
    expect((await callback({ state: 'wrong-state', code }, flow.browser)).location).toBe('/?ssoError=expired');
    expect((await callback({ state: flow.state, code }, 'Service.Sso=another-browser')).location).toBe(
      '/?ssoError=expired',
    );
    // The other browser's try used the state up: single use, whoever comes first.
    expect((await callback({ state: flow.state, code }, flow.browser)).location).toBe('/?ssoError=expired');

    const second = await start(co.slug);
    const code2 = crypto.randomUUID();
    tokensByCode.set(code2, await idToken({ nonce: second.nonce, email }));
    const ok = await callback({ state: second.state, code: code2 }, second.browser);
    expect(ok.session).toBeDefined();
    const replay = await callback({ state: second.state, code: code2 }, second.browser);
    expect(replay.location).toBe('/?ssoError=expired');
    expect(replay.session).toBeUndefined();
    expect(await db().$count(ssoLogins, eq(ssoLogins.companyId, co.companyId))).toBe(0);

    const third = await start(co.slug);
    const denied = await callback({ state: third.state, error: 'access_denied' }, third.browser);
    expect(denied.location).toBe('/?ssoError=denied');
    expect((await callback({}, third.browser)).location).toBe('/?ssoError=expired');
  });
});

describe('mandatory SSO', () => {
  it("refuses members' passwords with a clear message but keeps the break-glass admin's", async () => {
    const co = await ssoCompany({ mandatory: true });
    const editor = await makeUser(co, { role: 'editor' });
    const refused = await call('POST', '/api/Account/Login', { body: { email: editor.email, password: PASSWORD } });
    expect(refused.status).toBe(401);
    expect(refused.json.error).toMatch(/single sign-on/);
    // A wrong password still reads as a wrong password (nothing revealed about SSO).
    const wrong = await call('POST', '/api/Account/Login', {
      body: { email: editor.email, password: 'wrong-password' },
    });
    expect(wrong.json.error).not.toMatch(/single sign-on/);
    // The admin who made SSO mandatory keeps the password as break-glass; another admin does not.
    expect(
      (await call('POST', '/api/Account/Login', { body: { email: co.admin.email, password: PASSWORD } })).status,
    ).toBe(200);
    const otherAdmin = await makeUser(co, { role: 'admin' });
    expect(
      (await call('POST', '/api/Account/Login', { body: { email: otherAdmin.email, password: PASSWORD } })).status,
    ).toBe(401);
    // SSO itself still works for the editor.
    const sso = await signIn(co.slug, (nonce) => idToken({ nonce, email: editor.email, groups: ['pim-editors'] }));
    expect(sso.session).toBeDefined();
    // Switched off again: passwords work.
    await call('POST', '/api/Account/SetSsoSettings', {
      cookie: co.cookie,
      body: {
        slug: co.slug,
        issuer: ISSUER,
        clientId: CLIENT_ID,
        mandatory: false,
        groupRoles: [{ group: 'pim-editors', role: 'editor' }],
      },
    });
    expect(
      (await call('POST', '/api/Account/Login', { body: { email: editor.email, password: PASSWORD } })).status,
    ).toBe(200);
  });
});

async function scim(method: string, path: string, token: string, body?: unknown) {
  const response = await exports.default.fetch(
    new Request(`${ORIGIN}/scim/v2${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/scim+json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : undefined };
}

describe('SCIM', () => {
  async function scimCompany() {
    const co = await ssoCompany();
    const created = await call('POST', '/api/Account/CreateScimToken', { cookie: co.cookie, body: { name: 'Entra' } });
    expect(created.status).toBe(200);
    return { ...co, token: created.json.token as string, tokenId: created.json.tokenId as string };
  }

  it('refuses a missing, wrong or revoked token with a SCIM error', async () => {
    const co = await scimCompany();
    expect((await scim('GET', '/Users', 'nope')).json).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '401',
    });
    expect((await scim('GET', '/Users', co.token)).status).toBe(200);
    await call('POST', '/api/Account/RevokeScimToken', { cookie: co.cookie, body: { tokenId: co.tokenId } });
    expect((await scim('GET', '/Users', co.token)).status).toBe(401);
  });

  it('creates, finds, updates and deactivates a user; groups give the role; deactivation ends the sessions', async () => {
    const co = await scimCompany();
    const email = `scim-${crypto.randomUUID()}@idp.test`;
    const created = await scim('POST', '/Users', co.token, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      externalId: 'ext-1',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      userName: email,
      displayName: 'Ada Lovelace',
      externalId: 'ext-1',
      active: true,
    });
    const userId = created.json.id as string;
    // No mapped group and no default role: a User, but not yet a member.
    expect(await memberOf(co.companyId, email)).toBeNull();
    expect((await scim('POST', '/Users', co.token, { userName: email })).json).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
    });

    const found = await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}`, co.token);
    expect(found.json).toMatchObject({ totalResults: 1, Resources: [{ id: userId }] });
    expect((await scim('GET', '/Users?filter=name co "x"', co.token)).json.scimType).toBe('invalidFilter');

    const group = await scim('POST', '/Groups', co.token, { displayName: 'pim-editors', members: [{ value: userId }] });
    expect(group.status).toBe(201);
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');
    const promote = await scim('POST', '/Groups', co.token, { displayName: 'pim-admins' });
    await scim('PATCH', `/Groups/${promote.json.id}`, co.token, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }],
    });
    expect((await memberOf(co.companyId, email))?.role).toBe('admin');
    await scim('PATCH', `/Groups/${promote.json.id}`, co.token, {
      Operations: [{ op: 'remove', path: `members[value eq "${userId}"]` }],
    });
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');

    const renamed = await scim('PATCH', `/Users/${userId}`, co.token, {
      Operations: [{ op: 'Replace', path: 'displayName', value: 'Ada King' }],
    });
    expect(renamed.json.displayName, JSON.stringify(renamed.json)).toBe('Ada King');

    // Signed in through SSO, then deactivated the way Entra does it ("False" as a string).
    const sso = await signIn(co.slug, (nonce) => idToken({ nonce, email }));
    expect(sso.session).toBeDefined();
    const stampBefore = (await db().query.users.findFirst({ where: eq(users.id, userId) }))!.securityStamp;
    const off = await scim('PATCH', `/Users/${userId}`, co.token, {
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.status).toBe(200);
    expect(off.json.active).toBe(false);
    expect(await memberOf(co.companyId, email)).toBeNull();
    expect((await call('GET', '/api/Account/Me', { cookie: sso.session })).status).toBe(401);
    expect((await db().query.users.findFirst({ where: eq(users.id, userId) }))!.securityStamp).not.toBe(stampBefore);
    expect((await signIn(co.slug, (nonce) => idToken({ nonce, email }))).location).toBe('/?ssoError=deactivated');

    const on = await scim('PATCH', `/Users/${userId}`, co.token, {
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(on.json.active).toBe(true);
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');

    expect((await scim('DELETE', `/Users/${userId}`, co.token)).status).toBe(204);
    expect((await scim('GET', `/Users/${userId}`, co.token)).status).toBe(404);
    expect(await memberOf(co.companyId, email)).toBeNull();
  });

  it('keeps a role an admin gave by hand through SCIM group changes until the mapped role changes', async () => {
    const co = await scimCompany();
    const email = `scim-hand-${crypto.randomUUID()}@idp.test`;
    const created = await scim('POST', '/Users', co.token, { userName: email, active: true });
    const userId = created.json.id as string;
    await scim('POST', '/Groups', co.token, { displayName: 'pim-editors', members: [{ value: userId }] });
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');
    const byHand = await call('POST', '/api/Account/SetMemberRole', {
      cookie: co.cookie,
      body: { userId, role: 'viewer' },
    });
    expect(byHand.status, byHand.text).toBe(200);
    // a group change that maps to the same role leaves the admin's role
    await scim('POST', '/Groups', co.token, { displayName: 'sales', members: [{ value: userId }] });
    expect((await memberOf(co.companyId, email))?.role).toBe('viewer');
    const admins = await scim('POST', '/Groups', co.token, { displayName: 'pim-admins' });
    await scim('PATCH', `/Groups/${admins.json.id}`, co.token, {
      Operations: [{ op: 'add', path: 'members', value: [{ value: userId }] }],
    });
    expect((await memberOf(co.companyId, email))?.role).toBe('admin');
    const audit = await call('GET', `/api/Account/GetMemberChanges?userId=${userId}`, { cookie: co.cookie });
    expect(audit.json.items[0]).toMatchObject({
      surface: 'scim',
      changes: [{ path: 'role', before: 'viewer', after: 'admin' }],
    });
  });

  it("holds an admin's deactivation against SSO sign-in and SCIM until an admin reactivates (docs/teams.md)", async () => {
    const co = await scimCompany();
    const email = `held-${crypto.randomUUID()}@idp.test`;
    const created = await scim('POST', '/Users', co.token, { userName: email, active: true });
    const userId = created.json.id as string;
    await scim('POST', '/Groups', co.token, { displayName: 'pim-editors', members: [{ value: userId }] });
    expect((await memberOf(co.companyId, email))?.role).toBe('editor');

    const off = await call('POST', '/api/Account/DeactivateMember', { cookie: co.cookie, body: { userId } });
    expect(off.status, JSON.stringify(off.json)).toBe(200);
    expect((await signIn(co.slug, (nonce) => idToken({ nonce, email }))).location).toBe('/?ssoError=deactivated');
    // The provider pushing the user again does not bring them back.
    await scim('PATCH', `/Users/${userId}`, co.token, { Operations: [{ op: 'replace', value: { active: true } }] });
    expect(await memberOf(co.companyId, email)).toBeNull();

    const on = await call('POST', '/api/Account/ReactivateMember', { cookie: co.cookie, body: { userId } });
    expect(on.json).toMatchObject({ status: 'active', role: 'editor' });
    expect((await signIn(co.slug, (nonce) => idToken({ nonce, email }))).session).toBeDefined();
  });

  it("never shows or changes another company's users", async () => {
    const a = await scimCompany();
    const b = await scimCompany();
    const bUser = await makeUser(b, { role: 'editor' });
    expect((await scim('GET', `/Users/${bUser.userId}`, a.token)).status).toBe(404);
    expect(
      (
        await scim('PATCH', `/Users/${bUser.userId}`, a.token, {
          Operations: [{ op: 'replace', path: 'active', value: false }],
        })
      ).status,
    ).toBe(404);
    expect(
      (await scim('POST', '/Groups', a.token, { displayName: 'x', members: [{ value: bUser.userId }] })).status,
    ).toBe(400);
    expect((await memberOf(b.companyId, bUser.email))?.role).toBe('editor');
    const list = await scim('GET', '/Users', a.token);
    expect(list.json.Resources.map((r: { id: string }) => r.id)).not.toContain(bUser.userId);
  });

  it('answers SCIM errors for bad bodies', async () => {
    const co = await scimCompany();
    expect((await scim('POST', '/Users', co.token, { userName: 'not an email' })).json).toMatchObject({
      status: '400',
      scimType: 'invalidValue',
    });
    expect((await scim('PATCH', '/Users/whatever', co.token, { Operations: [] })).status).toBe(400);
    const raw = await exports.default.fetch(
      new Request(`${ORIGIN}/scim/v2/Users`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${co.token}`, 'Content-Type': 'application/scim+json' },
        body: '{not json',
      }),
    );
    expect(raw.status).toBe(400);
    expect(((await raw.json()) as { scimType: string }).scimType).toBe('invalidSyntax');
  });
});
