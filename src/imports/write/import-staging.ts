import { and, eq, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../db/client';
import { jsonInsert, jsonList } from '../../db/json-rows';
import { importDryProducts, importGroups, importPlacements } from '../../db/schema';
import { existingBySku } from '../../catalog/upsert/resolve/upsert-lookups';
import type { UpsertOutcome, UpsertRecord } from '../../catalog/upsert/upsert-types';

/** A category id a dry run stands in for a category it would create (never stored in the catalog). */
export const DRY_RUN_PREFIX = 'dry-run:';

/** Stages group-map entries read by the validation pass (idempotent: a retried slice writes the same rows). */
export function stagePlacements(
  db: Database,
  jobId: string,
  entries: { sku: string; groupId: string }[],
): BatchStatement[] {
  return jsonInsert(
    db,
    importPlacements,
    entries.map((e) => ({ jobId, sku: e.sku, groupId: e.groupId })),
    { orIgnore: true },
  );
}

/**
 * The categories the file's group map gives each of these masters (one query for the batch):
 * every staged entry of the SKU whose group is resolved, not the root and not unknown (unknown
 * groups are reported by the map pass). A SKU without entries gets none: with a group map in
 * the file, the map is the product's placements (docs/import.md).
 */
export async function placementsOf(db: Database, jobId: string, skus: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(skus.map((sku) => [sku, []]));
  if (skus.length === 0) return out;
  const rows = await db
    .select({ sku: importPlacements.sku, categoryId: importGroups.categoryId })
    .from(importPlacements)
    .innerJoin(
      importGroups,
      and(eq(importGroups.jobId, importPlacements.jobId), eq(importGroups.groupId, importPlacements.groupId)),
    )
    .where(
      and(
        eq(importPlacements.jobId, jobId),
        sql`${importPlacements.sku} IN ${jsonList(skus)}`,
        eq(importGroups.isRoot, false),
      ),
    );
  for (const row of rows) {
    const list = out.get(row.sku);
    if (list && row.categoryId && !list.includes(row.categoryId)) list.push(row.categoryId);
  }
  return out;
}

/** Products of the catalog, or (in a dry run) counted as created earlier by this job, by SKU. */
export async function productsBySku(
  db: Database,
  scope: { jobId: string; companyId: string; catalogId: string; dryRun: boolean },
  skus: string[],
): Promise<Map<string, { id: string; isVariant: boolean }>> {
  const out = new Map<string, { id: string; isVariant: boolean }>();
  if (skus.length === 0) return out;
  for (const [sku, r] of await existingBySku(db, scope, skus))
    out.set(sku, { id: r.id, isVariant: r.parentId !== null });
  if (scope.dryRun) {
    const dry = await db
      .select()
      .from(importDryProducts)
      .where(and(eq(importDryProducts.jobId, scope.jobId), sql`${importDryProducts.sku} IN ${jsonList(skus)}`));
    for (const r of dry)
      if (!out.has(r.sku)) out.set(r.sku, { id: `${DRY_RUN_PREFIX}${r.sku}`, isVariant: r.isVariant });
  }
  return out;
}

/** What a dry run must remember of a batch: the products it counted as created. */
export function stageDryProducts(
  db: Database,
  jobId: string,
  records: UpsertRecord[],
  outcomes: UpsertOutcome[],
): BatchStatement[] {
  const created = outcomes.flatMap((o, i) =>
    o.status === 'created' ? [{ jobId, sku: o.sku, isVariant: Boolean(records[i]!.parentSku) }] : [],
  );
  return jsonInsert(db, importDryProducts, created, { orIgnore: true });
}
