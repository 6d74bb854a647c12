import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError } from './app-error';

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
    return c.json({ error: message }, status);
  }
  console.error(JSON.stringify({ requestId, error: err.message, stack: err.stack }));
  return c.json({ error: `internal error (request id ${requestId})`, code: 'internal', requestId }, 500);
}
