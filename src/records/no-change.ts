import type { ProductAggregate } from '../model/product-aggregate';
import type { CategoryPaths } from './category-paths';
import { fingerprintWith } from './fingerprint-after';
import { diffSnapshots, type HistoryEntry } from './history-record';

/** A master's aggregate as the write read it and as it plans it, with the category paths read beside them. */
export interface RecordChange {
  before: ProductAggregate;
  after: ProductAggregate;
  paths: CategoryPaths;
}

/**
 * Whether a planned write changes nothing (docs/history.md, "A write that changes nothing"): none
 * of its history entries has a changed path and, for a product, the master's sync record after
 * it hashes as the one it read. Such a write sends no batch at all: no row, no `updatedAt`, no
 * revision, no version, no score, no fingerprint. The caller decides from the state it read in
 * its one read round trip (the state its guard would have held), so the decision is exact: the
 * request is answered as if it had been written at the moment of that read, which changed nothing.
 */
export async function changesNothing(entries: HistoryEntry[], record?: RecordChange): Promise<boolean> {
  if (entries.some((entry) => diffSnapshots(entry.before, entry.after).length > 0)) return false;
  if (!record) return true;
  const [before, after] = await Promise.all([
    fingerprintWith(record.before, record.paths),
    fingerprintWith(record.after, record.paths),
  ]);
  return before === after;
}
