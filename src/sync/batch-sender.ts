import {
  connectorFetch,
  ConnectorError,
  describeFailure,
  type ConnectorTarget,
  type Fetcher,
} from './connector-client';
import { upsertRejectionSchema, upsertResultSchema, type UpsertFailure, type UpsertResult } from './protocol/wire';

/** Tries per batch before the run gives up on an overloaded or unreachable connector. */
const MAX_SEND_ATTEMPTS = 6;
/** Longest wait between tries, whatever `Retry-After` asks for. */
const MAX_RETRY_WAIT_MS = 60_000;

interface SendDeps {
  fetcher: Fetcher;
  /** Waits between tries; tests pass one that records the delay instead of sleeping. */
  sleep: (ms: number) => Promise<void>;
}

type SendOutcome =
  | { kind: 'ok'; result: UpsertResult; retries: number }
  | { kind: 'rejected'; failures: UpsertFailure[]; error: string; retries: number };

/** `Retry-After` in seconds or as an HTTP date, in ms; null when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function backoffMs(attempt: number): number {
  return Math.min(MAX_RETRY_WAIT_MS, 1000 * 2 ** (attempt - 1));
}

/**
 * POSTs one /upsert body, retrying 429, 503 (and other 5xx) and network errors with backoff,
 * honouring `Retry-After`. A retry sends the very same bytes under the same batchId, so a
 * batch the connector did commit before an answer was lost is answered from its replay store.
 * 422 is returned to the caller (quarantine); anything else ends the run with a clear reason.
 */
export async function sendBatch(deps: SendDeps, target: ConnectorTarget, body: string): Promise<SendOutcome> {
  let lastProblem = '';
  for (let attempt = 1; attempt <= MAX_SEND_ATTEMPTS; attempt++) {
    let response: Response | null = null;
    try {
      response = await connectorFetch(deps.fetcher, target, 'POST', '/upsert', { body });
    } catch (err) {
      lastProblem = `network error: ${(err as Error)?.message ?? String(err)}`.slice(0, 200);
    }
    if (response) {
      const retries = attempt - 1;
      if (response.status === 200) {
        const parsed = upsertResultSchema.safeParse(await response.json().catch(() => null));
        if (!parsed.success) throw new ConnectorError('the connector answered POST /upsert with an unexpected body');
        return { kind: 'ok', result: parsed.data, retries };
      }
      if (response.status === 422) {
        const parsed = upsertRejectionSchema.safeParse(await response.json().catch(() => null));
        if (!parsed.success)
          throw new ConnectorError('the connector refused a batch (422) without naming the failing records');
        return { kind: 'rejected', failures: parsed.data.failures, error: parsed.data.error, retries };
      }
      if (response.status !== 429 && response.status < 500) {
        throw new ConnectorError(`the connector refused POST /upsert (${await describeFailure(response)})`);
      }
      lastProblem = `HTTP ${response.status}`;
      if (attempt < MAX_SEND_ATTEMPTS) {
        const wait = retryAfterMs(response.headers.get('Retry-After')) ?? backoffMs(attempt);
        await response.body?.cancel().catch(() => undefined);
        await deps.sleep(Math.min(MAX_RETRY_WAIT_MS, wait));
        continue;
      }
      await response.body?.cancel().catch(() => undefined);
    } else if (attempt < MAX_SEND_ATTEMPTS) {
      await deps.sleep(backoffMs(attempt));
    }
  }
  throw new ConnectorError(
    `the connector did not take a batch after ${MAX_SEND_ATTEMPTS} tries (last: ${lastProblem})`,
  );
}
