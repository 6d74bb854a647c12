import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { jsonList } from '../db/json-rows';
import { importGroups } from '../db/schema';
import type { ReferenceCache } from '../catalog/upsert/reference-cache';
import { upsertRecords } from '../catalog/upsert/upsert-products';
import type { UpsertOutcome, UpsertRecord } from '../catalog/upsert/upsert-types';
import type { ImportCounts } from './import-checkpoint';
import { rejectionStatements, type Rejection } from './import-report';
import { productsBySku, stageDryProducts } from './import-staging';
import type { Caller } from '../kernel/caller';

export interface BatchScope {
  db: Database;
  jobId: string;
  companyId: string;
  /** The job's actor (surface `job`): one history entry per product per batch. */
  actor: Caller;
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
 * checkpoint `commit` returns for the outcomes) and adds the outcomes to `counts`. A variant
 * whose master is neither in the batch nor in the catalog finds it among the products a dry
 * run counted as created earlier in the file, as a real run would find it written.
 */
export async function flushProducts(
  scope: BatchScope,
  batch: PendingProduct[],
  counts: ImportCounts,
  extra: {
    rejections: Rejection[];
    commit: (outcomes: UpsertOutcome[]) => BatchStatement[];
  },
): Promise<UpsertOutcome[]> {
  const records = batch.map((p) => p.record);
  const knownMasters = new Map<string, string>();
  if (scope.dryRun) {
    const own = new Set(records.map((r) => r.sku));
    const parents = [...new Set(records.flatMap((r) => (r.parentSku && !own.has(r.parentSku) ? [r.parentSku] : [])))];
    for (const [sku, p] of await productsBySku(scope.db, scope, parents))
      if (!p.isVariant && p.id.startsWith('dry-run:')) knownMasters.set(sku, p.id);
  }
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
      knownMasters,
      alsoInBatch: (results, written) => {
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
        counts.placements += written.placements;
        return [
          ...rejectionStatements(scope.db, scope.jobId, rejections),
          ...(scope.dryRun ? stageDryProducts(scope.db, scope.jobId, records, results) : []),
          ...extra.commit(results),
        ];
      },
    },
    records,
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
 * Checks a page of PRODUCT_TO_CATALOGGROUP_MAP entries after the products were written. The
 * placements themselves were written with their products (placementsOf, from the entries the
 * validation pass staged); what is left is to report the entries that place nothing: a group
 * not in the file's CATALOG_GROUP_SYSTEM, a SKU that is not a product (rejected above, or not
 * in the file). Entries for variants are skipped (variants are placed through their master),
 * as are entries for the root group.
 */
async function checkMapEntries(scope: BatchScope, entries: PendingPlacement[]): Promise<Rejection[]> {
  const { db } = scope;
  const found = await productsBySku(db, scope, [...new Set(entries.map((e) => e.sku))]);
  const groupIds = [...new Set(entries.map((e) => e.groupId))];
  const known = new Set(
    groupIds.length === 0
      ? []
      : (
          await db
            .select({ groupId: importGroups.groupId })
            .from(importGroups)
            .where(and(eq(importGroups.jobId, scope.jobId), sql`${importGroups.groupId} IN ${jsonList(groupIds)}`))
        ).map((r) => r.groupId),
  );
  const rejections: Rejection[] = [];
  for (const e of entries) {
    const reject = (reason: string) => rejections.push({ seq: e.seq, sku: e.sku, location: e.location, reason });
    if (!known.has(e.groupId))
      reject(`CATALOG_GROUP_ID ${e.groupId} is not a group of the file's CATALOG_GROUP_SYSTEM`);
    else if (!found.has(e.sku)) reject(`no product with SKU ${e.sku} (rejected above, or not in the file)`);
  }
  return rejections;
}

/** Commits the report rows of a page of map entries with the checkpoint. */
export async function flushMapEntries(
  scope: BatchScope,
  entries: PendingPlacement[],
  counts: ImportCounts,
  commit: () => BatchStatement[],
  unreadable: Rejection[] = [],
): Promise<void> {
  const rejections = [...unreadable, ...(await checkMapEntries(scope, entries))];
  counts.rejected += rejections.length;
  await runBatch(scope.db, [...rejectionStatements(scope.db, scope.jobId, rejections), ...commit()]);
}
