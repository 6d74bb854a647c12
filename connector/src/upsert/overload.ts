import { ConnectorError } from '../http/connector-error';

/** Upserts one isolate runs at once; more are refused with 429 so D1 is not queued up behind them. */
export const MAX_CONCURRENT_UPSERTS = 2;
const BUSY_RETRY_AFTER_SECONDS = 2;
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** A per-isolate counter of running upserts. */
class UpsertGate {
  private running = 0;
  constructor(readonly limit = MAX_CONCURRENT_UPSERTS) {}

  /** Runs `work` if a slot is free, else throws 429 with Retry-After. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      throw new ConnectorError(
        'rate_limited',
        'too many concurrent upserts; retry later',
        {},
        { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
      );
    }
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }

  get inUse(): number {
    return this.running;
  }
}

export const upsertGate = new UpsertGate();

// Messages D1 gives when it is overloaded or briefly unreachable; the batch did not commit.
const OVERLOAD_MARKERS = [
  'overloaded',
  'too many requests queued',
  'storage operation exceeded timeout',
  'network connection lost',
  'database is locked',
  'sqlite_busy',
  'internal error while starting up',
  'object to be reset',
];

function isOverloadError(err: unknown): boolean {
  const text = (err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : String(err)).toLowerCase();
  return OVERLOAD_MARKERS.some((marker) => text.includes(marker));
}

/** Turns a transient D1 failure into 503 with Retry-After; anything else passes through. */
export function asUnavailable(err: unknown): unknown {
  if (!isOverloadError(err)) return err;
  return new ConnectorError(
    'unavailable',
    'the shop store is busy; retry later',
    {},
    { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
  );
}
