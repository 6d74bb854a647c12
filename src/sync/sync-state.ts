import { and, eq, sql } from 'drizzle-orm';
import { chunkForInsert, runBatch, type BatchStatement, type Database } from '../db/client';
import { jobs, syncRunItems } from '../db/schema';
import type { JobMessage } from '../env';
import { progressed } from '../jobs/lease';
import type { ConnectorTarget, Fetcher } from './connector-client';
import type { ConnectionRow } from './connections';
import type { IncompleteTally, SyncChannel } from './sync-complete';
import type { MappingIndex } from './wire-record';
import { MAX_BATCH_RECORDS } from './protocol/wire';

/** What StartSync (or the Cron Trigger) stored in the job row. */
export interface SyncParams {
  connectionId: string;
  dryRun: boolean;
  confirmDeactivations: boolean;
  /** Origin of the PIM for the signed media URLs. */
  baseUrl: string;
  /**
   * A run of a member limited to category subtrees (docs/teams.md "Syncs"): the roots of the
   * subtrees whose masters it reads; the shop's other SKUs are kept, never deactivated.
   */
  scopeCategoryIds?: string[];
}

export interface SyncCounts {
  created: number;
  updated: number;
  skipped: number;
  deactivated: number;
  quarantined: number;
  sent: number;
  retried: number;
  /** A real shop already held these as sent (the answer's `unchanged`); absent in older checkpoints. */
  unchanged?: number;
  /** Dry runs against a real shop: products with a change listed (the answer's `changes`). */
  changes?: number;
}

/** A batch written to R2 before it is sent, so a resumed run resends the very same bytes. */
export interface PendingBatch {
  batchId: string;
  key: string;
  /** Cursors that hold once this batch (and every part in `rest`) is acknowledged. */
  after: Cursors;
  /**
   * The further parts of the same batch position, already in R2, sent next under the
   * following batch numbers (a batch over the connector's byte limit is split).
   */
  rest?: { batchId: string; key: string }[];
}

/** The R2 keys of a pending batch position: the part in flight and those after it. */
export function pendingKeys(pending: PendingBatch | null | undefined): string[] {
  return pending ? [pending.key, ...(pending.rest ?? []).map((part) => part.key)] : [];
}

export interface Cursors {
  /** Last PIM master SKU handled (sent, skipped or quarantined). */
  pimAfter: string | null;
  /** Last inventory SKU handled. */
  invAfter: string | null;
  /** The inventory was read to its verified end. */
  inventoryDone: boolean;
  /** Last SKU deactivated (phase `deactivate`). */
  deactivateAfter: string | null;
  /** Masters handled so far (progress). */
  done: number;
}

/** Where a sync run continues: kept in `jobs.checkpoint`, saved after every batch. */
export interface SyncCheckpoint extends Cursors {
  /** Increases with every save; a save only lands on the sequence it loaded (one runner at a time). */
  seq: number;
  phase: 'join' | 'deactivate' | 'finish';
  /** Signed media URLs of this run expire then (Unix seconds): fixed so a rebuilt batch is byte-identical. */
  expires: number;
  /** X-Inventory-Count of the first inventory answer: the guardrail's 100 %. */
  invTotal: number | null;
  /** Position of the next batch: its batchId is `<jobId>:<batchNo>`. */
  batchNo: number;
  pending: PendingBatch | null;
  counts: SyncCounts;
  /** Dry runs: SKUs per operation, capped at PLAN_LIST_CAP each. */
  plan: { create: string[]; update: string[]; deactivate: string[]; truncated: boolean } | null;
  deactivationsRefused?: number;
  /** With onlyComplete (sync-complete.ts): masters left out as incomplete for the channel, and what they lack. */
  incomplete?: IncompleteTally;
  /** With a shop: the version of the settings sent with PUT /target (connection-shop.ts), sent again when it changes. */
  targetVersion?: string;
  /**
   * The records this run hands the connector, the quarantined ones included, once known
   * (src/jobs/sync-progress.ts `recordsTotal`): from the start of an initial sync (the shop's
   * inventory was empty: every master with a SKU is a create), less the masters settled without
   * a record (left out, deleted since read); else from the end of the join (the records so far
   * plus the deactivations planned). Absent while unknown.
   */
  toSend?: number;
  /** A run limited to subtrees (`SyncParams.scopeCategoryIds`): their roots, and the SKUs of the shop it did not read, kept there. */
  subtree?: { categoryIds: string[]; keptInShop: number };
}

