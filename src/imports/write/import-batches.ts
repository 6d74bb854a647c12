import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../../db/client';
import { jsonList } from '../../db/json-rows';
import { importGroups } from '../../db/schema';
import type { ReferenceCache } from '../../catalog/upsert/resolve/reference-cache';
import { OUTSIDE_SCOPE, upsertRecords } from '../../catalog/upsert/upsert-products';
import { scopedCategoriesOf } from '../../db/product-scope';
import type { UpsertOutcome, UpsertRecord } from '../../catalog/upsert/upsert-types';
import type { ImportCounts } from '../read/import-checkpoint';
import {
  REASONS,
  rejectionStatements,
  warningStatements,
  type ImportWarning,
  type Rejection,
} from '../report/import-report';
import { textsOfRecord } from './texts-only';
import type { FileWarning, ProductAction } from '../records/bmecat-records';
import { deletions, duplicateSkus, priceUpdates } from './import-actions';
import { deleteObjects } from '../../media/media';
import { refreshFingerprints } from '../../records/sync-record';
import { DRY_RUN_PREFIX, productsBySku, stageDryProducts } from './import-staging';
import type { BatchScope, PendingProduct } from '../records/batch-types';
import { ambiguousNumberWarnings } from './mpn-ambiguity';

/** Where in the file: `line N: path/sub` in XML, the JSON path (line 0) in an xChange file. */
function placeOf(line: number, path: string, sub: string): string {
  if (line === 0) return `${path}${sub}`;
  return `line ${line}: ${path}${sub ? `/${sub}` : ''}`;
}

/** A warning of the upsert (`field`, e.g. gtin) placed at the field's element in the file, else at the record. */
function warningAt(p: PendingProduct, field: string, code: string, message: string): ImportWarning {
  const at = p.origins?.get(field) ?? p.origins?.get(field.split('.').slice(0, 2).join('.'));
  const location =
    p.path && at?.path ? `line ${at.line}: ${p.path}/${at.path}` : at ? `line ${at.line}: ${p.path ?? ''}` : p.location;
  return {
    seq: p.seq,
    sku: p.sku,
    location,
    code,
    reason: message.startsWith(`${field}:`) ? message : `${field}: ${message}`,
  };
}

/**
 * Upserts one batch of products (one transaction, with the rejected ones' report rows, the
 * warnings of the kept ones and the checkpoint `commit` returns for the outcomes) and adds the
 * outcomes to `counts`. A product whose SKU came earlier in the file is rejected; T_UPDATE_PRICES
 * products update the price of existing products only; T_UPDATE_PRODUCTS deletions are part of
 * the same transaction. A variant whose master is neither in the batch nor in the catalog finds
 * it among the products a dry run counted as created earlier in the file, as a real run would.
 */
