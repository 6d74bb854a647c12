import { AppError } from '../kernel/app-error';
import { resourceMetadataUrlOf } from './config';

/** Removes what a quoted-string in a challenge cannot carry. */
const quotable = (text: string) =>
  text
    .replace(/["\\]/g, '')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();

/**
 * The RFC 6750 `WWW-Authenticate` value with the RFC 9728 `resource_metadata` pointer, so a
 * client that only knows our URL can discover the authorization server from any 401 or 403.
 */
function bearerChallenge(
  origin: string,
  options: { scope: string; error?: 'invalid_token' | 'insufficient_scope'; description?: string },
): string {
  let value = `Bearer realm="pim", resource_metadata="${resourceMetadataUrlOf(origin)}", scope="${options.scope}"`;
  if (options.error) value += `, error="${options.error}"`;
  if (options.description) value += `, error_description="${quotable(options.description)}"`;
  return value;
}

/** 401 for a missing, expired, invalid or revoked bearer token. */
export function bearerUnauthorized(origin: string, scope: string, message: string, withError = true): AppError {
  const header = bearerChallenge(
    origin,
    withError ? { scope, error: 'invalid_token', description: message } : { scope },
  );
  return new AppError('unauthorized', message, { 'WWW-Authenticate': header });
}

/** 403 for a valid token that lacks the scope the operation needs (RFC 6750 section 3.1). */
export function insufficientScope(origin: string, scope: string): AppError {
  const message = `this operation needs the scope ${scope}`;
  return new AppError('forbidden', message, {
    'WWW-Authenticate': bearerChallenge(origin, { scope, error: 'insufficient_scope', description: message }),
  });
}
