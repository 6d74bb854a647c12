import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '../env';
import { AppError } from '../kernel/app-error';
import { MessagePage } from './pages/message-page';

/**
 * Sends an authorization page with the headers every one of them needs: no framing
 * (clickjacking), no scripts, forms that post only to us, or, on the consent page, to the
 * client's redirect origin as well (browsers apply `form-action` to the redirect after a POST).
 */
export function sendPage(
  c: Context<AppEnv>,
  body: Child,
  options: { status?: number; headers?: Headers; redirectUri?: string } = {},
): Response {
  const formTargets = ["'self'"];
  if (options.redirectUri) formTargets.push(new URL(options.redirectUri).origin);
  options.headers?.forEach((value, name) => {
    if (name.toLowerCase() !== 'set-cookie') c.header(name, value);
  });
  for (const cookie of options.headers?.getSetCookie() ?? []) c.header('Set-Cookie', cookie, { append: true });
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action ${formTargets.join(' ')}`,
  );
  c.header('X-Frame-Options', 'DENY');
  c.header('Cache-Control', 'no-store');
  return c.html(`<!doctype html>${String(body)}`, (options.status ?? 200) as 200);
}

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Sign-in needed',
  403: 'Not permitted',
  404: 'Not found',
  413: 'Request too large',
  429: 'Too many attempts',
};

/** The authorization pages' error handler: the same errors as the API, as a readable page. */
export function renderPageError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof AppError) {
    return sendPage(c, <MessagePage title={TITLES[err.status] ?? 'Request failed'} message={err.message} />, {
      status: err.status,
      headers: new Headers(err.headers),
    });
  }
  if (err instanceof HTTPException) {
    return sendPage(
      c,
      <MessagePage title={TITLES[err.status] ?? 'Request failed'} message="The request could not be processed." />,
      {
        status: err.status,
      },
    );
  }
  const requestId = c.get('requestId') ?? crypto.randomUUID();
  console.error(JSON.stringify({ requestId, error: err.message, stack: err.stack }));
  return sendPage(
    c,
    <MessagePage
      title="Something went wrong"
      message={`Internal error (request id ${requestId}). Please try again.`}
    />,
    {
      status: 500,
    },
  );
}
