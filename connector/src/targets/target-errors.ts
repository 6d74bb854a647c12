import { TargetError } from '../adapters/target-adapter';
import { ConnectorError } from '../http/connector-error';
import { MediaError } from '../media/media-bytes';

const RETRY_AFTER_SECONDS = 30;

/**
 * A shop's failure as the connector's answer: 502 with the adapter's plain reason, or 503 with
 * Retry-After when the shop is only unavailable for now and the PIM's retry of the same batch
 * will resume it (`retryable`). Anything else (a bug) passes through to the generic 500.
 */
export function asTargetFailure(err: unknown, { retryable }: { retryable: boolean }): unknown {
  if (!(err instanceof TargetError) && !(err instanceof MediaError)) return err;
  if (retryable && err instanceof TargetError && err.retryable) {
    const wait = Math.max(1, Math.ceil(err.retryAfterSeconds ?? RETRY_AFTER_SECONDS));
    return new ConnectorError(
      'unavailable',
      `the shop is unavailable: ${err.message}`,
      {},
      { 'Retry-After': String(wait) },
    );
  }
  return new ConnectorError('bad_gateway', `the shop refused: ${err.message}`);
}
