import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify } from 'jose';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DevServer, startDevServer } from '../../scripts/lib/dev-server';
import { launchChromium, newContext } from './web-browser';

/**
 * Single sign-on against a real, certified OpenID provider (`oidc-provider`, run in this Node
 * process on a free port with its development login and consent pages) through Chromium:
 * the first sign-in provisions the user, the groups claim gives the role, a user in no mapped
 * group is refused, and mandatory SSO refuses passwords (docs/sso.md). The PIM runs on a
 * wrangler dev of its own, allowed to reach 127.0.0.1 (ALLOW_PRIVATE_TARGETS) and given the
 * key that seals the client secret.
 */
const suffix = Date.now().toString(36).slice(-5);
const CLIENT_ID = 'pim-e2e';
const CLIENT_SECRET = `pim-e2e-secret-${suffix}`;
const SLUG = `demo-sso-${suffix}`;

/** The provider's accounts: login name → claims. */
const ACCOUNTS: Record<string, { email: string; name: string; groups: string[] }> = {
  'anna.admin': { email: `anna-${suffix}@idp.demo.test`, name: 'Anna Admin', groups: ['staff', 'pim-admins'] },
  'eddi.editor': { email: `eddi-${suffix}@idp.demo.test`, name: 'Eddi Editor', groups: ['pim-editors'] },
  'nora.nobody': { email: `nora-${suffix}@idp.demo.test`, name: 'Nora Nobody', groups: ['sales'] },
  // The seeded password user, now also known to the provider.
  'editor.demo': { email: 'editor@demo.test', name: 'Demo Editor', groups: ['pim-editors'] },
};

let pim: DevServer;
let persistTo: string;
let idp: Server;
let issuer: string;
let browser: Browser;
/** When set, the provider's token answers pass through this change of the ID token (a forger between the PIM and the provider). */
let forgeIdToken: ((idToken: string) => string) | null = null;
/**
 * When set, the provider mints ID tokens with its clock this many seconds behind and a lifetime of
 * ID_TOKEN_TTL_AGED_S: the token it answers has expired before the PIM reads it (what a replayed
 * old token, or a provider with a badly skewed clock, looks like to the PIM). Real tokens, signed
 * by the provider's own key; only their times are in the past.
 */
let idTokenAgeS: number | null = null;
const ID_TOKEN_TTL_AGED_S = 60;
/** The ID tokens the provider answered, newest last. */
const issuedIdTokens: string[] = [];

/** The provider's stand-in logout page (below). */
const FRONTCHANNEL_PAGE = '/e2e-frontchannel-logout';

