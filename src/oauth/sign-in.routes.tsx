import { Hono, type Context } from 'hono';
import { login, logout } from '../accounts/accounts';
import { LoginDto } from '../accounts/account.schemas';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../accounts/session-auth';
import type { AppEnv } from '../env';
import { AppError } from '../kernel/app-error';
import { limitBody } from '../http/middleware';
import { clientIp, rateLimit } from '../http/rate-limit';
import { PATHS } from './config';
import { authorizeUrl, checkCsrf, issueCsrf, sameSiteForm } from './csrf';
import { sendPage } from './page-response';
import { LoginPage } from './pages/login-page';
import { authorizationServerFor } from './server';

/** The client's display name for the sign-in page, from the request being replayed. */
async function clientNameOf(c: Context<AppEnv>, query: string): Promise<string> {
  const clientId = new URLSearchParams(query).get('client_id') ?? '';
  const client = clientId
    ? await authorizationServerFor(new URL(c.req.url))?.getOAuthApi(c.env).lookupClient(clientId)
    : null;
  return client?.clientName?.trim() || clientId || 'An application';
}

const field = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Sign-in and sign-out inside the authorization flow. Both take the authorization request's
 * query and return the browser to `/connect/authorize` with it, which re-validates everything.
 * Sign-in opens an ordinary web session (`Service.Cookie`), so the user is signed in to the PIM.
 */
export const signInRoutes = new Hono<AppEnv>()
  .post(PATHS.login, sameSiteForm, limitBody, rateLimit('signIn', { failuresOnly: true }), async (c) => {
    const form = await c.req.parseBody();
    checkCsrf(c, form.csrf);
    const query = field(form.q);
    const input = LoginDto.safeParse({ email: field(form.email), password: field(form.password) });
    const retry = async (error: string, status: number, headers?: Record<string, string>) =>
      sendPage(
        c,
        <LoginPage
          clientName={await clientNameOf(c, query)}
          query={query}
          csrf={issueCsrf(c)}
          email={field(form.email)}
          error={error}
        />,
        { status, headers: new Headers(headers) },
      );
    if (!input.success) return retry('Enter your email address and password.', 400);
    try {
      const session = await login(c.var.dbSession.primary(), input.data, clientIp(c.req.raw));
      setSessionCookie(c, session.token, session.expiresAt);
    } catch (err) {
      if (err instanceof AppError && (err.status === 401 || err.status === 429)) {
        return retry(
          err.status === 401 ? 'Email or password is not correct.' : 'Too many failed attempts. Try again later.',
          err.status,
          err.headers,
        );
      }
      throw err;
    }
    return c.redirect(authorizeUrl(query), 303);
  })
  .post(PATHS.logout, sameSiteForm, limitBody, async (c) => {
    const form = await c.req.parseBody();
    checkCsrf(c, form.csrf);
    const token = sessionToken(c);
    if (token) await logout(c.var.dbSession.primary(), token);
    clearSessionCookie(c);
    return c.redirect(authorizeUrl(field(form.q)), 303);
  });
