import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The closed set of failure kinds; each maps to exactly one HTTP status. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case 'bad_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'conflict':
      return 409;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'rate_limited':
      return 429;
    case 'internal':
      return 500;
    case 'unavailable':
      return 503;
  }
}

/**
 * The one error type of the service. Domain functions, routes and middleware throw it;
 * `renderError` turns it into `{"error": message, "code": ...}` with the mapped status.
 */
export class AppError extends HTTPException {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(statusOf(code), { message });
    this.code = code;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const unauthorized = (message = 'authentication required', headers: Record<string, string> = {}) =>
  new AppError('unauthorized', message, headers);
