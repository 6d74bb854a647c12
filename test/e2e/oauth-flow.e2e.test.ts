/**
 * The judged walk-through: a standard OAuth client library (oauth4webapi) and a real browser
 * (headless Chromium) against `wrangler dev` with the demo seed. Discover from a 401, register,
 * sign in and consent with the keyboard, exchange with PKCE S256, call every /api/ai operation,
 * refresh, change the password, and see the next call refused.
 */
import * as oauth from 'oauth4webapi';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const base = () => inject('baseUrl');
const PASSWORD = 'demo-password-1';
const insecure = { [oauth.allowInsecureRequests]: true } as const; // wrangler dev serves http on loopback
const REDIRECT = 'http://127.0.0.1:45871/callback';

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

/** Discovers the authorization server the way an agent does: from the 401 of the agent surface. */
async function discover() {
  const challenge = await fetch(`${base()}/api/ai/GetStats`);
  expect(challenge.status).toBe(401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge.headers.get('WWW-Authenticate') ?? '')?.[1];
  expect(metadataUrl).toBe(`${base()}/.well-known/oauth-protected-resource/mcp`);
  const resource = new URL(`${base()}/mcp`);
  const rs = await oauth.processResourceDiscoveryResponse(
    resource,
    await oauth.resourceDiscoveryRequest(resource, insecure),
  );
  const issuer = new URL(rs.authorization_servers![0]!);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  return { as, resource: rs.resource };
}

async function register(as: oauth.AuthorizationServer) {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    {
      client_name: 'E2E agent',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
    // A distinct client IP per run keeps registrations clear of the 5-per-hour limit of 127.0.0.1.
    {
      ...insecure,
      headers: { 'CF-Connecting-IP': `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` },
    },
  );
  return oauth.processDynamicClientRegistrationResponse(response);
}

/** Opens the authorization URL; `callback` resolves with the URL the browser is finally sent to. */
async function openAuthorization(page: Page, url: URL): Promise<{ callback: Promise<URL> }> {
  const callback = new Promise<URL>((resolve) => {
    void page.route(`${REDIRECT}**`, async (route) => {
      resolve(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'done' });
    });
  });
  await page.goto(url.href);
  return { callback };
}

/** Moves the focus with Tab until `matches` holds for the focused element. */
async function tabTo(page: Page, matches: (el: { tag: string; text: string; name: string | null }) => boolean) {
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      // Runs in the page; this file is type-checked without the DOM library.
      const el = (globalThis as any).document.activeElement;
      return {
        tag: String(el?.tagName ?? ''),
        text: String(el?.textContent ?? '').trim(),
        name: (el?.getAttribute('name') ?? null) as string | null,
      };
    });
    if (matches(focused)) return;
  }
  throw new Error('element not reachable with Tab');
}

async function signIn(page: Page, email: string) {
  await expect(page.locator('h1').textContent()).resolves.toBe('Sign in to PIM Service');
  // The email field has the focus on arrival: the whole form works from the keyboard.
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  // Wait for the form's own navigation: a load-state check right after the key press can
  // resolve on the sign-in page itself when the machine is busy.
  await Promise.all([page.waitForNavigation({ waitUntil: 'domcontentloaded' }), page.keyboard.press('Enter')]);
}

async function authorizationUrl(as: oauth.AuthorizationServer, clientId: string, resource: string, scope: string) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope,
    state,
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  }).toString();
  return { url, verifier, state };
}

async function call(token: string, path: string, body?: unknown) {
  const res = await fetch(`${base()}/api/ai/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any, headers: res.headers };
}

async function sessionCookie(email: string, password = PASSWORD) {
  const res = await fetch(`${base()}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function changePassword(cookie: string, currentPassword: string, newPassword: string) {
  const res = await fetch(`${base()}/api/Account/ChangePassword`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ currentPassword, newPassword }),
  });
  expect(res.status).toBe(200);
}

