import { loadProductAggregates } from '../model/product-aggregate';
import { ConnectorError, connectorFetch, describeFailure, withNetworkRetries } from './connector-client';
import { CategoryPaths, mediaRefs } from './batch-context';
import { categoryLinksOf } from './category-links';
import { InventoryReader } from './inventory-reader';
import { MasterReader, type MasterEntry } from './master-reader';
import { compareSkus } from './protocol/sku-order';
import type { InventoryLine, UpsertRecord } from './protocol/wire';
import { deliverBatch, SliceStopped } from './sync-deliver';
import {
  PLAN_LIST_CAP,
  recordsPerBatch,
  saveCheckpoint,
  type Cursors,
  type RunContext,
  type RunItem,
} from './sync-state';
import { Unsendable, wireProduct } from './wire-record';
import {
  addToTally,
  labelsOf,
  mergeLeftOut,
  noLeftOut,
  noteLeftOutVariants,
  withoutLeftOut,
  type LeftOutSince,
} from './sync-complete';

type Work = { op: 'create' | 'update'; master: MasterEntry };

/** Collected since the last save: what to send, what to remember, and where the cursors stand. */
interface Segment {
  work: Work[];
  items: RunItem[];
  skipped: number;
  /** A run limited to subtrees: SKUs only in the shop, kept there (not deactivated), since the last save. */
  kept: number;
  /** Masters and variants left out as incomplete (onlyComplete) and their missing labels, since the last save. */
  leftOut: LeftOutSince;
  cursors: Cursors;
}

function cursorsOf(ctx: RunContext): Cursors {
  const { pimAfter, invAfter, inventoryDone, deactivateAfter, done } = ctx.cp;
  return { pimAfter, invAfter, inventoryDone, deactivateAfter, done };
}

/**
 * Where a resumed join continues on both sides: the last SKU consumed in merged order. The
 * consumed items of both streams are a prefix of the merged order, so everything left is after
 * it; reading the inventory from `invAfter` instead would list the SKUs this run created since.
 */
function resumePoint(ctx: RunContext): string | null {
  const { pimAfter, invAfter } = ctx.cp;
  if (pimAfter === null) return invAfter;
  if (invAfter === null) return pimAfter;
  return compareSkus(pimAfter, invAfter) >= 0 ? pimAfter : invAfter;
}

async function openInventory(ctx: RunContext, after: string | null): Promise<InventoryReader> {
  const path = after === null ? '/inventory' : `/inventory?after=${encodeURIComponent(after)}`;
  const response = await withNetworkRetries(ctx.deps.sleep, 'GET /inventory', () =>
    connectorFetch(ctx.deps.fetcher, ctx.target, 'GET', path),
  );
  if (response.status !== 200)
    throw new ConnectorError(`the connector refused GET /inventory (${await describeFailure(response)})`);
  const reader = new InventoryReader(response, after);
  if (ctx.cp.invTotal === null) {
    // The shop holds nothing yet: every master with a SKU becomes a record (progress "N of M").
    const initial = reader.expected === 0 && ctx.cp.pimAfter === null && ctx.mastersTotal !== undefined;
    ctx.cp = { ...ctx.cp, invTotal: reader.expected, ...(initial ? { toSend: ctx.mastersTotal } : {}) };
  }
  return reader;
}

