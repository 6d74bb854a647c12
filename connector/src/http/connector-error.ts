import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

type ConnectorErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'bad_gateway'
  | 'unavailable';

export function statusOf(code: ConnectorErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'bad_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unprocessable':
      return 422;
    case 'rate_limited':
      return 429;
    case 'bad_gateway':
      return 502;
    case 'unavailable':
      return 503;
  }
}

/**
 * The connector's one error type: routes and domain functions throw it, `renderError` answers
 * `{"error": message, ...extra}` with the mapped status and headers (e.g. Retry-After).
 */
export class ConnectorError extends HTTPException {
  constructor(
    readonly code: ConnectorErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(statusOf(code), { message });
  }
}

/** Unknown errors are logged and answered with a generic 500 that leaks no internals. */
export function renderError(err: Error, c: Context): Response {
  if (err instanceof ConnectorError) return c.json({ error: err.message, ...err.extra }, err.status, err.headers);
  if (err instanceof HTTPException) {
    const message = err.status === 413 ? 'request body too large' : err.message || 'request failed';
    return c.json({ error: message }, err.status);
  }
  const requestId = crypto.randomUUID();
  console.error(JSON.stringify({ requestId, error: err.message, stack: err.stack }));
  return c.json({ error: `internal error (request id ${requestId})` }, 500);
}
