import type { RecordOutcome, TargetAdapter, TargetRecord, WriteContext } from '../adapters/target-adapter';

/**
 * How often a record the shop refused with a retryable reason (429, 5xx, timeout) is tried in
 * one request, and the first wait (doubled each round). Four rounds wait 1 + 2 + 4 = 7 s at
 * most: the PIM sets no timeout of its own on POST /upsert (src/sync/connector-client.ts) but
 * works in slices of SYNC_SLICE_MS (20 s), and a record still failing is reported in `failed`
 * and sent again by the next run, so waiting longer buys little.
 */
export interface RetryPolicy {
  rounds: number;
  firstWaitMs: number;
}
export const RECORD_RETRY: RetryPolicy = { rounds: 4, firstWaitMs: 1000 };

export interface FinalOutcome {
  target: TargetRecord;
  outcome: RecordOutcome;
}

interface ChunkDeps {
  adapter: TargetAdapter;
  ctx: WriteContext;
  policy: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  /** Commits the outcomes that are final after a round (mirror rows and batch progress). */
  commit: (finals: FinalOutcome[]) => Promise<void>;
}

const NO_OUTCOME = (index: number): RecordOutcome => ({
  index,
  ok: false,
  field: 'record',
  error: 'the shop adapter gave no outcome for the record',
  retryable: true,
});

/**
 * Writes one chunk through the adapter; retryable failures go again after a backoff, with
 * their ids looked up again (a first try may have created the product before it failed).
 * Each round's final outcomes are committed before the next round, so a crash loses nothing
 * already written. A `TargetError` thrown by the adapter (the whole shop is unreachable)
 * propagates.
 */
export async function writeChunk(chunk: TargetRecord[], deps: ChunkDeps): Promise<void> {
  let pending = chunk;
  for (let round = 1; pending.length > 0; round++) {
    const outcomes = new Map((await deps.adapter.write(pending, deps.ctx)).map((o) => [o.index, o]));
    const finals: FinalOutcome[] = [];
    const again: TargetRecord[] = [];
    for (const target of pending) {
      const outcome = outcomes.get(target.index) ?? NO_OUTCOME(target.index);
      if (outcome.ok || !outcome.retryable || round >= deps.policy.rounds) finals.push({ target, outcome });
      else again.push(target);
    }
    await deps.commit(finals);
    if (again.length === 0) return;
    await deps.sleep(deps.policy.firstWaitMs * 2 ** (round - 1));
    const lost = again.filter((t) => t.known === null).map((t) => t.record.sku);
    const found = lost.length > 0 ? await deps.adapter.findBySku(lost) : new Map();
    pending = again.map((t) => (t.known === null ? { ...t, known: found.get(t.record.sku) ?? null } : t));
  }
}