/** Builds the records of a segment's work; a record that cannot be mapped is quarantined instead. */
async function buildRecords(ctx: RunContext, work: Work[], items: RunItem[]): Promise<UpsertRecord[]> {
  if (work.length === 0) return [];
  const { db, files, mediaUrlKey } = ctx.deps;
  const aggregates = await loadProductAggregates(
    db,
    ctx.companyId,
    work.map((w) => w.master.id),
  );
  const byId = new Map(aggregates.map((a) => [a.product.id, a]));
  const paths = new CategoryPaths(db, ctx.companyId);
  await paths.load(aggregates.flatMap((a) => a.categoryIds));
  const categoryLinks = await categoryLinksOf(
    db,
    ctx.companyId,
    aggregates.flatMap((a) => a.categoryIds),
  );
  const refs = await mediaRefs({ db, files, mediaUrlKey }, aggregates, {
    baseUrl: ctx.params.baseUrl,
    expires: ctx.cp.expires,
    store: !ctx.params.dryRun,
  });
  const wireCtx = {
    index: ctx.index,
    defaultTaxCode: ctx.connection.options.defaultTaxCode,
    categoryPath: (id: string) => paths.path(id),
    categoryLinks: (id: string) => categoryLinks.get(id),
    mediaRef: (id: string) => refs.get(id),
  };
  const records: UpsertRecord[] = [];
  for (const { op, master } of work) {
    const aggregate = byId.get(master.id);
    // Deleted since it was read: the next run deactivates it in the shop.
    if (!aggregate || aggregate.product.sku !== master.sku) continue;
    try {
      const product = wireProduct(withoutLeftOut(aggregate, master.leftOut), wireCtx);
      records.push({ op, sku: master.sku, fingerprint: master.fingerprint, product });
    } catch (err) {
      if (!(err instanceof Unsendable)) throw err;
      items.push({ kind: 'quarantine', sku: master.sku, reason: err.message.slice(0, 500) });
    }
  }
  return records;
}

function addToPlan(ctx: RunContext, records: UpsertRecord[]): void {
  const plan = ctx.cp.plan;
  if (!plan) return;
  const next = { ...plan, create: [...plan.create], update: [...plan.update] };
  for (const r of records) {
    const list = r.op === 'create' ? next.create : next.update;
    if (list.length < PLAN_LIST_CAP) list.push(r.sku);
    else next.truncated = true;
  }
  ctx.cp = { ...ctx.cp, plan: next };
}

/**
 * At most one batch in flight while the join reads on and builds the next one: the PIM's reads
 * and record building overlap the connector's write of the previous batch. Nothing of the next
 * batch touches the checkpoint (or R2) before the previous one is acknowledged, so the
 * write-ahead order, the batch ids and the cursors are those of a strictly sequential run.
 */
class Sending {
  private current: Promise<void> | null = null;

  start(delivery: Promise<void>): void {
    // Awaited by `settle`; until then a failure must not surface as an unhandled rejection.
    delivery.catch(() => undefined);
    this.current = delivery;
  }

  /** Waits for the batch in flight; its failure (ConnectorError, SliceStopped) is thrown here. */
  async settle(): Promise<void> {
    const delivery = this.current;
    this.current = null;
    if (delivery) await delivery;
  }
}

/** Sends a segment (or just saves its cursors when nothing is to be sent). */
async function flush(ctx: RunContext, segment: Segment, sending: Sending): Promise<void> {
  const { work, skipped, kept } = segment;
  const items = [...segment.items];
  const cursors = { ...segment.cursors };
  const tally = ctx.cp.incomplete;
  if (tally && (segment.leftOut.incomplete > 0 || segment.leftOut.variants > 0))
    ctx.cp = { ...ctx.cp, incomplete: mergeLeftOut(tally, segment.leftOut) };
  segment.work = [];
  segment.items = [];
  segment.skipped = 0;
  segment.kept = 0;
  segment.leftOut = noLeftOut();
  const records = await buildRecords(ctx, work, items);
  await sending.settle();
  const quarantined = items.filter((i) => i.kind === 'quarantine').length;
  // An initial sync's total loses the masters of this segment that give no record and no
  // quarantine (left out as incomplete, deleted since read); the batch before it is settled, so
  // ctx.cp.done is where this segment began.
  const withoutRecord = cursors.done - ctx.cp.done - records.length - quarantined;
  const toSend = ctx.cp.toSend === undefined ? {} : { toSend: Math.max(0, ctx.cp.toSend - withoutRecord) };
  ctx.cp = {
    ...ctx.cp,
    ...toSend,
    ...(ctx.cp.subtree ? { subtree: { ...ctx.cp.subtree, keptInShop: ctx.cp.subtree.keptInShop + kept } } : {}),
    counts: {
      ...ctx.cp.counts,
      skipped: ctx.cp.counts.skipped + skipped,
      quarantined: ctx.cp.counts.quarantined + quarantined,
    },
  };
  addToPlan(ctx, records);
  if (records.length > 0) {
    sending.start(deliverBatch(ctx, records, cursors, items));
  } else {
    ctx.cp = { ...ctx.cp, ...cursors };
    if (!(await saveCheckpoint(ctx, items))) throw new SliceStopped();
  }
}