const b64urlJson = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const toB64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function apiCall(cookie: string | undefined, path: string, body?: unknown) {
  const res = await fetch(`${pim.baseUrl}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(cookie ? { Cookie: cookie } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: API answers as the tests read them
  const json: any = await res.json();
  return { status: res.status, json, cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

async function passwordLogin(email: string) {
  return apiCall(undefined, 'Account/Login', { email, password: 'demo-password-1' });
}

beforeAll(async () => {
  // The PIM first: the provider needs its redirect URI.
  persistTo = mkdtempSync(join(tmpdir(), 'pim-e2e-sso-'));
  cpSync(inject('seededState'), persistTo, { recursive: true });
  pim = await startDevServer(persistTo, {
    args: ['--var', 'ALLOW_PRIVATE_TARGETS:true', '--var', `SSO_ENCRYPTION_KEY:e2e-sso-key-${suffix}-0123456789`],
  });

  idp = createServer();
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${pim.baseUrl}/api/Account/SsoCallback`],
        post_logout_redirect_uris: [`${pim.baseUrl}/`],
        // OpenID Connect Back-Channel Logout 1.0: the provider tells the PIM who signed out there
        backchannel_logout_uri: `${pim.baseUrl}/api/Account/SsoBackchannelLogout`,
        backchannel_logout_session_required: true,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // The claims go into the ID token itself, as the PIM reads them (docs/sso.md).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: [`cookie-key-${suffix}`] },
    features: { devInteractions: { enabled: true }, backchannelLogout: { enabled: true } },
    // The provider refuses to call special-use addresses (its SSRF guard); the PIM under test
    // listens on loopback, so this test provider posts its logout tokens without that guard.
    fetch: (url: string | URL, options: RequestInit & { dispatcher?: unknown }) =>
      fetch(url, { ...options, dispatcher: undefined } as RequestInit),
    ttl: { IdToken: () => (idTokenAgeS === null ? 3600 : ID_TOKEN_TTL_AGED_S) },
    async findAccount(_ctx, id) {
      const account = ACCOUNTS[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
  });
  const handle = provider.callback();
  idp.on('request', (req, res) => {
    if (req.url?.startsWith(FRONTCHANNEL_PAGE)) {
      // oidc-provider 9 has no front-channel logout; this page stands in for its end_session
      // page, which frames each client's frontchannel_logout_uri with iss and sid (OpenID Connect
      // Front-Channel Logout 1.0, section 2), at the provider's own origin.
      const sid = new URL(req.url, issuer).searchParams.get('sid') ?? '';
      const uri = `${pim.baseUrl}/api/Account/SsoFrontchannelLogout?iss=${encodeURIComponent(issuer)}&sid=${encodeURIComponent(sid)}`;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="en"><title>Signed out</title><p>You are signed out.</p><iframe title="pim" src="${uri.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"></iframe></html>`,
      );
      return;
    }
    const tokenRequest = req.method === 'POST' && req.url?.startsWith('/token');
    if (tokenRequest && idTokenAgeS !== null) {
      // oidc-provider stamps iat/exp from Date.now(): set back for this request only.
      const realNow = Date.now;
      const behindMs = idTokenAgeS * 1000;
      Date.now = () => realNow() - behindMs;
      res.once('close', () => {
        Date.now = realNow;
      });
    }
    if (tokenRequest) {
      // Keep the ID token the provider answered (the tests check what the PIM refused).
      const end = res.end.bind(res);
      const write = res.write.bind(res);
      const chunks: Buffer[] = [];
      res.write = ((chunk: Buffer | string, ...rest: unknown[]) => {
        chunks.push(Buffer.from(chunk));
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof res.write;
      res.end = ((chunk?: Buffer | string, ...rest: unknown[]) => {
        if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (typeof body.id_token === 'string') issuedIdTokens.push(body.id_token);
        } catch {
          // not JSON: an error page
        }
        return (end as (...a: unknown[]) => ServerResponse)(chunk, ...rest);
      }) as typeof res.end;
    }
    if (forgeIdToken && tokenRequest) {
      // Collect the provider's answer and hand on the token response with the ID token changed.
      const chunks: Buffer[] = [];
      const write = res.write.bind(res);
      const end = res.end.bind(res);
      const forge = forgeIdToken;
      res.write = ((chunk: Buffer | string) => {
        chunks.push(Buffer.from(chunk));
        return true;
      }) as typeof res.write;
      res.end = ((chunk?: Buffer | string) => {
        if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (typeof body.id_token === 'string') body.id_token = forge(body.id_token);
        const text = JSON.stringify(body);
        res.setHeader('Content-Length', Buffer.byteLength(text));
        write(text);
        return end();
      }) as typeof res.end;
    }
    handle(req, res);
  });

  // The demo admin registers the provider (the settings screen is exercised below).
  const admin = await passwordLogin('admin@demo.test');
  const set = await apiCall(admin.cookie, 'Account/SetSsoSettings', {
    slug: SLUG,
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    scopes: 'openid email profile groups',
    groupRoles: [
      { group: 'pim-admins', role: 'admin' },
      { group: 'pim-editors', role: 'editor' },
    ],
    defaultRole: null,
    mandatory: false,
  });
  expect(set.status, JSON.stringify(set.json)).toBe(200);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  idp?.close();
  pim?.stop();
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
});

/** Signs in through the company link and the provider's login and consent pages. */
async function ssoSignIn(page: Page, login: string) {
  await page.goto(`${pim.baseUrl}/?sso=${SLUG}`);
  await page.waitForURL((url) => url.origin === issuer, { timeout: 30_000 });
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  const consent = page.getByRole('button', { name: 'Continue' });
  await page.waitForURL((url) => url.origin === pim.baseUrl || url.pathname.includes('interaction'), {
    timeout: 30_000,
  });
  if (new URL(page.url()).origin === issuer) await consent.click();
  await page.waitForURL((url) => url.origin === pim.baseUrl, { timeout: 30_000 });
}

async function browserCookie(page: Page) {
  const c = (await page.context().cookies()).find((x) => x.name === 'Service.Cookie');
  return c ? `${c.name}=${c.value}` : undefined;
}

describe('web application: single sign-on with a real OpenID provider', () => {
  it('provisions a new user at the first sign-in with the role of their group', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await ssoSignIn(page, 'eddi.editor');
    await expect.poll(() => browserCookie(page), { timeout: 15_000 }).toBeDefined();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    const me = await apiCall(await browserCookie(page), 'Account/Me');
    expect(me.json).toMatchObject({
      user: { email: ACCOUNTS['eddi.editor']!.email, name: 'Eddi Editor' },
      role: 'editor',
    });
    // signing out sends the browser on to the provider's end_session_endpoint with the ID token
    const cookie = await browserCookie(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.origin === issuer && url.pathname.includes('/session/end'), {
      timeout: 15_000,
    });
    const endSession = new URL(page.url());
    expect(endSession.searchParams.get('id_token_hint')).toMatch(/^eyJ/);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${pim.baseUrl}/`);
    expect((await apiCall(cookie, 'Account/Me')).status).toBe(401);
    await context.close();

    const adminContext = await newContext(browser);
    const adminPage = await adminContext.newPage();
    await ssoSignIn(adminPage, 'anna.admin');
    await adminPage.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    expect((await apiCall(await browserCookie(adminPage), 'Account/Me')).json.role).toBe('admin');
    await adminContext.close();
  });

  it('ends the PIM session when the user signs out at the provider (back-channel logout)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await ssoSignIn(page, 'eddi.editor');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    const cookie = await browserCookie(page);
    expect((await apiCall(cookie, 'Account/Me')).status).toBe(200);
    // a second session of another member stays
    const other = await newContext(browser);
    const otherPage = await other.newPage();
    await ssoSignIn(otherPage, 'anna.admin');
    await otherPage.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    const otherCookie = await browserCookie(otherPage);

    // Signing out at the provider itself, not through the PIM: the provider posts a logout token
    // naming the user's session there (sid) to the PIM, which ends the session it opened for it.
    await page.goto(`${issuer}/session/end`);
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect.poll(async () => (await apiCall(cookie, 'Account/Me')).status, { timeout: 15_000 }).toBe(401);
    expect((await apiCall(otherCookie, 'Account/Me')).status).toBe(200);
    await context.close();
    await other.close();
  });

  it("ends the PIM session when the provider's logout page frames the front-channel logout URI, with or without the PIM cookie", async () => {
    /** Signs eddi in in a new context; the session cookie and the provider session (sid) it was opened in. */
    const signedIn = async () => {
      const context = await newContext(browser);
      const page = await context.newPage();
      await ssoSignIn(page, 'eddi.editor');
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
      const cookie = await browserCookie(page);
      expect((await apiCall(cookie, 'Account/Me')).status).toBe(200);
      const sid = b64urlJson(issuedIdTokens.at(-1)!.split('.')[1]!).sid as string;
      expect(sid).toBeTruthy();
      return { context, page, cookie, sid };
    };
    /** Opens the provider's logout page in `page`; the framed request's Cookie header and status. */
    const frontchannel = async (page: Page, sid: string) => {
      const framed: { cookie: string | undefined; status: number }[] = [];
      page.on('response', async (response) => {
        if (!response.url().includes('/SsoFrontchannelLogout')) return;
        framed.push({ cookie: (await response.request().allHeaders()).cookie, status: response.status() });
      });
      await page.goto(`${issuer}${FRONTCHANNEL_PAGE}?sid=${encodeURIComponent(sid)}`);
      // the answer is shown in the provider's frame: its CSP lets the issuer's origin frame it
      await page.frameLocator('iframe[title="pim"]').getByText('Signed out of the PIM.').waitFor({ timeout: 15_000 });
      return framed;
    };

    // In the browser that signed in. Here the provider and the PIM are both on 127.0.0.1 (one
    // site; ports do not count), so the SameSite=Lax cookie goes with the framed request.
    const first = await signedIn();
    const other = await signedIn(); // another session of the same user, at the provider too
    const framed = await frontchannel(first.page, first.sid);
    expect(framed).toEqual([{ cookie: expect.stringContaining('Service.Cookie='), status: 200 }]);
    expect((await apiCall(first.cookie, 'Account/Me')).status).toBe(401);
    // only the named provider session ends
    expect((await apiCall(other.cookie, 'Account/Me')).status).toBe(200);

    // With the provider on another site, a SameSite=Lax (or Strict) cookie is not sent in its
    // frame, and browsers blocking third-party cookies send none either: the PIM ends the
    // sessions by iss and sid alone, so a browser holding no PIM cookie at all ends it too.
    const bare = await newContext(browser);
    const barePage = await bare.newPage();
    const withoutCookie = await frontchannel(barePage, other.sid);
    expect(withoutCookie).toEqual([{ cookie: undefined, status: 200 }]);
    expect((await apiCall(other.cookie, 'Account/Me')).status).toBe(401);
    await Promise.all([first.context.close(), other.context.close(), bare.close()]);
  });

  it('refuses a user in none of the mapped groups, with the reason on the sign-in page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await ssoSignIn(page, 'nora.nobody');
    expect(new URL(page.url()).searchParams.get('ssoError')).toBe('no-role');
    await expect
      .poll(() => page.getByText('You are in none of the groups that may use the PIM').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await browserCookie(page)).toBeUndefined();
    await context.close();
  });

  it('refuses a tampered ID token: more groups in the payload under the original signature', async () => {
    forgeIdToken = (idToken) => {
      const [head, payload, signature] = idToken.split('.');
      return `${head}.${toB64url({ ...b64urlJson(payload!), groups: ['pim-admins'] })}.${signature}`;
    };
    const context = await newContext(browser);
    const page = await context.newPage();
    try {
      await ssoSignIn(page, 'nora.nobody');
    } finally {
      forgeIdToken = null;
    }
    expect(new URL(page.url()).searchParams.get('ssoError')).toBe('token');
    expect(await browserCookie(page)).toBeUndefined();
    await context.close();
  });

  it('refuses an expired ID token from the provider: the reason on the sign-in page, no session', async () => {
    idTokenAgeS = 600;
    const context = await newContext(browser);
    const page = await context.newPage();
    const before = issuedIdTokens.length;
    try {
      // a user with a mapped group: only the token's age can keep her out
      await ssoSignIn(page, 'anna.admin');
    } finally {
      idTokenAgeS = null;
    }
    expect(new URL(page.url()).searchParams.get('ssoError')).toBe('token');
    await expect
      .poll(() => page.getByText('Your identity provider’s answer could not be verified').count(), { timeout: 15_000 })
      .toBe(1);
    expect(await browserCookie(page)).toBeUndefined();
    // What the PIM refused: a token the provider really signed, expired 9 minutes before it arrived
    // (well past the PIM's 60 s clock tolerance), and valid at the time it claims to be issued.
    expect(issuedIdTokens.length).toBe(before + 1);
    const expired = issuedIdTokens.at(-1)!;
    const claims = b64urlJson(expired.split('.')[1]!);
    expect(claims.exp - claims.iat).toBe(ID_TOKEN_TTL_AGED_S);
    expect(Date.now() / 1000 - claims.exp).toBeGreaterThan(500);
    const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
    await expect(jwtVerify(expired, jwks, { issuer, audience: CLIENT_ID })).rejects.toBeInstanceOf(
      joseErrors.JWTExpired,
    );
    const atIssue = await jwtVerify(expired, jwks, {
      issuer,
      audience: CLIENT_ID,
      currentDate: new Date(claims.iat * 1000),
    });
    expect(atIssue.payload.email).toBe(ACCOUNTS['anna.admin']!.email);
    await context.close();

    // the same user, with a fresh token, gets in
    const again = await newContext(browser);
    const fresh = await again.newPage();
    await ssoSignIn(fresh, 'anna.admin');
    await fresh.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    expect((await apiCall(await browserCookie(fresh), 'Account/Me')).json.role).toBe('admin');
    await again.close();
  });

  it('makes SSO mandatory on the admin screen: passwords are refused, SSO and the break-glass admin still work', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    // The demo admin signs in with the password and switches "mandatory" on in the SSO settings.
    await page.goto(`${pim.baseUrl}/`);
    await page.getByLabel('Email address').fill('admin@demo.test');
    await page.getByLabel('Password').fill('demo-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Administration' })
      .click();
    const form = page.getByRole('form', { name: 'Single sign-on (OpenID Connect)' });
    await expect.poll(() => form.getByLabel('Issuer URL').inputValue(), { timeout: 15_000 }).toBe(issuer);
    await form.getByRole('switch', { name: /mandatory/ }).check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await apiCall(await browserCookie(page), 'Account/GetSsoSettings')).json.settings.mandatory, {
        timeout: 15_000,
      })
      .toBe(true);

    // The seeded editor's password is refused on the sign-in page with the reason.
    const editorContext = await newContext(browser);
    const editorPage = await editorContext.newPage();
    await editorPage.goto(`${pim.baseUrl}/`);
    await editorPage.getByLabel('Email address').fill('editor@demo.test');
    await editorPage.getByLabel('Password').fill('demo-password-1');
    await editorPage.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect
      .poll(() => editorPage.getByText('Your company requires single sign-on').count(), { timeout: 15_000 })
      .toBe(1);
    expect((await passwordLogin('editor@demo.test')).status).toBe(401);
    // Through the provider the same user gets in, linked to the existing account.
    await ssoSignIn(editorPage, 'editor.demo');
    await editorPage.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });
    expect((await apiCall(await browserCookie(editorPage), 'Account/Me')).json.user.email).toBe('editor@demo.test');
    // The admin who switched it on keeps the password (break-glass) and switches it off again.
    const admin = await passwordLogin('admin@demo.test');
    expect(admin.status).toBe(200);
    await form.getByRole('switch', { name: /mandatory/ }).uncheck();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await passwordLogin('editor@demo.test')).status, { timeout: 15_000 }).toBe(200);
    await editorContext.close();
    await context.close();
  });
});
