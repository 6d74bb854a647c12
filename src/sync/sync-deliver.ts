import { ConnectorError } from './connector-client';
import { sendBatch } from './batch-sender';
import type { UpsertRecord } from './protocol/wire';
import { saveCheckpoint, type Cursors, type RunContext, type RunItem } from './sync-state';

/** Stops the slice: the job was cancelled or another delivery of it took over. */
export class SliceStopped extends Error {}

function batchBody(ctx: RunContext, batchId: string, records: UpsertRecord[]): string {
  return JSON.stringify({ batchId, dryRun: ctx.params.dryRun, records });
}

async function save(ctx: RunContext, items: RunItem[] = []): Promise<void> {
  if (!(await saveCheckpoint(ctx, items))) throw new SliceStopped();
}

/**
 * Sends the records of one batch position: written to R2 and named in the checkpoint first
 * (write-ahead), then posted. On success the cursors of `after` take effect. A 422 moves the
 * named records to the quarantine and sends the rest under the next sub-id
 * (`<jobId>:<batchNo>:<round>`): the refused body was not stored by the connector, so no id
 * is ever reused for different bytes.
 */
export async function deliverBatch(
  ctx: RunContext,
  records: UpsertRecord[],
  after: Cursors,
  items: RunItem[],
): Promise<void> {
  const batchId = `${ctx.jobId}:${ctx.cp.batchNo}`;
  const key = `sync/${ctx.jobId}/batch-${ctx.cp.batchNo}.json`;
  const body = batchBody(ctx, batchId, records);
  await ctx.deps.files.put(key, body, { httpMetadata: { contentType: 'application/json' } });
  ctx.cp = { ...ctx.cp, pending: { batchId, key, after } };
  await save(ctx, items);
  await deliverPending(ctx, body);
}

/** Sends (or resends after a crash) the pending batch until the connector takes it. */
export async function deliverPending(ctx: RunContext, knownBody?: string): Promise<void> {
  const pending = ctx.cp.pending;
  if (!pending) return;
  let body = knownBody;
  if (body === undefined) {
    const object = await ctx.deps.files.get(pending.key);
    if (!object) throw new ConnectorError('the pending batch of this run is missing from storage; start a new run');
    body = await object.text();
  }
  let batchId = pending.batchId;
  for (;;) {
    const outcome = await sendBatch(ctx.deps, ctx.target, body);
    const counts = { ...ctx.cp.counts, retried: ctx.cp.counts.retried + outcome.retries };
    if (outcome.kind === 'ok') {
      const r = outcome.result;
      ctx.cp = {
        ...ctx.cp,
        ...pending.after,
        pending: null,
        batchNo: ctx.cp.batchNo + 1,
        counts: {
          ...counts,
          sent: counts.sent + 1,
          created: counts.created + r.created,
          updated: counts.updated + r.updated,
          deactivated: counts.deactivated + r.deactivated,
        },
      };
      await save(ctx);
      await ctx.deps.files.delete(pending.key);
      return;
    }
    const records = (JSON.parse(body) as { records: UpsertRecord[] }).records;
    const failed = new Map<number, string>();
    for (const failure of outcome.failures) {
      if (Number.isInteger(failure.index) && failure.index >= 0 && failure.index < records.length) {
        const previous = failed.get(failure.index);
        const reason = `${failure.field}: ${failure.error}`.slice(0, 500);
        failed.set(failure.index, previous ? `${previous}; ${reason}`.slice(0, 500) : reason);
      }
    }
    if (failed.size === 0)
      throw new ConnectorError(
        `the connector refused a batch (422: ${outcome.error.slice(0, 200)}) without naming a record of it`,
      );
    const quarantine: RunItem[] = [...failed].map(([index, reason]) => ({
      kind: 'quarantine',
      sku: records[index]!.sku,
      reason,
    }));
    const rest = records.filter((_, index) => !failed.has(index));
    counts.quarantined += quarantine.length;
    if (ctx.cp.plan) dropFromPlan(ctx, new Set(quarantine.map((q) => q.sku)));
    if (rest.length === 0) {
      ctx.cp = { ...ctx.cp, ...pending.after, pending: null, batchNo: ctx.cp.batchNo + 1, counts };
      await save(ctx, quarantine);
      await ctx.deps.files.delete(pending.key);
      return;
    }
    const round = Number(batchId.split(':')[2] ?? 0);
    batchId = `${ctx.jobId}:${ctx.cp.batchNo}:${round + 1}`;
    body = batchBody(ctx, batchId, rest);
    await ctx.deps.files.put(pending.key, body, { httpMetadata: { contentType: 'application/json' } });
    ctx.cp = { ...ctx.cp, pending: { ...pending, batchId }, counts };
    await save(ctx, quarantine);
  }
}

function dropFromPlan(ctx: RunContext, skus: Set<string>): void {
  const plan = ctx.cp.plan!;
  ctx.cp = {
    ...ctx.cp,
    plan: {
      ...plan,
      create: plan.create.filter((s) => !skus.has(s)),
      update: plan.update.filter((s) => !skus.has(s)),
      deactivate: plan.deactivate.filter((s) => !skus.has(s)),
    },
  };
}