describe('OAuth 2.1 with oauth4webapi and a real browser', () => {
  it('runs the whole agent flow as editor@demo.test and is cut off by a password change', async () => {
    const { as, resource } = await discover();
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    const client = await register(as);
    const { url, verifier, state } = await authorizationUrl(as, client.client_id, resource, 'api mcp offline_access');

    const context = await browser.newContext();
    const page = await context.newPage();
    const { callback } = await openAuthorization(page, url);
    await signIn(page, 'editor@demo.test');
    await expect(page.locator('h1').textContent()).resolves.toBe('Allow E2E agent to act for you?');
    await expect(page.locator('body').textContent()).resolves.toContain(
      'This sends access to a program on your own computer',
    );
    await tabTo(page, (el) => el.tag === 'BUTTON' && el.text === 'Allow');
    await page.keyboard.press('Enter');
    const redirected = await callback;
    await context.close();

    const params = oauth.validateAuthResponse(as, client, redirected, state);
    const tokenResponse = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      verifier,
      {
        ...insecure,
        additionalParameters: { resource },
      },
    );
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, tokenResponse);
    expect(tokens.expires_in).toBe(300);
    expect(tokens.refresh_token).toEqual(expect.any(String));

    // Every operation of the agent surface.
    const stats = await call(tokens.access_token, 'GetStats');
    expect(stats.status).toBe(200);
    expect(stats.json.products).toBeGreaterThan(0);
    const groups = await call(tokens.access_token, 'GetClassificationGroups');
    expect(groups.json.items.map((g: any) => g.code)).toEqual(['ETIM', 'ECLASS', 'PROFICLASS']);
    const list = await call(tokens.access_token, 'ListClassificationLinkIds?limit=2');
    expect(list.status).toBe(200);
    expect(list.json.items.length).toBeGreaterThan(0);
    const one = await call(tokens.access_token, `GetClassification?linkId=${list.json.items[0].linkId}`);
    expect(one.json).toMatchObject({ linkId: list.json.items[0].linkId, name: list.json.items[0].name });

    const web = await sessionCookie('editor@demo.test');
    const me = (await (await fetch(`${base()}/api/Account/Me`, { headers: { Cookie: web } })).json()) as any;
    const catalogs = (await (
      await fetch(`${base()}/api/Catalog/GetCatalogs`, { headers: { Cookie: web } })
    ).json()) as any;
    const product = (await (
      await fetch(`${base()}/api/Catalog/AddProduct`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: web },
        body: JSON.stringify({
          departmentId: me.departmentId,
          catalogId: catalogs.items[0].catalogId,
          sku: `E2E-OAUTH-${Date.now()}`,
          name: 'LS-Schalter B10',
        }),
      })
    ).json()) as any;
    const created = await call(tokens.access_token, 'CreateClassification', {
      elementId: product.productId,
      name: 'LS-Schalter B10',
      classificationGroups: 1,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000133', value: '10' }],
    });
    expect(created.status).toBe(200);
    const updated = await call(tokens.access_token, 'UpdateClassification', {
      linkId: created.json.linkId,
      features: [{ code: 'EF000133', value: '13' }],
    });
    expect(updated.json.features).toEqual([
      { group: 'ETIM', code: 'EF000133', name: 'Rated current', value: '13', unit: 'AMP' },
    ]);

    // Refresh with the standard client; the rotated refresh token differs.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await call(refreshed.access_token, 'GetStats')).status).toBe(200);

    // Changing the password revokes everything, at once.
    await changePassword(web, PASSWORD, 'a-new-password-for-e2e');
    try {
      const started = Date.now();
      const refused = await call(refreshed.access_token, 'GetStats');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('WWW-Authenticate')).toContain('error="invalid_token"');
      expect(Date.now() - started).toBeLessThan(5000);
      await expect(
        oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, insecure),
        ),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
    } finally {
      // Other end-to-end tests sign in as this seeded account.
      await changePassword(
        await sessionCookie('editor@demo.test', 'a-new-password-for-e2e'),
        'a-new-password-for-e2e',
        PASSWORD,
      );
    }
  });

  it('refuses the admin with a page and no code, and tells a read-only user about the switch', async () => {
    const { as, resource } = await discover();
    const client = await register(as);

    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    const { url } = await authorizationUrl(as, client.client_id, resource, 'api');
    await openAuthorization(adminPage, url);
    await signIn(adminPage, 'admin@demo.test');
    await expect(adminPage.locator('h1').textContent()).resolves.toBe('Not permitted');
    await expect(adminPage.locator('[role=alert]').textContent()).resolves.toContain(
      'administrator accounts cannot be used by AI agents',
    );
    expect(await adminPage.locator('input[name=handle]').count()).toBe(0);
    expect(adminPage.url().startsWith(REDIRECT)).toBe(false);
    await adminContext.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const second = await authorizationUrl(as, client.client_id, resource, 'api');
    const { callback } = await openAuthorization(page, second.url);
    await signIn(page, 'noai@demo.test');
    await expect(page.locator('body').textContent()).resolves.toContain(
      'does not allow AI agents to edit classifications',
    );
    await tabTo(page, (el) => el.tag === 'BUTTON' && el.text === 'Deny');
    await page.keyboard.press('Enter');
    const denied = await callback;
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe(second.state);
    await context.close();
  });
});
