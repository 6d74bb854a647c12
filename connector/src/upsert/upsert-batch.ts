import { MAX_BATCH_RECORDS, type UpsertFailure, type UpsertRecord } from '../../../src/sync/protocol/wire';
import { ConnectorError } from '../http/connector-error';
import { planImages } from '../media/plan-images';
import { BatchAlreadyStored, type ShopStore, type StoredBatch } from '../store/shop-store';
import { validateBatch } from './validate-batch';

export interface UpsertInput {
  batchId: string;
  dryRun: boolean;
  /** The records as received; each is validated on its own so a failure names its index. */
  records: unknown[];
  /** SHA-256 of the exact request body: a replayed batchId must carry the same bytes. */
  bodySha256: string;
}

export interface UpsertOutcome {
  /** The JSON answer, byte for byte the one stored with the batch. */
  answer: string;
  replayed: boolean;
  /** Image hashes to queue for fetching now that the batch is committed. */
  imagesToFetch: string[];
}

export function replayOrConflict(stored: StoredBatch, bodySha256: string): UpsertOutcome {
  if (stored.bodySha256 !== bodySha256) {
    throw new ConnectorError('conflict', 'this batchId was already used for a different batch');
  }
  return { answer: stored.answer, replayed: true, imagesToFetch: [] };
}

function countOps(records: UpsertRecord[]) {
  const counts = { created: 0, updated: 0, deactivated: 0 };
  for (const record of records) {
    if (record.op === 'create') counts.created++;
    else if (record.op === 'update') counts.updated++;
    else counts.deactivated++;
  }
  return counts;
}

export function checkBatchSize(input: UpsertInput): void {
  if (input.records.length > MAX_BATCH_RECORDS) {
    throw new ConnectorError(
      'payload_too_large',
      `a batch carries at most ${MAX_BATCH_RECORDS} records, this one ${input.records.length}`,
    );
  }
}

/** 422 naming every refused record; nothing is written. */
export function refuseBatch(failures: UpsertFailure[]): never {
  throw new ConnectorError('unprocessable', `${failures.length} record(s) cannot be stored; nothing was written`, {
    failures,
  });
}

/**
 * One POST /upsert (docs/sync.md, "Connector protocol"): all records or none, idempotent per
 * batchId, nothing written for a dry run or a refused batch.
 */
export async function upsertBatch(store: ShopStore, input: UpsertInput, now = new Date()): Promise<UpsertOutcome> {
  checkBatchSize(input);
  if (!input.dryRun) {
    const stored = await store.findBatch(input.batchId);
    if (stored) return replayOrConflict(stored, input.bodySha256);
  }
  const { records, failures } = await validateBatch(store, input.records);
  if (failures.length > 0) refuseBatch(failures);
  const counts = countOps(records);
  const answer = JSON.stringify({ batchId: input.batchId, dryRun: input.dryRun, ...counts });
  if (input.dryRun) return { answer, replayed: false, imagesToFetch: [] };

  const media = await planImages(store, records, now);
  try {
    await store.applyBatch({
      batchId: input.batchId,
      bodySha256: input.bodySha256,
      answer,
      counts,
      records,
      media,
      now: now.toISOString(),
    });
  } catch (err) {
    if (!(err instanceof BatchAlreadyStored)) throw err;
    const stored = await store.findBatch(input.batchId);
    if (!stored) throw err;
    return replayOrConflict(stored, input.bodySha256);
  }
  return { answer, replayed: false, imagesToFetch: media.filter((m) => m.queue).map((m) => m.sha256) };
}
