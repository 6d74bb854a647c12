import type { MediaRef, UpsertRecord } from '../../../src/sync/protocol/wire';
import type { MediaToRecord, ShopStore } from '../store/shop-store';

/**
 * A pending image queued longer ago than this is queued again when a batch references it (its
 * message may have been lost); more recent ones are still on their way through the queue.
 */
export const REQUEUE_PENDING_AFTER_MS = 15 * 60 * 1000;

/** Every image a batch references, once per hash (the last reference's URL wins). */
function referencedImages(records: UpsertRecord[]): MediaRef[] {
  const byHash = new Map<string, MediaRef>();
  for (const record of records) {
    if (record.op === 'deactivate' || !record.product) continue;
    for (const node of [record.product, ...record.product.variants]) {
      for (const ref of node.media) byHash.set(ref.sha256, ref);
    }
  }
  return [...byHash.values()];
}

/**
 * The image rows a batch writes: new, failed and long-pending hashes are (re)queued; images
 * already stored are left alone, so their bytes are never fetched again.
 */
export async function planImages(store: ShopStore, records: UpsertRecord[], now: Date): Promise<MediaToRecord[]> {
  const refs = referencedImages(records);
  if (refs.length === 0) return [];
  const states = await store.mediaStates(refs.map((r) => r.sha256));
  const staleBefore = new Date(now.getTime() - REQUEUE_PENDING_AFTER_MS).toISOString();
  const planned: MediaToRecord[] = [];
  for (const ref of refs) {
    const state = states.get(ref.sha256);
    if (state?.state === 'stored') continue;
    const queue = !state || state.state === 'failed' || state.queuedAt < staleBefore;
    planned.push({ ...ref, queue });
  }
  return planned;
}