export const PLAN_LIST_CAP = 1000;

export interface SyncDeps {
  db: Database;
  files: R2Bucket;
  queue: Queue<JobMessage>;
  fetcher: Fetcher;
  sleep: (ms: number) => Promise<void>;
  encryptionKey: string | undefined;
  mediaUrlKey: string | undefined;
  /** Wall-clock budget of one invocation before the run continues in a new queue message. */
  sliceMs: number;
  /** Records per batch (at most the protocol's 1000; tests use fewer). */
  batchSize?: number;
  /** Bytes per /upsert body (at most the protocol's MAX_UPSERT_BODY_BYTES; tests use fewer). */
  batchBytes?: number;
}

/** Everything one slice of a run works with. */
export interface RunContext {
  deps: SyncDeps;
  jobId: string;
  companyId: string;
  params: SyncParams;
  connection: ConnectionRow;
  target: ConnectorTarget;
  index: MappingIndex;
  cp: SyncCheckpoint;
  startedAt: number;
  /** With onlyComplete: the channel whose incomplete masters the run leaves out. */
  channel: SyncChannel | null;
  /** Most records per POST /upsert the shop asks for (X-Max-Batch-Records, cached with the mappings). */
  maxBatchRecords: number;
  /** Masters with a SKU when the run started (the job's progress total): an initial sync's records to send. */
  mastersTotal?: number;
}

/** Records per batch: the deployment's setting, the protocol's limit and the shop's own, whichever is least. */
export function recordsPerBatch(ctx: Pick<RunContext, 'deps' | 'maxBatchRecords'>): number {
  return Math.min(ctx.deps.batchSize ?? MAX_BATCH_RECORDS, MAX_BATCH_RECORDS, ctx.maxBatchRecords);
}

/** A working row of the run: quarantined, to deactivate, or (dry run) what would change (`reason` = `{op, fields}` JSON). */
export type RunItem = { kind: 'quarantine' | 'deactivate' | 'change'; sku: string; reason: string | null };

function itemInserts(db: Database, jobId: string, items: RunItem[]): BatchStatement[] {
  return chunkForInsert(items, 4).map((chunk) =>
    db
      .insert(syncRunItems)
      .values(chunk.map((item) => ({ jobId, ...item })))
      .onConflictDoUpdate({
        target: [syncRunItems.jobId, syncRunItems.kind, syncRunItems.sku],
        set: { reason: sql`excluded.reason` },
      }),
  );
}

/**
 * Saves the checkpoint together with the run's new quarantine and deactivation rows, in one
 * transaction. Lands only if the job is still running and nobody saved since this runner
 * loaded (`seq`); false means stop: the job was cancelled or another delivery took over.
 */
export async function saveCheckpoint(ctx: RunContext, items: RunItem[] = []): Promise<boolean> {
  const { db } = ctx.deps;
  const loaded = ctx.cp.seq;
  const next: SyncCheckpoint = { ...ctx.cp, seq: loaded + 1 };
  const update = db
    .update(jobs)
    .set({ checkpoint: next, progressDone: next.done, ...progressed() })
    .where(
      and(
        eq(jobs.id, ctx.jobId),
        eq(jobs.state, 'running'),
        loaded < 0 ? sql`${jobs.checkpoint} IS NULL` : sql`json_extract(${jobs.checkpoint}, '$.seq') = ${loaded}`,
      ),
    )
    .returning({ id: jobs.id });
  const results = await runBatch(db, [update, ...itemInserts(db, ctx.jobId, items)]);
  const landed = (results[0] as { id: string }[]).length > 0;
  if (landed) ctx.cp = next;
  return landed;
}
