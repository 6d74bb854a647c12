/**
 * How long a request holds a target batch without renewing it, and how often it renews. A
 * request renews the lease in the background while it writes, so only a request that died
 * (killed isolate, lost instance) keeps a batch from its retry, and for at most this long.
 */
export const BATCH_LEASE_MS = 30_000;
const RENEW_EVERY_MS = BATCH_LEASE_MS / 3;

/** The lease's end for a lease taken or renewed at `now`. */
function leaseUntil(now: Date): string {
  return new Date(now.getTime() + BATCH_LEASE_MS).toISOString();
}

/**
 * One request's lease on a target batch (connector migration 0006): taken in `MirrorStore.openBatch`,
 * renewed every 10 s while the request writes, given up when it stops without an answer (a
 * thrown error), so a retry of the same bytes resumes at once. `held` turns false when a renewal
 * finds the lease taken over (this request was stalled past its end); the writer then stops
 * before its next chunk.
 */
export class BatchLease {
  private timer: ReturnType<typeof setInterval> | null = null;
  held = true;

  constructor(
    private readonly db: D1Database,
    private readonly keyId: string,
    private readonly batchId: string,
    readonly owner: string,
  ) {}

  /** Renews the lease every RENEW_EVERY_MS until `stop`. */
  start(): void {
    this.timer = setInterval(() => {
      this.renew().catch(() => undefined);
    }, RENEW_EVERY_MS);
  }

  async renew(now = new Date()): Promise<boolean> {
    const result = await this.db
      .prepare(
        `UPDATE target_batches SET lease_until = ?4
         WHERE key_id = ?1 AND batch_id = ?2 AND lease_owner = ?3 AND answer IS NULL`,
      )
      .bind(this.keyId, this.batchId, this.owner, leaseUntil(now))
      .run();
    if (result.meta.changes === 0) this.held = false;
    return this.held;
  }

  /** Stops renewing; with `release`, frees the batch for a retry now (the request ends without an answer). */
  async stop({ release }: { release: boolean }): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!release) return;
    await this.db
      .prepare(
        `UPDATE target_batches SET lease_owner = NULL, lease_until = NULL
         WHERE key_id = ?1 AND batch_id = ?2 AND lease_owner = ?3`,
      )
      .bind(this.keyId, this.batchId, this.owner)
      .run();
  }
}

/** A record's final outcome in a batch under way, without its ids (those are in the mirror row). */
export type StoredOutcome =
  | { ok: true; action: 'created' | 'updated' | 'deactivated' | 'unchanged' }
  | { ok: false; field: string; error: string };

export interface MirrorBatch {
  bodySha256: string;
  /** The exact answer once the batch is finished; null while under way. */
  answer: string | null;
}

/** A batch as `openBatch` finds it: stored answer, outcomes so far, and the lease when this request holds it. */
export interface OpenedBatch {
  batch: MirrorBatch;
  outcomes: Map<number, StoredOutcome>;
  /** Null when another request holds an unexpired lease (or the batch is finished, or another body). */
  lease: BatchLease | null;
  /** When the other holder's lease runs out. */
  leaseEndsInMs: number;
}

/**
 * Starts a batch (or finds it under way) and answers it as stored, with the outcomes committed
 * so far and the lease, in one D1 transaction: taken for `owner` when the batch is unfinished,
 * has this body, and no other request holds an unexpired lease on it.
 */
export async function openBatch(
  db: D1Database,
  keyId: string,
  { batchId, bodySha256, now, owner }: { batchId: string; bodySha256: string; now: string; owner: string },
): Promise<OpenedBatch> {
  const until = leaseUntil(new Date(now));
  const [, , found, progress] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `INSERT OR IGNORE INTO target_batches (key_id, batch_id, body_sha256, received_at, lease_owner, lease_until)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
      )
      .bind(keyId, batchId, bodySha256, now, owner, until),
    db
      .prepare(
        `UPDATE target_batches SET lease_owner = ?4, lease_until = ?6
         WHERE key_id = ?1 AND batch_id = ?2 AND body_sha256 = ?3 AND answer IS NULL
           AND (lease_owner IS NULL OR lease_owner = ?4 OR lease_until IS NULL OR lease_until <= ?5)`,
      )
      .bind(keyId, batchId, bodySha256, owner, now, until),
    db
      .prepare(
        'SELECT body_sha256, answer, lease_owner, lease_until FROM target_batches WHERE key_id = ?1 AND batch_id = ?2',
      )
      .bind(keyId, batchId),
    db
      .prepare('SELECT idx, outcome FROM target_batch_records WHERE key_id = ?1 AND batch_id = ?2')
      .bind(keyId, batchId),
  ]);
  const row = found!.results[0] as {
    body_sha256: string;
    answer: string | null;
    lease_owner: string | null;
    lease_until: string | null;
  };
  const outcomes = new Map<number, StoredOutcome>(
    progress!.results.map((r) => [Number(r.idx), JSON.parse(String(r.outcome)) as StoredOutcome]),
  );
  const held = row.answer === null && row.lease_owner === owner;
  return {
    batch: { bodySha256: row.body_sha256, answer: row.answer },
    outcomes,
    lease: held ? new BatchLease(db, keyId, batchId, owner) : null,
    leaseEndsInMs: row.lease_until ? Math.max(0, Date.parse(row.lease_until) - Date.parse(now)) : 0,
  };
}
