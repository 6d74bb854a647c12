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
  recordsTotal: z
    .number()
    .int()
    .optional()
    .describe(
      'Records the run will have answered for at its end (`records` of `recordsTotal`), once known: from the start of an initial sync (the shop held nothing), else from the end of the merge-join; absent before',
    ),
});
export type SyncProgress = z.infer<typeof SyncProgressOut>;

/** The parts of a sync checkpoint (src/sync/sync-state.ts) and report this reads; both are JSON columns. */
interface CountsLike {
  created?: unknown;
  updated?: unknown;
  deactivated?: unknown;
  unchanged?: unknown;
  quarantined?: unknown;
}

const whole = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

/** Records the connector answered for: what it wrote plus what it already held as sent. */
export function recordsDone(counts: CountsLike): number {
  return whole(counts.created) + whole(counts.updated) + whole(counts.deactivated) + whole(counts.unchanged);
}

/**
 * A run's batch position and records done: from its checkpoint while it has one, else from its
 * report (`batches.sent` and the counts); null when neither is there yet (a queued run). The
 * checkpoint's `toSend` (src/sync/sync-state.ts) counts the quarantined records too, which the
 * connector never answers for: `recordsTotal` is it less those quarantined so far, so `records`
 * reaches it when the run ends. A finished run's total is its records.
 */
export function syncProgressOf(checkpoint: unknown, report: unknown): SyncProgress | null {
  const cp = checkpoint as { batchNo?: unknown; counts?: CountsLike; toSend?: unknown } | null;
  if (cp && typeof cp.batchNo === 'number') {
    const records = recordsDone(cp.counts ?? {});
    const known = typeof cp.toSend === 'number' && Number.isInteger(cp.toSend);
    const total = known ? Math.max(records, whole(cp.toSend) - whole(cp.counts?.quarantined)) : null;
    return { batchNo: whole(cp.batchNo), records, ...(total === null ? {} : { recordsTotal: total }) };
  }
  const done = report as (CountsLike & { batches?: { sent?: unknown } }) | null;
  if (done && typeof done.batches === 'object' && done.batches !== null) {
    const records = recordsDone(done);
    return { batchNo: whole(done.batches.sent), records, recordsTotal: records };
  }
  return null;
}
