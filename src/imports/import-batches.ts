import { and, eq, inArray, sql } from 'drizzle-orm';
import { chunkForInsert, runBatch, type BatchStatement, type Database } from '../db/client';
import { importGroups, productCategories, products } from '../db/schema';
import type { ReferenceCache } from '../catalog/upsert/reference-cache';
import { upsertRecords } from '../catalog/upsert/upsert-products';
import type { UpsertOutcome, UpsertRecord } from '../catalog/upsert/upsert-types';
import { refreshFingerprints } from '../sync/sync-record';
import type { Actor } from '../history/actor';
import { historyStatements, type HistoryEntry } from '../history/record';
import type { ImportCounts } from './import-checkpoint';
import { rejectionStatements, type Rejection } from './import-report';

const IN_CHUNK = 90;

export interface BatchScope {
  db: Database;
  jobId: string;
  companyId: string;
  /** The job's actor (surface `job`): one history entry per product per batch. */
  actor: Actor;
  catalogId: string;
  mode: 'upsert' | 'createOnly';
  dryRun: boolean;
  cache: ReferenceCache;
}

/** A product read from the file, with where it was and what it is. */
export interface PendingProduct {
  seq: number;
  sku: string;
  location: string;
  record: UpsertRecord;
}

/**
 * Upserts one batch of products (one transaction, with the rejected ones' report rows and the
 * checkpoint `commit` returns for the outcomes) and adds the outcomes to `counts`.
 */
export async function flushProducts(
  scope: BatchScope,
  batch: PendingProduct[],
  counts: ImportCounts,
  extra: {
    rejections: Rejection[];
    knownMasters: ReadonlyMap<string, string>;
    commit: (outcomes: UpsertOutcome[]) => BatchStatement[];
  },
): Promise<UpsertOutcome[]> {
  const outcomes = await upsertRecords(
    {
      db: scope.db,
      files: null,
      companyId: scope.companyId,
      actor: scope.actor,
      catalogId: scope.catalogId,
      mode: scope.mode,
      dryRun: scope.dryRun,
      cache: scope.cache,
      knownMasters: extra.knownMasters,
      alsoInBatch: (results) => {
        // Counted here, before the checkpoint that carries the counts is built.
        const rejections = [...extra.rejections];
        results.forEach((o, i) => {
          if (o.status !== 'error') {
            counts[o.status]++;
            return;
          }
          const reason = o.error!.startsWith(`${o.field}:`) || !o.field ? o.error! : `${o.field}: ${o.error}`;
          rejections.push({ seq: batch[i]!.seq, sku: o.sku, location: batch[i]!.location, reason });
        });
        counts.rejected += rejections.length;
        return [...rejectionStatements(scope.db, scope.jobId, rejections), ...extra.commit(results)];
      },
    },
    batch.map((p) => p.record),
  );
  return outcomes;
}

export interface PendingPlacement {
  seq: number;
  sku: string;
  groupId: string;
  location: string;
}

/**
 * Applies a page of PRODUCT_TO_CATALOGGROUP_MAP entries: each names a product by SKU and a
 * group of the file. Placements are added (existing ones kept); entries for variants are
 * skipped (variants are placed through their master), as are entries for the root group.
 * Returns the statements to commit (with the masters' revision bumps) and the masters to refresh.
 */
