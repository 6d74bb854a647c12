/** A target's answer that is not a single record's problem; `retryable` for 429, 5xx and timeouts. */
export class TargetError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
    /** Seconds the target asked to wait (Retry-After, throttle restore), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}
