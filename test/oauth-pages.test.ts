import { describe, expect, it } from 'vitest';
import { makeCompany, makeUser, PASSWORD } from './helpers/factories';
import { loginAs } from './helpers/http';
import {
  authorizeQuery,
  cookiesOf,
  joinSecondCompany,
  makeAgentUser,
  openConsent,
  ORIGIN,
  pkcePair,
  registerClient,
  send,
} from './oauth-helpers';

async function freshQuery(extra: Record<string, string> = {}, metadata: Record<string, unknown> = {}) {
  const client = await registerClient(metadata);
  return authorizeQuery(client.client_id, (await pkcePair()).challenge, extra);
}

function expectPageSecurity(headers: Headers) {
  expect(headers.get('Content-Type')).toMatch(/^text\/html/);
  expect(headers.get('X-Frame-Options')).toBe('DENY');
  expect(headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  expect(headers.get('Content-Security-Policy')).toContain("default-src 'none'");
  expect(headers.get('Cache-Control')).toBe('no-store');
}

const csrfOf = (text: string) => /name="csrf" value="([^"]+)"/.exec(text)![1]!;

describe('sign-in page', () => {
  it('asks an anonymous visitor to sign in, naming the client, with a CSRF token', async () => {
    const query = await freshQuery({}, { client_name: 'Claude <Desktop>' });
    const res = await send('GET', `/connect/authorize?${query}`);
    expect(res.status).toBe(200);
    expectPageSecurity(res.headers);
    expect(res.text).toContain('<strong>Claude &lt;Desktop&gt;</strong> wants to act for you');
    expect(res.text).toContain('<label for="email">Email</label>');
    expect(res.text).not.toContain('name="handle"');
    expect(cookiesOf(res.headers).some((c) => c.startsWith('pim_csrf='))).toBe(true);
    expect(res.text).toContain(`name="q" value="${query.replace(/&/g, '&amp;')}"`);
  });

  it('signs in and returns to the authorization request, which then shows the consent page', async () => {
    const company = await makeCompany();
    const user = await makeUser(company);
    const query = await freshQuery();
    const page = await send('GET', `/connect/authorize?${query}`);
    const csrfCookie = cookiesOf(page.headers).join('; ');
    const login = await send('POST', '/connect/login', {
      cookie: csrfCookie,
      headers: { Origin: ORIGIN },
      form: { csrf: csrfOf(page.text), q: query, email: user.email, password: PASSWORD },
    });
    expect(login.status).toBe(303);
    expect(login.headers.get('Location')).toBe(`/connect/authorize?${query}`);
    const session = cookiesOf(login.headers).find((c) => c.startsWith('Service.Cookie='))!;
    expect(session).toBeTruthy();
    const consent = await send('GET', `/connect/authorize?${query}`, { cookie: session });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Allow Test Agent to act for you?');
    expect(consent.text).toContain(`Signed in as <strong>${user.email}</strong>`);
  });

  it('shows the sign-in page again with an error for a wrong password', async () => {
    const user = await makeUser(await makeCompany());
    const query = await freshQuery();
    const page = await send('GET', `/connect/authorize?${query}`);
    const res = await send('POST', '/connect/login', {
      cookie: cookiesOf(page.headers).join('; '),
      form: { csrf: csrfOf(page.text), q: query, email: user.email, password: 'wrong-password' },
    });
    expect(res.status).toBe(401);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toContain('Email or password is not correct.');
    expect(cookiesOf(res.headers).some((c) => c.startsWith('Service.Cookie='))).toBe(false);
  });

  it('refuses a sign-in without the CSRF token, or from another site', async () => {
    const user = await makeUser(await makeCompany());
    const query = await freshQuery();
    const page = await send('GET', `/connect/authorize?${query}`);
    const noToken = await send('POST', '/connect/login', { form: { q: query, email: user.email, password: PASSWORD } });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('This form has expired');
    const crossSite = await send('POST', '/connect/login', {
      cookie: cookiesOf(page.headers).join('; '),
      headers: { Origin: 'https://evil.example' },
      form: { csrf: csrfOf(page.text), q: query, email: user.email, password: PASSWORD },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('Set-Cookie') ?? '').not.toContain('Service.Cookie');
  });

  it('accepts the Origin: null a no-referrer page sends when the browser says same-origin', async () => {
    const user = await makeUser(await makeCompany());
    const query = await freshQuery();
    const page = await send('GET', `/connect/authorize?${query}`);
    const form = { csrf: csrfOf(page.text), q: query, email: user.email, password: PASSWORD };
    const cookie = cookiesOf(page.headers).join('; ');
    const sameOrigin = await send('POST', '/connect/login', {
      cookie,
      form,
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(303);
    const crossSite = await send('POST', '/connect/login', {
      cookie,
      form,
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain('This form can only be sent from this site.');
    const opaque = await send('POST', '/connect/login', { cookie, form, headers: { Origin: 'null' } });
    expect(opaque.status).toBe(403);
  });

  it('only ever returns to /connect/authorize after sign-in', async () => {
    const user = await makeUser(await makeCompany());
    const page = await send('GET', `/connect/authorize?${await freshQuery()}`);
    const res = await send('POST', '/connect/login', {
      cookie: cookiesOf(page.headers).join('; '),
      form: { csrf: csrfOf(page.text), q: '/../../evil.example/?x=1', email: user.email, password: PASSWORD },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')!.startsWith('/connect/authorize?')).toBe(true);
  });
});

describe('authorization request validation', () => {
  it('shows an error page, and does not redirect, for a redirect_uri that was not registered', async () => {
    const user = await makeAgentUser();
    const query = await freshQuery({ redirect_uri: 'https://evil.example/steal' });
    const res = await send('GET', `/connect/authorize?${query}`, { cookie: user.session });
    expect(res.status).toBe(400);
    expect(res.headers.get('Location')).toBeNull();
    expect(res.text).toContain('This authorization request is not valid');
  });

  it('shows an error page for an unknown client', async () => {
    const res = await send(
      'GET',
      `/connect/authorize?${authorizeQuery('no-such-client', (await pkcePair()).challenge)}`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('Location')).toBeNull();
  });

  it.each([
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['an unknown scope', { scope: 'api admin' }, 'invalid_scope'],
    ['only offline_access', { scope: 'offline_access' }, 'invalid_scope'],
  ])('sends %s back to the client as an OAuth error', async (_what, extra, error) => {
    const res = await send('GET', `/connect/authorize?${await freshQuery(extra)}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('Location')!);
    expect(location.origin).toBe('https://agent.example');
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('requires PKCE from a confidential client as well', async () => {
    const client = await registerClient({ token_endpoint_auth_method: 'client_secret_post' });
    const query = new URLSearchParams(authorizeQuery(client.client_id, 'x'));
    query.delete('code_challenge');
    query.delete('code_challenge_method');
    const res = await send('GET', `/connect/authorize?${query}`);
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('Location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toBe('PKCE with code_challenge_method=S256 is required');
  });
});

describe('consent page', () => {
  it('names the client, the redirect host, the scopes and the switch, and cannot be framed', async () => {
    const user = await makeAgentUser({ aiSwitch: false });
    const { page } = await openConsent(
      user.session,
      await freshQuery({}, { client_name: '<img src=x onerror=alert(1)>' }),
    );
    expectPageSecurity(page.headers);
    expect(page.headers.get('Content-Security-Policy')).toContain("form-action 'self' https://agent.example");
    expect(page.text).toContain('Allow &lt;img src=x onerror=alert(1)&gt; to act for you?');
    expect(page.text).not.toContain('<img');
    expect(page.text).toContain('Access will be sent to <strong>agent.example</strong>');
    for (const scope of ['api', 'mcp', 'offline_access']) expect(page.text).toContain(`value="${scope}" checked=""`);
    expect(page.text).toContain('does not allow AI agents to edit classifications');
    expect(page.text).not.toContain('program on your own computer');
  });

  it('warns when the tokens go to a program on this computer', async () => {
    const user = await makeAgentUser();
    const client = await registerClient({ redirect_uris: ['http://127.0.0.1:33418/callback'] });
    const query = authorizeQuery(client.client_id, (await pkcePair()).challenge, {
      redirect_uri: 'http://127.0.0.1:33418/callback',
    });
    const { page } = await openConsent(user.session, query);
    expect(page.text).toContain('This sends access to a program on your own computer');
  });

  it('sends access_denied to the client when the user denies', async () => {
    const user = await makeAgentUser();
    const consent = await openConsent(user.session, await freshQuery());
    const res = await send('POST', '/connect/authorize', {
      cookie: consent.cookies,
      headers: { Origin: ORIGIN },
      form: { handle: consent.handle, userId: consent.userId, decision: 'deny' },
    });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('Location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('accepts a consent form only once, only in the browser that opened it, only from this site', async () => {
    const user = await makeAgentUser();
    const consent = await openConsent(user.session, await freshQuery());
    const form = { handle: consent.handle, userId: consent.userId, decision: 'approve', scope: ['api'] };
    const crossSite = await send('POST', '/connect/authorize', {
      cookie: consent.cookies,
      headers: { Origin: 'https://evil.example' },
      form,
    });
    expect(crossSite.status).toBe(403);
    const otherBrowser = await send('POST', '/connect/authorize', { cookie: user.session, form });
    expect(otherBrowser.status).toBe(400);
    expect(otherBrowser.text).toContain('expired or was already used');
    const first = await send('POST', '/connect/authorize', { cookie: consent.cookies, form });
    expect(first.status).toBe(302);
    const again = await send('POST', '/connect/authorize', { cookie: consent.cookies, form });
    expect(again.status).toBe(400);
    expect(again.headers.get('Location')).toBeNull();
  });

  it('refuses a consent form posted after signing out or as another user', async () => {
    const user = await makeAgentUser();
    const consent = await openConsent(user.session, await freshQuery());
    const form = { handle: consent.handle, userId: consent.userId, decision: 'approve', scope: ['api'] };
    const signedOut = await send('POST', '/connect/authorize', {
      cookie: consent.cookies.replace(user.session, ''),
      form,
    });
    expect(signedOut.status).toBe(401);
    expect(signedOut.text).toContain('Your sign-in has ended');
    const other = await makeAgentUser();
    const swapped = await send('POST', '/connect/authorize', {
      cookie: consent.cookies.replace(user.session, other.session),
      form,
    });
    expect(swapped.status).toBe(403);
    expect(swapped.headers.get('Location')).toBeNull();
  });
});

describe('accounts that may not delegate (rule 2)', () => {
  it('shows an admin a refusal page with no consent form and no code', async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin' });
    const res = await send('GET', `/connect/authorize?${await freshQuery()}`, { cookie: await loginAs(admin.email) });
    expect(res.status).toBe(403);
    expectPageSecurity(res.headers);
    expect(res.text).toContain('administrator accounts cannot be used by AI agents');
    expect(res.text).toContain('Sign in with another account');
    expect(res.text).not.toContain('name="handle"');
    expect(res.headers.get('Location')).toBeNull();
  });

  it('shows a multi-company account a refusal page', async () => {
    const user = await makeAgentUser();
    await joinSecondCompany(user.userId);
    const res = await send('GET', `/connect/authorize?${await freshQuery()}`, { cookie: user.session });
    expect(res.status).toBe(403);
    expect(res.text).toContain('accounts that belong to more than one company cannot be used by AI agents');
  });

  it('refuses the approval of an account that became multi-company after the page was shown', async () => {
    const user = await makeAgentUser();
    const consent = await openConsent(user.session, await freshQuery());
    await joinSecondCompany(user.userId);
    const res = await send('POST', '/connect/authorize', {
      cookie: consent.cookies,
      form: { handle: consent.handle, userId: consent.userId, decision: 'approve', scope: ['api'] },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('Location')).toBeNull();
  });

  it('signs out from the refusal page and returns to the sign-in page', async () => {
    const admin = await makeUser(await makeCompany(), { role: 'admin' });
    const session = await loginAs(admin.email);
    const query = await freshQuery();
    const refusal = await send('GET', `/connect/authorize?${query}`, { cookie: session });
    const cookies = [session, ...cookiesOf(refusal.headers)].join('; ');
    const out = await send('POST', '/connect/logout', {
      cookie: cookies,
      form: { csrf: csrfOf(refusal.text), q: query },
    });
    expect(out.status).toBe(303);
    expect(out.headers.get('Location')).toBe(`/connect/authorize?${query}`);
    const me = await send('GET', '/api/Account/Me', { cookie: session });
    expect(me.status).toBe(401);
  });
});
