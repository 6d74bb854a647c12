import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { prepareScopeSetAfter } from '../http/cell';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { checkOrigin, requireSession, setSessionCookie } from './session-auth';
import { acceptLogoutToken, LogoutTokenError } from './sso/backchannel-logout';
import { acceptFrontchannelLogout, FrontchannelLogoutError } from './sso/frontchannel-logout';
import { finishSsoSignIn, SsoSignInError, startSsoSignIn } from './sso/sso-sign-in';
import {
  CreateScimTokenDto,
  CreateScimTokenOut,
  RevokeScimTokenDto,
  RevokeScimTokenOut,
  SetSsoSettingsDto,
  SsoSettingsOut,
  SsoStartDto,
  SsoStartOut,
} from './sso/sso.schemas';
import { CALLBACK_PATH, createScimToken, getSsoSettings, revokeScimToken, setSsoSettings } from './sso/sso-settings';

/** Binds a sign-in in flight to the browser that started it; sent only to the callback. */
const SSO_COOKIE = 'Service.Sso';

const originOf = (c: Context<AppEnv>) => new URL(c.req.url).origin;
const secure = (c: Context<AppEnv>) => new URL(c.req.url).protocol === 'https:';

/** `/api/Account/Sso*`, `/api/Account/*ScimToken`: OpenID Connect sign-in and its settings (docs/sso.md). */
export const ssoRoutes = new Hono<AppEnv>()
  .use(checkOrigin)
  .post(
    '/SsoStart',
    describeOperation({
      tag: 'Account',
      summary: "Start a sign-in through the company's identity provider; answers the URL to send the browser to",
      response: SsoStartOut,
      security: 'none',
      references: ['slug'],
    }),
    validate('json', SsoStartDto),
    async (c) => {
      const started = await startSsoSignIn(c.var.dbSession.primary(), c.env, c.req.valid('json'), originOf(c));
      setCookie(c, SSO_COOKIE, started.browserKey, {
        httpOnly: true,
        // Lax: the cookie comes back on the identity provider's top-level redirect to the callback.
        sameSite: 'Lax',
        secure: secure(c),
        path: CALLBACK_PATH,
        maxAge: started.expiresInSeconds,
      });
      return c.json({ redirectUrl: started.redirectUrl, expiresInSeconds: started.expiresInSeconds });
    },
  )
  // The identity provider's redirect (a browser navigation, so not in the JSON API document):
  // success opens the session and lands on the web app; a failure lands on its sign-in page
  // with the reason, and the details go to the log.
  .get('/SsoCallback', async (c) => {
    const browserKey = getCookie(c, SSO_COOKIE);
    deleteCookie(c, SSO_COOKIE, { path: CALLBACK_PATH, secure: secure(c) });
    try {
      const session = await finishSsoSignIn(
        c.var.dbSession.primary(),
        c.env,
        { state: c.req.query('state'), code: c.req.query('code'), error: c.req.query('error'), browserKey },
        originOf(c),
      );
      // an invitation consumed at a first sign-in may have given category scopes (docs/teams.md)
      prepareScopeSetAfter(c, session.companyId, session.userId);
      setSessionCookie(c, session.token, session.expiresAt);
      return c.redirect('/', 303);
    } catch (err) {
      if (!(err instanceof SsoSignInError)) throw err;
      console.warn(JSON.stringify({ event: 'sso_sign_in_refused', reason: err.reason, detail: err.message }));
      return c.redirect(`/?ssoError=${err.reason}`, 303);
    }
  })
  // The identity provider's back-channel logout (OpenID Connect Back-Channel Logout 1.0): a
  // server-to-server form POST of a signed logout token, answered per that spec (200, or 400
  // with an OAuth error), so not in the JSON API document either.
  .post('/SsoBackchannelLogout', async (c) => {
    c.header('Cache-Control', 'no-store');
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    const form = type === 'application/x-www-form-urlencoded' ? await c.req.parseBody().catch(() => null) : null;
    const token = form?.logout_token;
    if (typeof token !== 'string' || token === '') {
      return c.json({ error: 'invalid_request', error_description: 'expected a form-encoded logout_token' }, 400);
    }
    try {
      const ended = await acceptLogoutToken(c.var.dbSession.primary(), c.env, token);
      console.log(JSON.stringify({ event: 'sso_backchannel_logout', sessionsEnded: ended }));
      return c.body(null, 200);
    } catch (err) {
      if (!(err instanceof LogoutTokenError)) throw err;
      console.warn(JSON.stringify({ event: 'sso_backchannel_logout_refused', detail: err.message }));
      return c.json({ error: 'invalid_request', error_description: err.message }, 400);
    }
  })
  // The identity provider's front-channel logout (OpenID Connect Front-Channel Logout 1.0): its
  // logout page loads this in an iframe with iss and sid. Never cached; only the provider may
  // frame the answer (CSP frame-ancestors), a refusal may be framed by no one. A browser page,
  // so not in the JSON API document.
  .get('/SsoFrontchannelLogout', async (c) => {
    c.header('Cache-Control', 'no-cache, no-store');
    c.header('Pragma', 'no-cache');
    try {
      const result = await acceptFrontchannelLogout(c.var.dbSession.primary(), {
        iss: c.req.query('iss'),
        sid: c.req.query('sid'),
      });
      console.log(JSON.stringify({ event: 'sso_frontchannel_logout', sessionsEnded: result.ended }));
      c.header(
        'Content-Security-Policy',
        `default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors ${result.frameAncestors.join(' ')}`,
      );
      return c.html('<!doctype html><html lang="en"><title>Signed out</title><p>Signed out of the PIM.</p></html>');
    } catch (err) {
      if (!(err instanceof FrontchannelLogoutError)) throw err;
      console.warn(JSON.stringify({ event: 'sso_frontchannel_logout_refused', detail: err.message }));
      c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      return c.json({ error: err.message }, 400);
    }
  })
  .get(
    '/GetSsoSettings',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: the company's single sign-on settings (never the client secret) and SCIM tokens",
      response: SsoSettingsOut,
      security: 'cookie',
      adminOnly: true,
    }),
    async (c) => c.json(await getSsoSettings(c.var.dbSession.primary(), c.var.caller, originOf(c))),
  )
  .post(
    '/SetSsoSettings',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: set the company's OpenID Connect provider, group mapping and mandatory switch",
      description:
        "The issuer's discovery document is fetched and checked first. clientSecret is write-only; leave it out to keep the stored one.",
      response: SsoSettingsOut,
      security: 'cookie',
      adminOnly: true,
      conflict: 'The sign-in name (slug) is used by another company, or the stored secret cannot be decrypted',
    }),
    validate('json', SetSsoSettingsDto),
    async (c) =>
      c.json(await setSsoSettings(c.var.dbSession.primary(), c.env, c.var.caller, c.req.valid('json'), originOf(c))),
  )
  .post(
    '/CreateScimToken',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Admin: a new SCIM bearer token for the identity provider (shown once)',
      response: CreateScimTokenOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', CreateScimTokenDto),
    async (c) => c.json(await createScimToken(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/RevokeScimToken',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Admin: revoke a SCIM bearer token',
      response: RevokeScimTokenOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', RevokeScimTokenDto),
    async (c) => c.json(await revokeScimToken(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  );
