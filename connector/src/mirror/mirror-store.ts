import type { ConnectorStatus, InventoryLine, Product, UpsertRecord } from '../../../src/sync/protocol/wire';
import type { RecordOutcome, TargetIds } from '../adapters/target-adapter';
import { jsonChunks } from '../store/json-chunks';
import { type MirrorBatch, type OpenedBatch, openBatch, type StoredOutcome } from './batch-lease';
import type { ProductState } from '../store/shop-store';

/** The inventory queries; both stay on target_products_inventory_idx (test/targets-mirror.test.ts checks the plan). */
export const MIRROR_COUNT_SQL =
  'SELECT count(*) AS n FROM target_products WHERE key_id = ?1 AND active = 1 AND sku > ?2';
export const MIRROR_PAGE_SQL =
  'SELECT sku, fingerprint FROM target_products WHERE key_id = ?1 AND active = 1 AND sku > ?2 ORDER BY sku LIMIT ?3';

/** What the connector last wrote to the target for one SKU. */
export interface MirrorRow {
  sku: string;
  fingerprint: string;
  active: boolean;
  /** Null when the product was deleted from the target (onDeactivate: delete). */
  ids: TargetIds | null;
  product: Product | null;
}

/** One record's final outcome to commit, with the mirror row it leaves (successes only). */
export interface CommittedOutcome {
  index: number;
  record: UpsertRecord;
  outcome: RecordOutcome;
}

/** A committed record's mirror row (exported for bench/connector-mirror.ts, which times its triggers). */
export const MIRROR_UPSERT_SQL = `
INSERT INTO target_products (key_id, sku, fingerprint, active, ids, product, updated_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
ON CONFLICT (key_id, sku) DO UPDATE SET fingerprint = excluded.fingerprint, active = excluded.active,
  ids = excluded.ids, product = excluded.product, updated_at = excluded.updated_at`;

// A deactivation keeps the fingerprint and the product last written (a reactivation is diffed
// against it); the ids are the adapter's answer (null once deleted from the target).
const DEACTIVATE_ROW = `
UPDATE target_products SET active = 0, ids = ?3, updated_at = ?4 WHERE key_id = ?1 AND sku = ?2`;

const INSERT_OUTCOME = `
INSERT OR REPLACE INTO target_batch_records (key_id, batch_id, idx, outcome) VALUES (?1, ?2, ?3, ?4)`;

/** Active masters carrying a manufacturer number, on the master or a variant (`target_mpns`, migration 0005). */
export const MIRROR_MPN_SQL = `SELECT mpn, sku FROM target_mpns
  WHERE key_id = ?1 AND mpn IN (SELECT value FROM json_each(?2))`;

/** Whether a product refers to another by manufacturer number (its row then goes after the carriers it may follow). */
function refersByNumber(record: UpsertRecord): boolean {
  return record.op !== 'deactivate' && (record.product.references ?? []).some((r) => r.targetKind === 'mpn');
}

/**
 * The connector's mirror of one key's target in D1 (migration 0001): the inventory the PIM
 * diffs against, the ids and products adapters write from, and the batches against the target
 * with their progress.
 */
export class MirrorStore {
  constructor(
    private readonly db: D1Database,
    readonly keyId: string,
  ) {}

  async inventoryCount(after: string | null): Promise<number> {
    const row = await this.db
      .prepare(MIRROR_COUNT_SQL)
      .bind(this.keyId, after ?? '')
      .first<{ n: number }>();
    return row?.n ?? 0;
  }

  async inventoryPage(after: string | null, limit: number): Promise<InventoryLine[]> {
    const { results } = await this.db
      .prepare(MIRROR_PAGE_SQL)
      .bind(this.keyId, after ?? '', limit)
      .all<InventoryLine>();
    return results.map((r) => ({ sku: r.sku, fingerprint: r.fingerprint }));
  }