export async function placementStatements(scope: BatchScope, entries: PendingPlacement[]) {
  const { db } = scope;
  const skus = [...new Set(entries.map((e) => e.sku))];
  const groupIds = [...new Set(entries.map((e) => e.groupId))];
  const productBySku = new Map<string, { id: string; parentId: string | null }>();
  const groupBy = new Map<string, { categoryId: string | null; isRoot: boolean }>();
  for (let i = 0; i < skus.length; i += IN_CHUNK) {
    const rows = await db
      .select({ id: products.id, sku: products.sku, parentId: products.parentId })
      .from(products)
      .where(
        and(
          eq(products.catalogId, scope.catalogId),
          eq(products.companyId, scope.companyId),
          inArray(products.sku, skus.slice(i, i + IN_CHUNK)),
        ),
      );
    for (const r of rows) productBySku.set(r.sku!, r);
  }
  for (let i = 0; i < groupIds.length; i += IN_CHUNK) {
    const rows = await db
      .select()
      .from(importGroups)
      .where(and(eq(importGroups.jobId, scope.jobId), inArray(importGroups.groupId, groupIds.slice(i, i + IN_CHUNK))));
    for (const r of rows) groupBy.set(r.groupId, r);
  }
  const rejections: Rejection[] = [];
  const wanted = new Map<string, Set<string>>();
  for (const e of entries) {
    const group = groupBy.get(e.groupId);
    if (!group) {
      rejections.push({
        seq: e.seq,
        sku: e.sku,
        location: e.location,
        reason: `CATALOG_GROUP_ID ${e.groupId} is not a group of the file's CATALOG_GROUP_SYSTEM`,
      });
      continue;
    }
    const product = productBySku.get(e.sku);
    if (!product && !scope.dryRun) {
      rejections.push({
        seq: e.seq,
        sku: e.sku,
        location: e.location,
        reason: `no product with SKU ${e.sku} (rejected above, or not in the file)`,
      });
      continue;
    }
    if (!product || product.parentId || group.isRoot || !group.categoryId) continue;
    const set = wanted.get(product.id) ?? new Set<string>();
    set.add(group.categoryId);
    wanted.set(product.id, set);
  }
  const ids = [...wanted.keys()];
  const statements: BatchStatement[] = [];
  const touched: string[] = [];
  const before = new Map<string, string[]>();
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const existing = await db
      .select()
      .from(productCategories)
      .where(inArray(productCategories.productId, ids.slice(i, i + IN_CHUNK)));
    for (const row of existing) {
      wanted.get(row.productId)?.delete(row.categoryId);
      before.set(row.productId, [...(before.get(row.productId) ?? []), row.categoryId]);
    }
  }
  // The master's placements, as the history records them (a partial snapshot: only `categories`).
  const history: HistoryEntry[] = [...wanted]
    .filter(([, added]) => added.size > 0)
    .map(([productId, added]): HistoryEntry => {
      const was = (before.get(productId) ?? []).sort();
      return {
        elementId: productId,
        kind: 'product',
        before: was.length > 0 ? { categories: was } : {},
        after: { categories: [...was, ...added].sort() },
      };
    });
  statements.push(...historyStatements(db, scope.actor, history).statements);
  let added = 0;
  for (const [productId, categoryIds] of wanted) {
    if (categoryIds.size === 0) continue;
    touched.push(productId);
    added += categoryIds.size;
    const rows = [...categoryIds].map((categoryId) => ({ productId, categoryId, companyId: scope.companyId }));
    for (const chunk of chunkForInsert(rows, 3))
      statements.push(db.insert(productCategories).values(chunk).onConflictDoNothing());
  }
  for (let i = 0; i < touched.length; i += IN_CHUNK) {
    statements.push(
      db
        .update(products)
        .set({ revision: sql`${products.revision} + 1`, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
        .where(inArray(products.id, touched.slice(i, i + IN_CHUNK))),
    );
  }
  return { statements, rejections, touched, added };
}

/** Commits placements with the report rows and checkpoint, then refreshes the fingerprints. */
export async function flushPlacements(
  scope: BatchScope,
  entries: PendingPlacement[],
  counts: ImportCounts,
  commit: () => BatchStatement[],
  unreadable: Rejection[] = [],
): Promise<void> {
  const { statements, rejections: unplaced, touched, added } = await placementStatements(scope, entries);
  const rejections = [...unreadable, ...unplaced];
  counts.rejected += rejections.length;
  counts.placements += added;
  await runBatch(scope.db, [
    ...(scope.dryRun ? [] : statements),
    ...rejectionStatements(scope.db, scope.jobId, rejections),
    ...commit(),
  ]);
  if (!scope.dryRun) await refreshFingerprints(scope.db, scope.companyId, touched);
}
