import type { Json } from '../../records/snapshot';
import { normaliseBlock, type StoredFeatureBlock } from '../../model/feature-block-types';

/**
 * How a product's feature blocks of other systems appear in a history snapshot: one path,
 * `featureBlocks`, holding the whole ordered list (blocks are replaced as a whole, so a
 * version shows the list before and after). Absent means none.
 */
export function blocksEntry(blocks: readonly StoredFeatureBlock[]): Json {
  return blocks.map(normaliseBlock) as unknown as Json;
}
