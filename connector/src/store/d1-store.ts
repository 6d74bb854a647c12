import type { ConnectorStatus, InventoryLine, Mappings } from '../../../src/sync/protocol/wire';
import { batchStatements } from './d1-batch';
import {
  claimStalePendingMedia,
  markMediaFailed,
  markMediaStored,
  mediaRow,
  mediaStates,
  recordMediaAttempt,
} from './d1-media';
import { jsonChunks } from './json-chunks';
import {
  BatchAlreadyStored,
  type BatchToApply,
  type MappingIds,
  type ProductState,
  type ShopStore,
  type StoredBatch,
} from './shop-store';

/** The inventory queries; both must stay on products_inventory_idx (test/inventory.test.ts checks the plan). */
export const INVENTORY_COUNT_SQL = 'SELECT count(*) AS n FROM products WHERE managed = 1 AND active = 1 AND sku > ?1';
export const INVENTORY_PAGE_SQL =
  'SELECT sku, fingerprint FROM products WHERE managed = 1 AND active = 1 AND sku > ?1 ORDER BY sku LIMIT ?2';

function isBatchIdConflict(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : String(err);
  return text.includes('UNIQUE constraint failed: batches.batch_id');
}

/** The reference shop store: products, lookup tables, image states and batches in one D1 database. */
export class D1ShopStore implements ShopStore {
  constructor(private readonly db: D1Database) {}

  async mappings(): Promise<Mappings> {
    const [manufacturers, units, taxes] = await this.db.batch<Record<string, unknown>>([
      this.db.prepare('SELECT id, name FROM manufacturers ORDER BY id'),
      this.db.prepare('SELECT id, code FROM units ORDER BY id'),
      this.db.prepare('SELECT id, code, rate FROM taxes ORDER BY id'),
    ]);
    return {
      manufacturers: manufacturers!.results.map((r) => ({ id: String(r.id), name: String(r.name) })),
      units: units!.results.map((r) => ({ id: String(r.id), code: String(r.code) })),
      taxes: taxes!.results.map((r) => ({ id: String(r.id), code: String(r.code), rate: Number(r.rate) })),
    };
  }

  async mappingIds(): Promise<MappingIds> {
    const { manufacturers, units, taxes } = await this.mappings();
    const ids = (rows: { id: string }[]) => new Set(rows.map((r) => r.id));
    return { manufacturers: ids(manufacturers), units: ids(units), taxes: ids(taxes) };
  }

  async inventoryCount(after: string | null): Promise<number> {
    const row = await this.db
      .prepare(INVENTORY_COUNT_SQL)
      .bind(after ?? '')
      .first<{ n: number }>();
    return row?.n ?? 0;
  }

  async inventoryPage(after: string | null, limit: number): Promise<InventoryLine[]> {
    const { results } = await this.db
      .prepare(INVENTORY_PAGE_SQL)
      .bind(after ?? '', limit)
      .all<{ sku: string; fingerprint: string | null }>();
    return results.map((r) => ({ sku: r.sku, fingerprint: r.fingerprint ?? '' }));
  }

  async productStates(skus: string[]): Promise<Map<string, ProductState>> {
    const states = new Map<string, ProductState>();
    for (const chunk of jsonChunks(skus)) {
      const { results } = await this.db
        .prepare('SELECT sku, managed, active FROM products WHERE sku IN (SELECT value FROM json_each(?1))')
        .bind(chunk)
        .all<{ sku: string; managed: number; active: number }>();
      for (const r of results) states.set(r.sku, { managed: r.managed === 1, active: r.active === 1 });
    }
    return states;
  }

  async findBatch(batchId: string): Promise<StoredBatch | null> {
    const row = await this.db
      .prepare('SELECT body_sha256, answer FROM batches WHERE batch_id = ?1')
      .bind(batchId)
      .first<{ body_sha256: string; answer: string }>();
    return row ? { bodySha256: row.body_sha256, answer: row.answer } : null;
  }

  async applyBatch(batch: BatchToApply): Promise<void> {
    try {
      await this.db.batch(batchStatements(this.db, batch));
    } catch (err) {
      if (isBatchIdConflict(err)) throw new BatchAlreadyStored(batch.batchId);
      throw err;
    }
  }

  mediaStates = (hashes: string[]) => mediaStates(this.db, hashes);
  media = (sha256: string) => mediaRow(this.db, sha256);
  markMediaStored = (sha256: string, size: number) => markMediaStored(this.db, sha256, size);
  recordMediaAttempt = (sha256: string, attempts: number, error: string) =>
    recordMediaAttempt(this.db, sha256, attempts, error);
  markMediaFailed = (sha256: string, error: string) => markMediaFailed(this.db, sha256, error);
  claimStalePendingMedia = (queuedBefore: string, limit: number) =>
    claimStalePendingMedia(this.db, queuedBefore, limit);

  async status(): Promise<ConnectorStatus> {
    const counts = await this.db
      .prepare(
        `SELECT
           (SELECT count(*) FROM products WHERE managed = 1 AND active = 1) AS active,
           (SELECT count(*) FROM products WHERE managed = 1 AND active = 0) AS deactivated,
           (SELECT count(*) FROM media WHERE state = 'stored') AS stored,
           (SELECT count(*) FROM media WHERE state = 'pending') AS pending,
           (SELECT count(*) FROM media WHERE state = 'failed') AS failed`,
      )
      .first<Record<'active' | 'deactivated' | 'stored' | 'pending' | 'failed', number>>();
    const last = await this.db
      .prepare(
        'SELECT batch_id, received_at, created, updated, deactivated FROM batches ORDER BY received_at DESC, batch_id DESC LIMIT 1',
      )
      .first<{ batch_id: string; received_at: string; created: number; updated: number; deactivated: number }>();
    const c = counts ?? { active: 0, deactivated: 0, stored: 0, pending: 0, failed: 0 };
    return {
      products: { managed: c.active + c.deactivated, active: c.active, deactivated: c.deactivated },
      media: { stored: c.stored, pending: c.pending, failed: c.failed },
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
