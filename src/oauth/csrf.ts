import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { randomToken } from '../accounts/passwords';
import { AppError } from '../kernel/app-error';
import { PATHS } from './config';

const COOKIE = 'pim_csrf';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Double-submit token for the sign-in and sign-out forms (the consent form is protected by
 * the library's browser-bound handle). The cookie is SameSite=Strict and scoped to /connect,
 * so a cross-site page can neither read it nor make the browser send it.
 */
export function issueCsrf(c: Context): string {
  const existing = getCookie(c, COOKIE);
  if (existing && TOKEN.test(existing)) return existing;
  const token = randomToken();
  setCookie(c, COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
    path: '/connect',
  });
  return token;
}

/** 403 unless the form echoes the cookie's token. */
export function checkCsrf(c: Context, submitted: unknown): void {
  const expected = getCookie(c, COOKIE);
  if (!expected || typeof submitted !== 'string') throw csrfError();
  const [a, b] = [new TextEncoder().encode(expected), new TextEncoder().encode(submitted)];
  // timingSafeEqual throws on different lengths; the length of a random token is no secret.
  if (a.byteLength !== b.byteLength || !crypto.subtle.timingSafeEqual(a, b)) throw csrfError();
}

const csrfError = () => new AppError('forbidden', 'This form has expired. Go back to the application and start again.');

/** Only the query of an authorization request is replayed, always to our own endpoint: no open redirect. */
export function authorizeUrl(query: string): string {
  return `${PATHS.authorize}?${new URLSearchParams(query).toString()}`;
}

/**
 * The authorization pages' forms may only be posted from our own pages. The service sends
 * `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` on form posts, so the
 * browser-set `Sec-Fetch-Site` decides when present; otherwise a named Origin must be ours.
 */
export const sameSiteForm: MiddlewareHandler = async (c, next) => {
  const site = c.req.header('Sec-Fetch-Site');
  const origin = c.req.header('Origin');
  const ok = site !== undefined ? site === 'same-origin' : origin === undefined || origin === new URL(c.req.url).origin;
  if (!ok) throw new AppError('forbidden', 'This form can only be sent from this site.');
  await next();
};
