import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../../db/client';
import { withMarkedRescore } from '../../db/score-refresh';
import { newId } from '../../kernel/ids';
import { catalogs } from '../../db/schema';
import { deleteObjects } from '../../media/media';
import { historyStatements, type HistoryEntry } from '../../records/history-record';
import { snapshotAfter, snapshotOfNode } from './write/upsert-history';
import type { Snapshot } from '../../records/snapshot';
import { loadProductAggregates, type ProductAggregate, type ProductNode } from '../../model/product-aggregate';
import type { StoredFeatureBlock } from '../../model/feature-block-types';
import { changedParts } from './write/changed-parts';
import { nodeStatements, WriteSet } from './write/node-writes';
import { categoriesOfCatalog, existingBySku } from './resolve/upsert-lookups';
import { CategoryPaths } from '../../records/category-paths';
import {
  bumpWithFingerprints,
  fingerprintsAfter,
  publishedLanguagesOf,
  type WrittenNode,
} from './write/upsert-fingerprints';
import type { ReferenceCache } from './resolve/reference-cache';
import { classesNeeded, resolveRecord } from './resolve/resolve-record';
import type { ResolvedNode } from './upsert-types';
import { ItemError, type UpsertOutcome, type UpsertRecord } from './upsert-types';
import type { Caller } from '../../kernel/caller';
import { foldDefaultLanguage } from './resolve/upsert-translations';
import { inheritMasterPrices } from './resolve/inherited-prices';
import { inheritMasterValues } from './resolve/inherited-fields';
import { placementsWithin } from '../placement-reach';

const IN_CHUNK = 90;

/** The stored blocks of systems the record does not replace, in place, then the record's blocks. */
function keptBlocks(node: ProductNode, next: ResolvedNode): StoredFeatureBlock[] {
  const replaced = new Set(next.featureBlockSystems);
  return [...(node.featureBlocks ?? []).filter((b) => !replaced.has(b.system)), ...next.featureBlocks!];
}

export interface UpsertContext {
  db: Database;
  /** Where removed media files are deleted; null leaves them (only references are removed by imports). */
  files: R2Bucket | null;
  companyId: string;
  /** Who writes: recorded in the change history with every product written (one entry per product). */
  actor: Caller;
  catalogId: string;
  mode: 'upsert' | 'createOnly';
  /** Answer as if written, write nothing. */
  dryRun: boolean;
  cache: ReferenceCache;
  /**
   * Statements committed in the same transaction as the products, given the outcomes and the
   * number of placements written (e.g. an import's checkpoint and report rows).
   */
  alsoInBatch?: (outcomes: UpsertOutcome[], written: { placements: number }) => BatchStatement[];
  /**
   * Keep a record whose fields, values or classification do not check, applying the rules of
   * docs/import.md ("Field problems") and answering warnings (imports without `strict`).
   */
  tolerant?: boolean;
  /** Masters not in the database that variants may name (SKU → id): what a dry run's earlier batch would have created. */
  knownMasters?: ReadonlyMap<string, string>;
  /** The catalog's default language: its texts in a record's `translations` go to the columns. */
  catalogLanguage: string;
  /** A file of our own BMEcat export: a variant's price equal to its master's stays inherited (inherited-prices.ts). */
  inheritMasterPrices?: boolean;
  /** A file of our own BMEcat export: a variant's other values equal to its master's stay inherited (inherited-fields.ts). */
  inheritMasterValues?: boolean;
  /**
   * A member limited to category subtrees (docs/teams.md): the catalog's categories in their
   * scope. A record outside it is answered with an error (`OUTSIDE_SCOPE`) and not written: a
   * master that exists placed in none of them, a new master not placed in them, a record naming a
   * category outside, a variant of a master outside. A stored master's `categoryIds` set its
   * placements in them and keep those outside (catalog/placement-reach.ts). Absent: no product
   * scope narrows the catalog.
   */
  scopeCategories?: ReadonlySet<string>;
}

