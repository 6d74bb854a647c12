/**
 * How long a request holds a target batch without renewing it, and how often it renews. A
 * request renews the lease in the background while it writes, so only a request that died
 * (killed isolate, lost instance) keeps a batch from its retry, and for at most this long.
 */
export const BATCH_LEASE_MS = 30_000;
const RENEW_EVERY_MS = BATCH_LEASE_MS / 3;

/** The lease's end for a lease taken or renewed at `now`. */
export function leaseUntil(now: Date): string {
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
