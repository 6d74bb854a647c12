import { asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { productFeatureBlocks } from '../db/schema';
import { normaliseBlock, type FeatureBlockInput, type StoredFeatureBlock } from './feature-block-types';

type BlockRow = typeof productFeatureBlocks.$inferSelect;

/** The rows of a product's blocks, position = index in the list. */
export function blockRows(productId: string, blocks: readonly FeatureBlockInput[]): BlockRow[] {
  return blocks.map((block, position) => {
    const b = normaliseBlock(block);
    return {
      productId,
      position,
      system: b.system,
      groupId: b.groupId,
      groupId2: b.groupId2,
      groupName: b.groupName,
      features: JSON.stringify(b.features),
      groupId2Type: b.groupId2Type ?? null,
      featureGroups: b.featureGroups ? JSON.stringify(b.featureGroups) : null,
      modelling: b.modelling ? JSON.stringify(b.modelling) : null,
    };
  });
}

/** A stored row back as a block (the parts of migrations 0050 and 0081 only when the block has them). */
export function blockOfRow(row: BlockRow): StoredFeatureBlock {
  return {
    system: row.system,
    groupId: row.groupId,
    groupId2: row.groupId2,
    ...(row.groupId2Type ? { groupId2Type: row.groupId2Type } : {}),
    groupName: row.groupName,
    features: JSON.parse(row.features) as StoredFeatureBlock['features'],
    ...(row.featureGroups
      ? { featureGroups: JSON.parse(row.featureGroups) as NonNullable<StoredFeatureBlock['featureGroups']> }
      : {}),
    ...(row.modelling ? { modelling: JSON.parse(row.modelling) as NonNullable<StoredFeatureBlock['modelling']> } : {}),
  };
}

/** The statement that removes every block of a product (before new ones are inserted in the same batch). */
export function deleteBlocksStatement(db: Database, productId: string): BatchStatement {
  return db.delete(productFeatureBlocks).where(eq(productFeatureBlocks.productId, productId));
}

/**
 * The read of every block of the elements in `elementSet` (an SQL set the caller has already
 * limited to the company's products), in product and block order.
 */
export function blocksStatement(db: Database, elementSet: SQL) {
  return db
    .select()
    .from(productFeatureBlocks)
    .where(inArray(productFeatureBlocks.productId, elementSet))
    .orderBy(asc(productFeatureBlocks.productId), asc(productFeatureBlocks.position));
}
