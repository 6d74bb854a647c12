import { and, eq } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../../db/client';
import { catalogs, productFeatureBlocks, products } from '../../db/schema';
import { historyStatements, placeOf } from '../../records/history-record';
import { withChanges, type Snapshot } from '../../records/snapshot';
import { guardStatement, retryOnConflict } from '../../records/write-guard';
import { badRequest, notFound } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { dbNow } from '../../kernel/clock';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../../records/fingerprint-after';
import { changesNothing } from '../../records/no-change';
import {
  checkDepartment,
  departmentStatement,
  masterFrom,
  masterSetOf,
  masterStatements,
} from '../../records/write-context';
import { blocksEntry } from './feature-block-history';
import { blockOfRow, blockRows, deleteBlocksStatement } from '../../model/feature-block-rows';
import { normaliseBlock, type FeatureBlockInput, type StoredFeatureBlock } from '../../model/feature-block-types';

export interface SetFeatureBlocksInput {
  departmentId: string;
  productId: string;
  featureBlocks: FeatureBlockInput[];
  /** Required with an empty list: removing every block is said, never implied. */
  clear?: boolean;
}

/**
 * Replaces the feature blocks of other systems of one product or variant (SetFeatureBlocks).
 * One read round trip, then one guarded batch (docs/history.md "Concurrency"): the rows, one
 * history version with the list before and after, and the master's revision bump with its new
 * fingerprint; a concurrent write of the product makes the guard fail and the write retry.
 */
export async function setFeatureBlocks(db: Database, caller: Caller, input: SetFeatureBlocksInput) {
  const blocks = input.featureBlocks.map(normaliseBlock);
  return retryOnConflict(() => setOnce(db, caller, input, blocks));
}

async function setOnce(db: Database, caller: Caller, input: SetFeatureBlocksInput, blocks: StoredFeatureBlock[]) {
  const results = await db.batch([
    departmentStatement(db, caller, input.departmentId),
    db
      .select({ id: products.id, parentId: products.parentId, catalogId: products.catalogId })
      .from(products)
      .innerJoin(catalogs, eq(catalogs.id, products.catalogId))
      .where(
        and(
          eq(products.id, input.productId),
          eq(products.companyId, caller.companyId),
          eq(catalogs.departmentId, input.departmentId),
        ),
      ),
    ...masterStatements(db, caller.companyId, masterSetOf(caller.companyId, input.productId)),
  ]);
  const [department, [product]] = results;
  checkDepartment(department);
  if (!product) throw notFound('product');
  const { aggregate, paths } = masterFrom(db, caller.companyId, results.slice(2) as never);
  if (!aggregate) throw notFound('product');
  const node =
    aggregate.product.id === product.id ? aggregate : aggregate.variants.find((v) => v.product.id === product.id);
  if (!node) throw notFound('product');
  // After the product is found: a caller learns nothing about another company's ids from this rule.
  if (blocks.length === 0 && input.clear !== true)
    throw badRequest('featureBlocks: an empty list removes every block; send "clear": true to say so');
  const old = node.featureBlocks ?? [];
  const before: Snapshot = old.length > 0 ? { featureBlocks: blocksEntry(old) } : {};
  const after = withChanges(before, { featureBlocks: blocks.length > 0 ? blocksEntry(blocks) : null });
  const next = aggregateAfter(aggregate, product.id, (n) => {
    n.featureBlocks = blocks;
  });
  const revision = aggregate.product.revision;
  const entry = {
    elementId: product.id,
    kind: product.parentId ? ('variant' as const) : ('product' as const),
    place: placeOf(product),
    before,
    after,
  };
  // The same blocks: nothing is written (docs/history.md, "A write that changes nothing").
  if (await changesNothing([entry], { before: aggregate, after: next, paths }))
    return { productId: product.id, featureBlocks: blocks };
  const statements: BatchStatement[] = [
    guardStatement(db, revisionIs(caller.companyId, aggregate.product.id, revision)),
    deleteBlocksStatement(db, product.id),
    ...blockRows(product.id, blocks).map((row) => db.insert(productFeatureBlocks).values(row)),
    db.update(products).set({ updatedAt: dbNow }).where(eq(products.id, product.id)),
    ...historyStatements(db, caller, [entry]).statements,
    bumpWithFingerprint(db, aggregate.product.id, revision, await fingerprintWith(next, paths)),
  ];
  await runBatch(db, statements);
  return { productId: product.id, featureBlocks: blocks };
}

/** The feature blocks of other systems of one product or variant of the company. */
export async function getFeatureBlocks(db: Database, caller: Caller, productId: string) {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.companyId, caller.companyId)));
  if (!product) throw notFound('product');
  const rows = await db
    .select()
    .from(productFeatureBlocks)
    .where(eq(productFeatureBlocks.productId, productId))
    .orderBy(productFeatureBlocks.position);
  return { productId, featureBlocks: rows.map(blockOfRow) };
}