/** The answer to a record outside the writer's scope: it names neither the product nor whether it exists. */
export const OUTSIDE_SCOPE = 'outside your scope: a product you write must be placed in a category of your scope';

const outcome = (sku: string, status: UpsertOutcome['status'], productId: string | null = null): UpsertOutcome => ({
  sku,
  status,
  productId,
  field: null,
  error: null,
});

/**
 * Creates or updates products and variants by SKU in one catalog, in one transaction: the one
 * upsert of the service, behind `UpsertProducts`, the `upsert_products` MCP tool and import
 * jobs. Each record is checked on its own; a record that fails is answered with the field and
 * reason and not written, the others are written together with their masters' revision bumps
 * and new fingerprints (computed from the records written: upsert-fingerprints.ts). Outcomes
 * come back in record order.
 */
export async function upsertRecords(ctx: UpsertContext, records: UpsertRecord[]): Promise<UpsertOutcome[]> {
  const { db } = ctx;
  await ctx.cache.prefetch({
    attributeCodes: records.flatMap((r) => [
      ...Object.keys(r.values ?? {}),
      ...Object.values(r.translations ?? {}).flatMap((fields) =>
        Object.keys(fields).flatMap((f) => (f.startsWith('values.') ? [f.slice('values.'.length)] : [])),
      ),
    ]),
    classes: records.flatMap(classesNeeded),
  });
  const outcomes: UpsertOutcome[] = records.map((r) => outcome(r.sku, 'error'));
  const warningsOf: NonNullable<UpsertOutcome['warnings']>[] = records.map(() => []);
  const resolved: (ResolvedNode | null)[] = records.map((record, i) => {
    try {
      return resolveRecord(
        ctx.cache,
        foldDefaultLanguage(record, ctx.catalogLanguage),
        ctx.tolerant ? (field, code, message) => warningsOf[i]!.push({ field, code, message }) : undefined,
      );
    } catch (err) {
      if (!(err instanceof ItemError)) throw err;
      outcomes[i] = { ...outcomes[i]!, field: err.field, error: err.message };
      return null;
    }
  });
  const existing = await existingBySku(db, ctx, [
    ...new Set(resolved.flatMap((n) => (n ? [n.sku, ...(n.parentSku ? [n.parentSku] : [])] : []))),
  ]);
  // Every master the call may touch: of the products it names, and the masters its variants name.
  const masterIds = [...new Set([...existing.values()].map((r) => r.parentId ?? r.id))];
  const aggregates = new Map<string, ProductAggregate>();
  const nodes = new Map<string, ProductNode>();
  const placements = new Map<string, string[]>();
  const variantIdsOf = new Map<string, string[]>();
  for (let i = 0; i < masterIds.length; i += IN_CHUNK) {
    for (const aggregate of await loadProductAggregates(db, ctx.companyId, masterIds.slice(i, i + IN_CHUNK))) {
      aggregates.set(aggregate.product.id, aggregate);
      nodes.set(aggregate.product.id, aggregate);
      placements.set(aggregate.product.id, aggregate.categoryIds);
      variantIdsOf.set(
        aggregate.product.id,
        aggregate.variants.map((v) => v.product.id),
      );
      for (const variant of aggregate.variants) nodes.set(variant.product.id, variant);
    }
  }
  const storedMaster = (sku: string) => {
    const row = existing.get(sku);
    return row && row.parentId === null ? nodes.get(row.id) : undefined;
  };
  if (ctx.inheritMasterPrices) inheritMasterPrices(resolved, storedMaster);
  if (ctx.inheritMasterValues) inheritMasterValues(resolved, storedMaster);
  const knownCategories = await categoriesOfCatalog(db, ctx, [
    ...new Set(resolved.flatMap((n) => n?.categoryIds ?? [])),
  ]);

  const writes = new WriteSet();
  const written = new Map<string, WrittenNode>();
  let placementsWritten = 0;
  const history = new Map<string, HistoryEntry & { after: Snapshot }>();
  const touched = new Set<string>();
  const mastersInCall = new Map<string, string>();
  const skusInCall = new Set<string>();
  let created = 0;
  const plan = (next: (typeof resolved)[number], i: number) => {
    if (!next) return;
    const fail = (field: string, error: string) => {
      outcomes[i] = { ...outcome(next.sku, 'error'), field, error };
    };
    // the record's own placements, counted as written (a scoped writer's kept ones are not the record's)
    const ownPlacements = next.categoryIds?.length ?? 0;
    if (skusInCall.has(next.sku)) return fail('sku', `sku "${next.sku}" is given more than once`);
    skusInCall.add(next.sku);
    const scoped = ctx.scopeCategories;
    // a category outside the scope, or one that names nothing, is outside alike: the answer never
    // tells whether it exists (docs/teams.md)
    if (scoped && next.categoryIds?.some((id) => !scoped.has(id))) return fail('categoryIds', OUTSIDE_SCOPE);
    // A dry run of an import places products in the categories it would create under stand-in ids.
    const missing = next.categoryIds?.find(
      (id) => !knownCategories.has(id) && !(ctx.dryRun && id.startsWith('dry-run:')),
    );
    if (missing) return fail('categoryIds', `category ${missing} not found in this catalog`);
    let parentId: string | null = null;
    if (next.parentSku) {
      const parentRow = existing.get(next.parentSku);
      parentId =
        mastersInCall.get(next.parentSku) ??
        (parentRow && parentRow.parentId === null ? parentRow.id : null) ??
        ctx.knownMasters?.get(next.parentSku) ??
        null;
      if (!parentId)
        return fail(
          'parentSku',
          `no master product with SKU "${next.parentSku}" in this catalog (a master comes before its variants)`,
        );
    }
    const row = existing.get(next.sku);
    if (scoped) {
      const inScope = (masterId: string) => (placements.get(masterId) ?? []).some((id) => scoped.has(id));
      const given = next.categoryIds;
      if (given && !next.parentSku && given.length === 0) return fail('categoryIds', OUTSIDE_SCOPE);
      // a stored product is judged by its master's placements now, a new master by those it is given
      if (row && !inScope(row.parentId ?? row.id)) return fail('sku', OUTSIDE_SCOPE);
      if (next.parentSku) {
        // a variant goes with its master: one of this call that passed, or a stored one in scope
        const storedParent = existing.get(next.parentSku);
        if (!mastersInCall.has(next.parentSku) && storedParent?.parentId === null && !inScope(storedParent.id))
          return fail('parentSku', OUTSIDE_SCOPE);
      } else if (!row && !given?.length) return fail('sku', OUTSIDE_SCOPE);
      // a stored master's placements outside the subtrees are kept: the list sets those inside
      if (row && !row.parentId && given)
        next.categoryIds = placementsWithin(placements.get(row.id) ?? [], given, scoped);
    }
    if (row) {
      if (row.parentId !== parentId) {
        return fail(
          'parentSku',
          row.parentId
            ? `sku "${next.sku}" is a variant of another master product`
            : `sku "${next.sku}" is a master product, not a variant`,
        );
      }
      if (!row.parentId) mastersInCall.set(next.sku, row.id);
      const node = nodes.get(row.id);
      if (ctx.mode === 'createOnly' || !node) return (outcomes[i] = outcome(next.sku, 'unchanged', row.id));
      if (next.featureBlocks && next.featureBlockSystems) next.featureBlocks = keptBlocks(node, next);
      const parts = changedParts(next, node, row.parentId ? null : (placements.get(row.id) ?? []));
      if (!parts.any) return (outcomes[i] = outcome(next.sku, 'unchanged', row.id));
      const media = nodeStatements(db, ctx, next, { id: row.id, parentId, existing: node, parts }, writes);
      written.set(row.id, { id: row.id, parentId, next, existing: node, parts, written: media });
      if (parts.categories) placementsWritten += ownPlacements;
      const before = snapshotOfNode(
        node,
        row.parentId ? null : { categoryIds: placements.get(row.id) ?? [], variantIds: variantIdsOf.get(row.id) ?? [] },
      );
      history.set(row.id, {
        elementId: row.id,
        kind: row.parentId ? 'variant' : 'product',
        place: { catalogId: ctx.catalogId, masterId: row.parentId ?? row.id },
        before,
        after: snapshotAfter(before, next, { sku: next.sku, ...media }),
      });
      touched.add(row.parentId ?? row.id);
      return (outcomes[i] = outcome(next.sku, 'updated', row.id));
    }
    const id = newId();
    if (!parentId) mastersInCall.set(next.sku, id);
    const media = nodeStatements(db, ctx, next, { id, parentId, existing: null, parts: null }, writes);
    written.set(id, { id, parentId, next, existing: null, parts: null, written: media });
    placementsWritten += ownPlacements;
    history.set(id, {
      elementId: id,
      kind: parentId ? 'variant' : 'product',
      place: { catalogId: ctx.catalogId, masterId: parentId ?? id },
      before: null,
      after: snapshotAfter(null, next, { sku: next.sku, ...media }),
    });
    if (parentId) {
      // The master's variant list changes too; recorded when the master is part of this call.
      const masterEntry = history.get(parentId);
      if (masterEntry)
        masterEntry.after = {
          ...masterEntry.after,
          variants: [...((masterEntry.after.variants as string[] | undefined) ?? []), id].sort(),
        };
    }
    touched.add(parentId ?? id);
    created++;
    outcomes[i] = outcome(next.sku, 'created', id);
  };
  resolved.forEach((next, i) => {
    plan(next, i);
    if (outcomes[i]!.status !== 'error' && warningsOf[i]!.length > 0) outcomes[i]!.warnings = warningsOf[i];
  });

  const extra = { placements: placementsWritten };
  if (ctx.dryRun) {
    await runBatch(db, ctx.alsoInBatch?.(outcomes, extra) ?? []);
    return outcomes;
  }
  // Fingerprints from the records being written (no second read): a new master is inserted at
  // revision 1 with its fingerprint; an existing one is bumped with its new fingerprint.
  const masters = [...touched];
  const fingerprints = await fingerprintsAfter(
    masters,
    aggregates,
    written,
    new CategoryPaths(db, ctx.companyId),
    await publishedLanguagesOf(db, ctx.catalogId),
  );
  for (const row of writes.products) {
    const fingerprint = fingerprints.get(row.id);
    if (fingerprint) Object.assign(row, { revision: 1, fingerprint, fingerprintRevision: 1 });
  }
  const bumps = masters.flatMap((id) => {
    const before = aggregates.get(id);
    return before ? [{ id, revision: before.product.revision, fingerprint: fingerprints.get(id)! }] : [];
  });
  const statements = [
    ...writes.flush(db),
    ...historyStatements(db, ctx.actor, [...history.values()]).statements,
    ...bumpWithFingerprints(db, bumps),
  ];
  if (created > 0)
    statements.push(
      db
        .update(catalogs)
        .set({ productCount: sql`${catalogs.productCount} + ${created}` })
        .where(eq(catalogs.id, ctx.catalogId)),
    );
  // Completeness: each product this batch writes is rescored once at its end, not once per row;
  // the batch marks the products it wrote in one statement instead of a trigger per row written.
  const oldGtins = new Set<string>();
  for (const w of written.values()) if (w.existing?.product.gtin) oldGtins.add(w.existing.product.gtin);
  await runBatch(
    db,
    withMarkedRescore(db, {
      own: statements,
      productIds: [...new Set([...written.keys(), ...masters])],
      companyId: ctx.companyId,
      oldGtins: [...oldGtins],
      rest: ctx.alsoInBatch?.(outcomes, extra) ?? [],
    }),
  );
  if (ctx.files && writes.removedKeys.length > 0)
    await deleteObjects(
      ctx.files,
      writes.removedKeys.filter((k) => !k.startsWith('media-ref/')),
    );
  return outcomes;
}
