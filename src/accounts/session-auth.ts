import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { AppError, unauthorized } from '../kernel/app-error';
import { resolveSession } from './accounts';

const SESSION_COOKIE = 'Service.Cookie';

export function setSessionCookie(c: Context<AppEnv>, token: string, expiresAt: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: new URL(c.req.url).protocol === 'https:' });
}

export function sessionToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/**
 * Cookie-authenticated writes must come from our own origin. Browsers send `Origin` on every
 * POST; a foreign one is refused. Non-browser clients (curl, scripts) send none and are not
 * exposed to CSRF. SameSite=Lax and the JSON-only rule are the other two layers.
 */
export const checkOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const origin = c.req.header('Origin');
    if (origin !== undefined && origin !== new URL(c.req.url).origin) {
      throw new AppError('forbidden', 'cross-site request refused');
    }
    if (c.req.header('Sec-Fetch-Site') === 'cross-site') throw new AppError('forbidden', 'cross-site request refused');
  }
  await next();
};

/** Requires a live web session; sets `caller` from it. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = sessionToken(c);
  if (!token) throw unauthorized('not logged in');
  // Web sessions are read on the primary: a logout or password change counts at once.
  const session = await resolveSession(c.var.dbSession.primary(), token);
  if (!session) throw unauthorized('session expired or invalid');
  c.set('caller', {
    userId: session.userId,
    companyId: session.companyId,
    departmentId: session.departmentId,
    role: session.role,
    ...(session.permissions ? { permissions: session.permissions } : {}),
    ...(session.languages ? { languages: session.languages } : {}),
    ...(session.productScope ? { productScope: session.productScope } : {}),
    ...(session.channels ? { channels: session.channels } : {}),
    surface: 'web',
    operator: session.operator,
  });
  await next();
};
