import { TargetError } from './target-error';

/**
 * The one HTTP client of every adapter: a timeout per request, retries of 429, 5xx and network
 * errors with exponential backoff (honouring `Retry-After`), and target errors in plain words
 * (never the credentials or the target's stack traces). Adapters add their own throttling on
 * top (Shopify's GraphQL cost budget) through `sleep`.
 */
export interface TargetHttpOptions {
  /** The fetch to use (tests pass one that answers per the target's contract). */
  fetch: typeof fetch;
  /** Waits between tries; tests pass one that records instead of sleeping. */
  sleep: (ms: number) => Promise<void>;
  /** Milliseconds before a request is abandoned as timed out. */
  timeoutMs?: number;
  /** Tries per request before a retryable failure is given up (the record is then retried by the connector later). */
  attempts?: number;
  /** Longest wait between tries, whatever the target asks for. */
  maxWaitMs?: number;
}

export interface TargetRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  /**
   * A request that makes something (a create): after a timeout, a lost connection or a 5xx the
   * shop may have run it, so it is not sent again blindly; `send` throws `OutcomeUnknown` and the
   * adapter looks up by its keys what the request made. Only a 429 (the shop ran nothing) is
   * sent again.
   */
  once?: boolean;
}

/**
 * A `once` request whose answer was lost: the shop may or may not have run it. Retryable as a
 * record's failure (the connector looks the record up by SKU before its next try).
 */
export class OutcomeUnknown extends TargetError {
  constructor(reason: string) {
    super(`${reason}; it may have been carried out`, true);
  }
}

export interface TargetHttp {
  /** Sends with retries; answers the last response of a non-retryable status (the caller reads its error), throws `TargetError` after the last retryable failure. */
  send(request: TargetRequest): Promise<Response>;
  sleep(ms: number): Promise<void>;
  /** Requests sent so far (the benchmark's requests per product). */
  readonly requests: number;
}

const RETRYABLE = (status: number) => status === 429 || status === 408 || status >= 500;

/** `Retry-After` in seconds or as an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function createTargetHttp(options: TargetHttpOptions): TargetHttp {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const attempts = options.attempts ?? 5;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  let requests = 0;
  const backoff = (attempt: number) => Math.min(maxWaitMs, 500 * 2 ** (attempt - 1));

  async function send(request: TargetRequest): Promise<Response> {
    let last: TargetError | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      requests++;
      let response: Response;
      try {
        response = await options.fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body ?? null,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
        const reason = timedOut
          ? `the shop did not answer within ${timeoutMs / 1000} s`
          : 'the shop could not be reached';
        if (request.once) throw new OutcomeUnknown(reason);
        last = new TargetError(reason, true);
        if (attempt < attempts) await options.sleep(backoff(attempt));
        continue;
      }
      if (!RETRYABLE(response.status)) return response;
      const wait = retryAfterMs(response.headers.get('Retry-After'));
      await response.body?.cancel().catch(() => undefined);
      if (request.once && response.status !== 429)
        throw new OutcomeUnknown(`the shop answered HTTP ${response.status}`);
      last = new TargetError(
        response.status === 429 ? 'the shop is rate limiting requests' : `the shop answered HTTP ${response.status}`,
        true,
        response.status,
        wait === null ? null : wait / 1000,
      );
      if (attempt < attempts) await options.sleep(Math.min(maxWaitMs, wait ?? backoff(attempt)));
    }
    throw last ?? new TargetError('the shop could not be reached', true);
  }

  return {
    send,
    sleep: options.sleep,
    get requests() {
      return requests;
    },
  };
}
