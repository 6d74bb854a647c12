import { ConnectorError } from './connector-client';
import { sendBatch } from './batch-sender';
import { splitBatch } from './batch-split';
import { MAX_UPSERT_BODY_BYTES, type UpsertRecord, type UpsertResult } from './protocol/wire';
import {
  PLAN_LIST_CAP,
  recordsPerBatch,
  saveCheckpoint,
  type Cursors,
  type PendingBatch,
  type RunContext,
  type RunItem,
  type SyncCounts,
} from './sync-state';

/** Stops the slice: the job was cancelled or another delivery of it took over. */
export class SliceStopped extends Error {}

function batchBody(ctx: RunContext, batchId: string, records: UpsertRecord[]): string {
  return JSON.stringify({ batchId, dryRun: ctx.params.dryRun, records });
}

async function save(ctx: RunContext, items: RunItem[] = []): Promise<void> {
  if (!(await saveCheckpoint(ctx, items))) throw new SliceStopped();
}

/**
 * Sends the records of one batch position: split into bodies the connector accepts (at most
 * the protocol's bytes, docs/sync.md "Batches"), each written to R2 and all named in the
 * checkpoint first (write-ahead), then posted one after the other under consecutive batch
 * numbers. The cursors of `after` take effect once the last part is acknowledged. A 422
 * moves the named records to the quarantine and sends the rest under the next sub-id
 * (`<jobId>:<batchNo>:<round>`): the refused body was not stored by the connector, so no id
 * is ever reused for different bytes.
 */
export async function deliverBatch(
  ctx: RunContext,
  records: UpsertRecord[],
  after: Cursors,
  items: RunItem[],
): Promise<void> {
  const maxBytes = Math.min(ctx.deps.batchBytes ?? MAX_UPSERT_BODY_BYTES, MAX_UPSERT_BODY_BYTES);
  const { parts, oversize } = splitBatch(
    { jobId: ctx.jobId, firstNo: ctx.cp.batchNo, dryRun: ctx.params.dryRun },
    records,
    maxBytes,
    recordsPerBatch(ctx),
  );
  if (oversize.length > 0) {
    const reason = `the record is larger than the connector accepts in one request (${maxBytes} bytes as JSON)`;
    items = [...items, ...oversize.map((r): RunItem => ({ kind: 'quarantine', sku: r.sku, reason }))];
    const counts = { ...ctx.cp.counts, quarantined: ctx.cp.counts.quarantined + oversize.length };
    ctx.cp = { ...ctx.cp, counts };
    if (ctx.cp.plan) dropFromPlan(ctx, new Set(oversize.map((r) => r.sku)));
  }
  if (parts.length === 0) {
    ctx.cp = { ...ctx.cp, ...after };
    await save(ctx, items);
    return;
  }
  const named = parts.map((part, i) => ({
    batchId: part.batchId,
    key: `sync/${ctx.jobId}/batch-${ctx.cp.batchNo + i}.json`,
  }));
  for (const [i, part] of parts.entries())
    await ctx.deps.files.put(named[i]!.key, part.body, { httpMetadata: { contentType: 'application/json' } });
  ctx.cp = { ...ctx.cp, pending: { ...named[0]!, after, rest: named.slice(1) } };
  await save(ctx, items);
  await deliverPending(ctx, parts[0]!.body);
}

/** The next part of the pending batch position, or its cursors once the last part is done. */
function advance(ctx: RunContext, pending: PendingBatch, counts: SyncCounts): void {
  const [next, ...rest] = pending.rest ?? [];
  ctx.cp = next
    ? { ...ctx.cp, pending: { ...next, after: pending.after, rest }, batchNo: ctx.cp.batchNo + 1, counts }
    : { ...ctx.cp, ...pending.after, pending: null, batchNo: ctx.cp.batchNo + 1, counts };
}

/** Sends (or resends after a crash) the pending batch, part after part, until the connector took all. */
export async function deliverPending(ctx: RunContext, knownBody?: string): Promise<void> {
  let body = knownBody;
  while (ctx.cp.pending) {
    await deliverPart(ctx, ctx.cp.pending, body);
    body = undefined;
  }
}

async function deliverPart(ctx: RunContext, pending: PendingBatch, knownBody: string | undefined): Promise<void> {
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
      const items = acceptedItems(ctx, body, r);
      advance(ctx, pending, {
        ...counts,
        sent: counts.sent + 1,
        created: counts.created + r.created,
        updated: counts.updated + r.updated,
        deactivated: counts.deactivated + r.deactivated,
        quarantined: counts.quarantined + items.quarantined,
        ...(r.unchanged ? { unchanged: (counts.unchanged ?? 0) + r.unchanged } : {}),
        ...(items.changes ? { changes: (counts.changes ?? 0) + items.changes } : {}),
      });
      await save(ctx, items.rows);
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
      advance(ctx, pending, counts);
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

/** Fields (and resolved references by number) listed per product in a dry run's changes; more fields are counted in `moreFields`. */
const CHANGE_FIELDS_CAP = 20;

/**
 * What a real shop's 200 adds to the run (docs/shops.md "The PIM side"): the records it
 * refused (`failed`: not written, so quarantined with the shop's reason and sent again by the
 * next run) and, for a dry run, what each product would change (`changes`, the first
 * PLAN_LIST_CAP products of the run as working rows).
 */
function acceptedItems(ctx: RunContext, body: string, result: UpsertResult) {
  const rows: RunItem[] = [];
  let quarantined = 0;
  if (result.failed?.length) {
    const records = (JSON.parse(body) as { records: UpsertRecord[] }).records;
    const reasons = new Map<string, string>();
    for (const failure of result.failed) {
      const sku = records[failure.index]?.sku ?? failure.sku;
      if (!sku) continue;
      const reason = `${failure.field}: ${failure.error}`;
      const previous = reasons.get(sku);
      reasons.set(sku, (previous ? `${previous}; ${reason}` : reason).slice(0, 500));
    }
    for (const [sku, reason] of reasons) rows.push({ kind: 'quarantine', sku, reason });
    quarantined = reasons.size;
    if (ctx.cp.plan) dropFromPlan(ctx, new Set(reasons.keys()));
  }
  let changes = 0;
  if (ctx.params.dryRun && result.changes?.length) {
    const room = Math.max(0, PLAN_LIST_CAP - (ctx.cp.counts.changes ?? 0));
    for (const change of result.changes.slice(0, room)) {
      const fields = change.fields.slice(0, CHANGE_FIELDS_CAP);
      const more = change.fields.length - fields.length;
      const references = change.references?.slice(0, CHANGE_FIELDS_CAP);
      const reason = JSON.stringify({
        op: change.op,
        fields,
        ...(more > 0 ? { moreFields: more } : {}),
        ...(references?.length ? { references } : {}),
      });
      rows.push({ kind: 'change', sku: change.sku, reason });
    }
    changes = result.changes.length;
  }
  return { rows, quarantined, changes };
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
