import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HOME_CELL, openCellSession } from '../db/cells';
import { BOOKMARK_HEADER, newerBookmark } from '../db/session';
import type { AppEnv } from '../env';
import { AppError } from '../kernel/app-error';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Gives every request an id (echoed as `X-Request-Id`) and its own D1 session on the directory
 * database (which is also cell-1): reads start on any replica unless the client sends the
 * bookmark of an earlier answer (`x-d1-bookmark`), and every answer carries the newest bookmark
 * the request saw, errors included. Routes with a caller then enter the caller's cell
 * (src/http/cell.ts); the answer's bookmark is then that cell's.
 */
export const requestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  // The directory is cell-1: a bookmark that names another cell is kept for that cell's session.
  const session = openCellSession(c.env, HOME_CELL, c.req.header(BOOKMARK_HEADER));
  c.set('dbSession', session);
  c.set('db', session.db);
  await next();
  c.header('X-Request-Id', requestId);
  // A session's Durable Object answers with its own (maybe newer) bookmark: keep the newest.
  // `dbSession` is the caller's cell session by now when the route entered one (src/http/cell.ts).
  const bookmark = newerBookmark(c.res.headers.get(BOOKMARK_HEADER), c.var.dbSession.bookmark());
  if (bookmark) c.header(BOOKMARK_HEADER, bookmark);
};

/** Refuses bodies over 1 MiB with 413, whether announced by Content-Length or streamed. */
export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new AppError('payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`);
  },
});

/**
 * Routes whose body is not JSON: raw files (each route checks size and type itself), and
 * Logout, which reads no body (a beacon may send text/plain).
 */
export const RAW_BODY_PATHS = [
  '/api/Media/Upload',
  '/api/Import/Upload',
  '/api/Import/UploadPart',
  '/api/Account/Logout',
];

/**
 * Routes that take a form-encoded body under the usual 1 MiB limit: the identity provider's
 * back-channel logout (OpenID Connect Back-Channel Logout 1.0 posts `logout_token` as a form).
 */
export const FORM_BODY_PATHS = ['/api/Account/SsoBackchannelLogout'];

/** JSON routes allowed more than 1 MiB: a bulk upsert of 1000 products with descriptions. */
export const LARGE_JSON_PATHS = ['/api/Catalog/UpsertProducts'];
export const MAX_LARGE_JSON_BYTES = 32 * 1024 * 1024;

export const limitLargeJson = bodyLimit({
  maxSize: MAX_LARGE_JSON_BYTES,
  onError: () => {
    throw new AppError('payload_too_large', `request body exceeds ${MAX_LARGE_JSON_BYTES} bytes`);
  },
});

/** Writes take JSON only: 415 otherwise. This also forces a CORS preflight for cross-site callers. */
export const requireJson: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'POST' || c.req.method === 'PUT' || c.req.method === 'PATCH') {
    const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      throw new AppError('unsupported_media_type', 'Content-Type must be application/json');
    }
  }
  await next();
};

/** Baseline response headers for every API answer. */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('Referrer-Policy', 'no-referrer');
  if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
};
