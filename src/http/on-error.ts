import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, statusOf, type ErrorCode } from '../kernel/app-error';

const CODES: ErrorCode[] = [
  'bad_request',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
];

/** The error code of a status thrown by Hono itself (e.g. 400 for malformed JSON). */
const codeOf = (status: number): ErrorCode =>
  CODES.find((code) => statusOf(code) === status) ?? (status < 500 ? 'bad_request' : 'internal');

/**
 * Renders every failure as `{"error": message}`. Known errors keep their message; anything
 * else is logged with the request id and answered with a generic 500 that leaks no internals.
 */
export function renderError(err: Error, c: Context): Response {
  const requestId: string = c.get('requestId') ?? crypto.randomUUID();
  if (err instanceof AppError) {
    return c.json({ error: err.message, code: err.code }, err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    // Hono's own middleware (e.g. bodyLimit) throws these; keep their status, not their internals.
    const status = err.status;
    const message = status === 413 ? 'request body too large' : err.message || 'request failed';
    return c.json({ error: message, code: codeOf(status) }, status);
  }
  console.error(JSON.stringify({ requestId, error: err.message, stack: err.stack }));
  return c.json({ error: `internal error (request id ${requestId})`, code: 'internal', requestId }, 500);
}