  async rows(skus: string[]): Promise<Map<string, MirrorRow>> {
    const rows = new Map<string, MirrorRow>();
    for (const chunk of jsonChunks(skus)) {
      const { results } = await this.db
        .prepare(
          `SELECT sku, fingerprint, active, ids, product FROM target_products
           WHERE key_id = ?1 AND sku IN (SELECT value FROM json_each(?2))`,
        )
        .bind(this.keyId, chunk)
        .all<{ sku: string; fingerprint: string; active: number; ids: string | null; product: string | null }>();
      for (const r of results) {
        rows.set(r.sku, {
          sku: r.sku,
          fingerprint: r.fingerprint,
          active: r.active === 1,
          ids: r.ids ? (JSON.parse(r.ids) as TargetIds) : null,
          product: r.product ? (JSON.parse(r.product) as Product) : null,
        });
      }
    }
    return rows;
  }

  /**
   * The active masters whose product as last written carries one of these manufacturer numbers,
   * on the master or one of its variants (WriteContext.mastersByMpn): number -> their SKUs, a
   * seek per number of `target_mpns` (migration 0005, kept by triggers from the rows' products).
   */
  async mastersByMpn(numbers: string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const chunk of jsonChunks(numbers)) {
      const { results } = await this.db
        .prepare(MIRROR_MPN_SQL)
        .bind(this.keyId, chunk)
        .all<{ mpn: string; sku: string }>();
      for (const r of results) found.set(r.mpn, [...(found.get(r.mpn) ?? []), r.sku]);
    }
    return found;
  }

  /** Every SKU the connector wrote to the target counts as managed; the target's own products are the adapter's to refuse. */
  static statesOf(rows: Map<string, MirrorRow>): Map<string, ProductState> {
    return new Map([...rows].map(([sku, row]) => [sku, { managed: true, active: row.active }]));
  }

  async idsOf(skus: string[]): Promise<Map<string, TargetIds>> {
    const ids = new Map<string, TargetIds>();
    for (const [sku, row] of await this.rows(skus)) if (row.ids) ids.set(sku, row.ids);
    return ids;
  }

  /**
   * Active rows whose `ids.extra.pendingReferences` (a JSON array of SKUs) names one of `skus`
   * (WriteContext.referencing). Only an adapter that keeps pending references writes the key, so
   * the scan of the key's rows parses the small `ids` column, never a product, unless one matches.
   */
  async referencing(skus: string[]): Promise<{ sku: string; ids: TargetIds; product: Product }[]> {
    const found: { sku: string; ids: TargetIds; product: Product }[] = [];
    for (const chunk of jsonChunks(skus)) {
      const { results } = await this.db
        .prepare(
          `SELECT sku, ids, product FROM target_products
           WHERE key_id = ?1 AND active = 1 AND ids IS NOT NULL AND product IS NOT NULL
             AND json_extract(ids, '$.extra.pendingReferences') IS NOT NULL
             AND EXISTS (SELECT 1 FROM json_each(json_extract(ids, '$.extra.pendingReferences')) p
               WHERE p.value IN (SELECT value FROM json_each(?2)))`,
        )
        .bind(this.keyId, chunk)
        .all<{ sku: string; ids: string; product: string }>();
      for (const r of results) {
        if (found.some((row) => row.sku === r.sku)) continue;
        found.push({ sku: r.sku, ids: JSON.parse(r.ids) as TargetIds, product: JSON.parse(r.product) as Product });
      }
    }
    return found;
  }

  /**
   * The image hashes among `hashes` that a product of the mirror other than `skus` shows
   * (`target_media`, connector migration 0004, kept by triggers from the rows' `ids.media`): one range of
   * the primary key per hash.
   */
  async mediaShownElsewhere(hashes: string[], skus: string[]): Promise<Set<string>> {
    const shown = new Set<string>();
    for (const chunk of jsonChunks(hashes)) {
      const { results } = await this.db
        .prepare(
          `SELECT DISTINCT sha256 FROM target_media
           WHERE key_id = ?1 AND sha256 IN (SELECT value FROM json_each(?2))
             AND sku NOT IN (SELECT value FROM json_each(?3))`,
        )
        .bind(this.keyId, chunk, JSON.stringify(skus))
        .all<{ sha256: string }>();
      for (const r of results) shown.add(r.sha256);
    }
    return shown;
  }

  async findBatch(batchId: string): Promise<MirrorBatch | null> {
    const row = await this.db
      .prepare('SELECT body_sha256, answer FROM target_batches WHERE key_id = ?1 AND batch_id = ?2')
      .bind(this.keyId, batchId)
      .first<{ body_sha256: string; answer: string | null }>();
    return row ? { bodySha256: row.body_sha256, answer: row.answer } : null;
  }

  /** Starts a batch (or finds it under way) and takes its lease for `owner` (batch-lease.ts `openBatch`). */
  openBatch(batchId: string, bodySha256: string, now: string, owner: string): Promise<OpenedBatch> {
    return openBatch(this.db, this.keyId, { batchId, bodySha256, now, owner });
  }

  /**
   * Commits final outcomes and the mirror rows of the successful ones in one D1 transaction.
   * Rows that refer to a product by manufacturer number are written last: a carrier's number
   * moving marks the rows referring to it for sending again (migration 0005), and one written in
   * this transaction was resolved against this write's carriers already.
   */
  async commit(batchId: string, committed: CommittedOutcome[], now: string): Promise<void> {
    if (committed.length === 0) return;
    const statements: D1PreparedStatement[] = [];
    const ordered = [
      ...committed.filter((c) => !refersByNumber(c.record)),
      ...committed.filter((c) => refersByNumber(c.record)),
    ];
    for (const { index, record, outcome } of ordered) {
      const stored: StoredOutcome = outcome.ok
        ? { ok: true, action: outcome.action }
        : { ok: false, field: outcome.field, error: outcome.error };
      statements.push(this.db.prepare(INSERT_OUTCOME).bind(this.keyId, batchId, index, JSON.stringify(stored)));
      if (!outcome.ok) continue;
      const ids = outcome.ids ? JSON.stringify(outcome.ids) : null;
      if (record.op === 'deactivate') {
        statements.push(this.db.prepare(DEACTIVATE_ROW).bind(this.keyId, record.sku, ids, now));
      } else {
        statements.push(
          this.db
            .prepare(MIRROR_UPSERT_SQL)
            .bind(this.keyId, record.sku, record.fingerprint, 1, ids, JSON.stringify(record.product), now),
        );
      }
    }
    await this.db.batch(statements);
  }

  /** Stores the answer (replayed byte for byte from now on) and drops the batch's progress rows. */
  async finishBatch(
    batchId: string,
    answer: string,
    counts: { created: number; updated: number; deactivated: number; failed: number },
  ): Promise<void> {
    await this.db.batch([
      this.db
        .prepare(
          `UPDATE target_batches SET answer = ?3, created = ?4, updated = ?5, deactivated = ?6, failed = ?7
           WHERE key_id = ?1 AND batch_id = ?2`,
        )
        .bind(this.keyId, batchId, answer, counts.created, counts.updated, counts.deactivated, counts.failed),
      this.db.prepare('DELETE FROM target_batch_records WHERE key_id = ?1 AND batch_id = ?2').bind(this.keyId, batchId),
    ]);
  }

  /** Counts for GET /status. The target fetches its own images, so the media counts stay 0. */
  async status(): Promise<ConnectorStatus> {
    const counts = await this.db
      .prepare(
        `SELECT (SELECT count(*) FROM target_products WHERE key_id = ?1 AND active = 1) AS active,
                (SELECT count(*) FROM target_products WHERE key_id = ?1 AND active = 0) AS deactivated`,
      )
      .bind(this.keyId)
      .first<{ active: number; deactivated: number }>();
    const last = await this.db
      .prepare(
        `SELECT batch_id, received_at, created, updated, deactivated FROM target_batches
         WHERE key_id = ?1 AND answer IS NOT NULL ORDER BY received_at DESC, batch_id DESC LIMIT 1`,
      )
      .bind(this.keyId)
      .first<{ batch_id: string; received_at: string; created: number; updated: number; deactivated: number }>();
    const active = counts?.active ?? 0;
    const deactivated = counts?.deactivated ?? 0;
    return {
      products: { managed: active + deactivated, active, deactivated },
      media: { stored: 0, pending: 0, failed: 0 },
      lastBatch: last
        ? {
            batchId: last.batch_id,
            receivedAt: last.received_at,
            created: last.created,
            updated: last.updated,
            deactivated: last.deactivated,
          }
        : null,
    };
  }
}