export async function flushProducts(
  scope: BatchScope,
  pending: PendingProduct[],
  counts: ImportCounts,
  extra: {
    rejections: Rejection[];
    commit: (outcomes: UpsertOutcome[]) => BatchStatement[];
    /** Tallies one warning for jobs.warnings. */
    tally?: (w: ImportWarning) => void;
    /** A texts-only import: names one part of a product's record it leaves out (jobs.warnings, once per field). */
    ignore?: (field: string, sku: string) => void;
  },
): Promise<UpsertOutcome[]> {
  const duplicates = await duplicateSkus(scope, pending);
  const rejected: Rejection[] = [...extra.rejections, ...duplicates.rejections.values()];
  let accepted = pending.filter((p) => !duplicates.rejections.has(p));
  if (scope.texts) {
    // a texts-only import: the texts of existing products, nothing deleted (write/texts-only.ts)
    const texts = scope.texts;
    for (const p of accepted)
      if (p.action === 'delete')
        rejected.push({
          seq: p.seq,
          sku: p.sku,
          location: p.location,
          reason: REASONS.texts_only!,
          code: 'texts_only',
        });
    accepted = accepted.flatMap((p) => {
      if (p.action === 'delete') return [];
      const { record, ignored } = textsOfRecord(p.record, scope.catalogLanguage, texts, placedIn(p));
      for (const field of ignored) extra.ignore?.(field, p.sku);
      return [{ ...p, record, action: 'prices' as const }];
    });
  }
  const prices = await priceUpdates(
    scope,
    accepted.filter((p) => p.action === 'prices'),
    scope.texts ? 'write its texts (a texts-only import updates, never creates)' : undefined,
  );
  const removal = await deletions(
    scope,
    accepted.filter((p) => p.action === 'delete'),
  );
  rejected.push(...prices.rejections, ...removal.rejections);
  const batch = [...accepted.filter((p) => !p.action || p.action === 'upsert'), ...prices.ready].sort(
    (a, b) => a.seq - b.seq,
  );
  const records = batch.map((p) => p.record);
  const knownMasters = new Map<string, string>();
  if (scope.dryRun) {
    const own = new Set(records.map((r) => r.sku));
    const parents = [...new Set(records.flatMap((r) => (r.parentSku && !own.has(r.parentSku) ? [r.parentSku] : [])))];
    for (const [sku, p] of await productsBySku(scope.db, scope, parents))
      if (!p.isVariant && p.id.startsWith('dry-run:')) knownMasters.set(sku, p.id);
  }
  const scopeCategories = scope.scopeCategoryIds ? await categoriesInScope(scope, records) : undefined;
  const ambiguous = await ambiguousNumberWarnings(scope, batch);
  const outcomes = await upsertRecords(
    {
      ...(scopeCategories ? { scopeCategories } : {}),
      db: scope.db,
      files: null,
      companyId: scope.companyId,
      actor: scope.actor,
      catalogId: scope.catalogId,
      mode: scope.mode,
      dryRun: scope.dryRun,
      tolerant: !scope.strict,
      inheritMasterPrices: scope.inheritMasterPrices ?? false,
      inheritMasterValues: scope.inheritMasterValues ?? false,
      cache: scope.cache,
      knownMasters,
      catalogLanguage: scope.catalogLanguage,
      alsoInBatch: (results, written) => {
        // Counted here, before the checkpoint that carries the counts is built.
        const rejections = [...rejected];
        const warnings: ImportWarning[] = [];
        results.forEach((o, i) => {
          const p = batch[i]!;
          if (o.status !== 'error') {
            counts[o.status]++;
            for (const w of p.warnings ?? [])
              warnings.push({
                seq: p.seq,
                sku: p.sku,
                location: placeOf(w.line, p.path ?? '', w.path),
                code: w.code,
                reason: w.message,
              });
            for (const w of o.warnings ?? []) warnings.push(warningAt(p, w.field, w.code, w.message));
            warnings.push(...(ambiguous.get(p) ?? []));
            return;
          }
          if (o.error === OUTSIDE_SCOPE) {
            rejections.push({
              seq: p.seq,
              sku: o.sku,
              location: p.location,
              reason: OUTSIDE_SCOPE,
              code: 'outside_scope',
            });
            return;
          }
          const reason = o.error!.startsWith(`${o.field}:`) || !o.field ? o.error! : `${o.field}: ${o.error}`;
          const code = `invalid_${(o.field ?? 'record').split('.')[0]}`;
          rejections.push({ seq: p.seq, sku: o.sku, location: p.location, reason, code });
        });
        for (const w of warnings) extra.tally?.(w);
        counts.rejected += rejections.length;
        counts.deleted = (counts.deleted ?? 0) + removal.deleted;
        counts.placements += written.placements;
        return [
          ...removal.statements,
          ...duplicates.remember,
          ...rejectionStatements(scope.db, scope.jobId, rejections),
          ...warningStatements(scope.db, scope.jobId, warnings),
          ...(scope.dryRun ? stageDryProducts(scope.db, scope.jobId, records, results) : []),
          ...extra.commit(results),
        ];
      },
    },
    records,
  );
  if (!scope.dryRun) {
    if (scope.files && removal.fileKeys.length > 0)
      await deleteObjects(
        scope.files,
        removal.fileKeys.filter((k) => !k.startsWith('media-ref/')),
      );
    if (removal.mastersTouched.length > 0) await refreshFingerprints(scope.db, scope.companyId, removal.mastersTouched);
  }
  return outcomes;
}

/** Whether the file places the product (a CSV's `categories` or `categoryMedia`, read by the products pass). */
const placedIn = (p: PendingProduct) => {
  const read = p as PendingProduct & { categoryPaths?: unknown[]; categoryLinks?: unknown[] };
  return Boolean(read.categoryPaths?.length || read.categoryLinks?.length);
};

/** The catalog's categories in a scoped member's subtrees (one query); undefined for a member not limited to subtrees. */
export async function scopeInside(scope: BatchScope): Promise<Set<string> | undefined> {
  if (!scope.scopeCategoryIds) return undefined;
  return scopedCategoriesOf(
    scope.db,
    { catalogIds: [], categoryIds: scope.scopeCategoryIds },
    scope.companyId,
    scope.catalogId,
  );
}

/**
 * The catalog's categories in a scoped member's subtrees, read again for each batch (the import
 * itself may have created some below them), and the stand-in ids a dry run gave the categories
 * it would create: a scoped import creates categories only inside the subtrees
 * (import-categories.ts), so those are inside too.
 */
async function categoriesInScope(scope: BatchScope, records: UpsertRecord[]): Promise<Set<string>> {
  const inside = (await scopeInside(scope))!;
  for (const r of records) for (const id of r.categoryIds ?? []) if (id.startsWith(DRY_RUN_PREFIX)) inside.add(id);
  return inside;
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
    const reject = (code: string, reason: string) =>
      rejections.push({ seq: e.seq, sku: e.sku, location: e.location, reason, code });
    if (!known.has(e.groupId))
      reject('map_group_unknown', `CATALOG_GROUP_ID ${e.groupId} is not a group of the file's CATALOG_GROUP_SYSTEM`);
    else if (!found.has(e.sku))
      reject('map_product_unknown', `no product with SKU ${e.sku} (rejected above, or not in the file)`);
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
