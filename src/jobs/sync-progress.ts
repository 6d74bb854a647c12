import { z } from 'zod';

/**
 * Where a sync run stands against the shop (docs/sync.md "Progress"): `progress.done` counts
 * masters handled by the PIM, which says little while a slow shop takes its batches. These are
 * read from the run's checkpoint while it runs (`batchNo`, the position of the next batch, is the
 * number of batches the connector has acknowledged; the counts are the records its answers
 * reported) and from the report once it ended (the checkpoint is gone then).
 */
export const SyncProgressOut = z.object({
  batchNo: z.number().int().describe('Batches the connector has acknowledged so far (the position of the next batch)'),
  records: z
    .number()
    .int()
    .describe('Records the connector has answered for so far: created, updated, deactivated or already unchanged'),
});
export type SyncProgress = z.infer<typeof SyncProgressOut>;

/** The parts of a sync checkpoint (src/sync/sync-state.ts) and report this reads; both are JSON columns. */
interface CountsLike {
  created?: unknown;
  updated?: unknown;
  deactivated?: unknown;
  unchanged?: unknown;
}

const whole = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

/** Records the connector answered for: what it wrote plus what it already held as sent. */
export function recordsDone(counts: CountsLike): number {
  return whole(counts.created) + whole(counts.updated) + whole(counts.deactivated) + whole(counts.unchanged);
}

/**
 * A run's batch position and records done: from its checkpoint while it has one, else from its
 * report (`batches.sent` and the counts); null when neither is there yet (a queued run).
 */
export function syncProgressOf(checkpoint: unknown, report: unknown): SyncProgress | null {
  const cp = checkpoint as { batchNo?: unknown; counts?: CountsLike } | null;
  if (cp && typeof cp.batchNo === 'number')
    return { batchNo: whole(cp.batchNo), records: recordsDone(cp.counts ?? {}) };
  const done = report as (CountsLike & { batches?: { sent?: unknown } }) | null;
  if (done && typeof done.batches === 'object' && done.batches !== null)
    return { batchNo: whole(done.batches.sent), records: recordsDone(done) };
  return null;
}
