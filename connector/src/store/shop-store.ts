import type { ConnectorStatus, InventoryLine, Mappings, MediaRef, UpsertRecord } from '../../../src/sync/protocol/wire';

/**
 * The adapter between the sync protocol and a shop's product store. The reference
 * implementation (`D1ShopStore`) keeps the shop in D1; a Shopware, Shopify or WooCommerce
 * adapter implements the same interface against that system's API and the routes, validation
 * and image queue stay as they are (connector/README.md, "The store adapter").
 *
 * Rules every adapter keeps:
 * - Only managed products (created through `applyBatch`) are listed or written; the shop's own
 *   products are visible to `productStates` (so a SKU clash is refused) and nothing else.
 * - `applyBatch` is all-or-nothing and stores the batch answer in the same transaction, so a
 *   crash leaves either the whole batch with its answer or nothing.
 */
export interface ShopStore {
  mappings(): Promise<Mappings>;
  /** The ids of the lookup tables, for validating a batch. */
  mappingIds(): Promise<MappingIds>;

  /** Number of active managed products with sku > after (all when after is null). */
  inventoryCount(after: string | null): Promise<number>;
  /** The next page of active managed products after `after`, in UTF-8 byte order of sku. */
  inventoryPage(after: string | null, limit: number): Promise<InventoryLine[]>;

  /** What the store holds for these SKUs (absent SKUs are missing from the map). */
  productStates(skus: string[]): Promise<Map<string, ProductState>>;
  /** A committed batch by id, or null. */
  findBatch(batchId: string): Promise<StoredBatch | null>;
  /**
   * Writes a validated batch, its media rows and the batch answer in one transaction.
   * Throws `BatchAlreadyStored` when the batchId was committed concurrently.
   */
  applyBatch(batch: BatchToApply): Promise<void>;

  /** Current states of these image hashes (absent hashes are missing from the map). */
  mediaStates(hashes: string[]): Promise<Map<string, MediaState>>;
  media(sha256: string): Promise<MediaRow | null>;
  markMediaStored(sha256: string, size: number): Promise<void>;
  /** Records a failed try; the image stays pending (the queue retries it). */
  recordMediaAttempt(sha256: string, attempts: number, error: string): Promise<void>;
  markMediaFailed(sha256: string, error: string): Promise<void>;
  /** Pending images queued before `queuedBefore`; marks them queued now and returns their hashes. */
  claimStalePendingMedia(queuedBefore: string, limit: number): Promise<string[]>;

  status(): Promise<ConnectorStatus>;
}

export interface MappingIds {
  manufacturers: Set<string>;
  units: Set<string>;
  taxes: Set<string>;
}

export interface ProductState {
  managed: boolean;
  active: boolean;
}

export interface StoredBatch {
  bodySha256: string;
  /** The exact JSON text of the first answer. */
  answer: string;
}

export interface MediaState {
  state: 'pending' | 'stored' | 'failed';
  queuedAt: string;
}

export interface MediaRow extends MediaState {
  sha256: string;
  url: string;
  contentType: string;
  fileName: string;
  attempts: number;
  lastError: string | null;
}

/** An image a batch references, with whether it must be (re)queued for fetching. */
export interface MediaToRecord extends MediaRef {
  queue: boolean;
}

export interface BatchToApply {
  batchId: string;
  bodySha256: string;
  answer: string;
  counts: { created: number; updated: number; deactivated: number };
  records: UpsertRecord[];
  media: MediaToRecord[];
  now: string;
}

/** The batchId was committed by a concurrent request between the lookup and the write. */
export class BatchAlreadyStored extends Error {
  constructor(readonly batchId: string) {
    super(`batch ${batchId} is already stored`);
  }
}