/**
 * The merge-join of the shop's inventory with the PIM's masters, both in SKU byte order:
 * only in the PIM → create, different fingerprint → update, equal → skip, only in the shop →
 * remembered for deactivation (sent later, once the whole inventory proved complete). A run
 * limited to subtrees (docs/teams.md "Syncs") reads their masters only: a SKU only in the shop
 * may be any product outside them, so it is kept and counted, never deactivated. Returns
 * true when both sides are exhausted, false when the slice's time ran out (checkpoint saved).
 */
export async function runJoin(ctx: RunContext, deadline: number): Promise<boolean> {
  const batchSize = recordsPerBatch(ctx);
  const after = resumePoint(ctx);
  const masters = new MasterReader(
    ctx.deps.db,
    ctx.companyId,
    ctx.connection.catalogId,
    after,
    !ctx.params.dryRun,
    undefined,
    ctx.channel,
    ctx.params.scopeCategoryIds ?? null,
  );
  const inventory = ctx.cp.inventoryDone ? null : await openInventory(ctx, after);
  const segment: Segment = {
    work: [],
    items: [],
    skipped: 0,
    kept: 0,
    leftOut: noLeftOut(),
    cursors: cursorsOf(ctx),
  };
  const partial = ctx.params.scopeCategoryIds !== undefined;
  const deactivate = ctx.connection.options.missing === 'deactivate' && !partial;
  const sending = new Sending();
  try {
    let head: InventoryLine | null = inventory ? await inventory.next() : null;
    if (inventory && head === null) segment.cursors.inventoryDone = true;
    const advanceInventory = async () => {
      segment.cursors.invAfter = head!.sku;
      head = await inventory!.next();
      if (head === null) segment.cursors.inventoryDone = true;
    };
    for (;;) {
      const master = await masters.peek();
      if (!master && !head) break;
      const order = master && head ? compareSkus(master.sku, head.sku) : master ? -1 : 1;
      if (order <= 0 && master!.missing) {
        // onlyComplete: neither created nor updated; a copy the shop has stays as it is there.
        segment.leftOut.incomplete++;
        addToTally(segment.leftOut.missing, labelsOf(master!.missing));
        if (order === 0) await advanceInventory();
      } else if (order < 0) {
        segment.work.push({ op: 'create', master: master! });
      } else if (order === 0) {
        if (master!.fingerprint === head!.fingerprint) segment.skipped++;
        else segment.work.push({ op: 'update', master: master! });
        await advanceInventory();
      } else {
        if (deactivate) segment.items.push({ kind: 'deactivate', sku: head!.sku, reason: head!.fingerprint });
        else if (partial) segment.kept++;
        await advanceInventory();
      }
      if (order <= 0) {
        if (master!.leftOut && !master!.missing) noteLeftOutVariants(segment.leftOut, master!.leftOut);
        segment.cursors.pimAfter = master!.sku;
        segment.cursors.done++;
        masters.advance();
      }
      if (segment.work.length >= batchSize || segment.items.length >= 1000) await flush(ctx, segment, sending);
      else if (Date.now() > deadline) {
        await flush(ctx, segment, sending);
        await sending.settle();
        return false;
      }
    }
    await flush(ctx, segment, sending);
    await sending.settle();
    return true;
  } finally {
    // After a failure, never leave a delivery running past the slice (its own error is secondary).
    await sending.settle().catch(() => undefined);
    await inventory?.cancel();
  }
}
