import { eq, inArray, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { attributeValues, catalogs, classificationLinks, media, products } from '../db/schema';
import { conflict, notFound } from '../kernel/app-error';
import { isSkuClash } from '../model/sku';
import { assertDepartment, findElement } from '../db/scope';
import { findTemplate } from '../exports/templates';
import { deleteObjects, mediaKeysWhere } from '../media/media';
import { categoryLinksChanged, categoryPathChanged, staleMastersIn } from '../records/category-paths';
import { bumpRevision, refreshFingerprints } from '../records/sync-record';
import { diffSnapshots, historyStatements, type HistoryEntry } from '../records/history-record';
import { planNodeRestore, type NodePlan } from './restore-node';
import { loadSnapshot, pickFields, PRODUCT_FIELDS, type HistoryKind, type Snapshot } from '../records/snapshot';
import { findVersion, stateAfter } from './versions';
import type { Caller } from '../kernel/caller';
import { resolveStatements } from '../catalog/references/reference-statements';
import { assertRestoreInScope } from './restore-scope';

interface RestoreInput {
  departmentId: string;
  elementId: string;
  versionId: string;
}

interface Target {
  id: string;
  kind: HistoryKind;
  catalogId?: string;
  masterId: string | null;
  departmentId: string | null;
}

async function resolveElement(db: Database, actor: Caller, input: RestoreInput, kind: string): Promise<Target> {
  if (kind === 'template') {
    const template = await findTemplate(db, actor, input.elementId);
    return { id: template.id, kind: 'template', masterId: null, departmentId: null };
  }
  const element = await findElement(db, actor, input.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('element');
  return {
    id: element.id,
    kind: element.kind,
    catalogId: element.catalogId,
    masterId: element.masterId,
    departmentId: element.departmentId,
  };
}

/**
 * RestoreVersion: puts the element back as it was right after `versionId`: built-in fields,
 * attribute values, classification and, for a master product, its placements and its
 * variants (each as it was at that moment; variants added since are deleted, variants deleted
 * since come back). One batch, itself recorded as new versions by the restorer (action
 * `restore`); fingerprints are refreshed after it. Files still there get their order and
 * metadata back; links (no stored bytes) come back whole (restore-media.ts); uploaded files
 * deleted or uploaded since, moves between departments or parents and deleted
 * attributes/categories are not restored; the answer lists them.
 */
export async function restoreVersion(deps: { db: Database; files: R2Bucket }, actor: Caller, input: RestoreInput) {
  const { db } = deps;
  await assertDepartment(db, actor, input.departmentId);
  const version = await findVersion(db, actor.companyId, input.elementId, input.versionId);
  const element = await resolveElement(db, actor, input, version.elementKind);
  const current = (await loadSnapshot(db, actor.companyId, element.id, element.kind)) ?? {};
  const target = await stateAfter(db, actor.companyId, element.id, current, version.id);
  const plan = await planNodeRestore(db, actor.companyId, element, current, target);
  // a master's placements decide its scope: the restored ones must keep it in the member's (docs/teams.md)
  if (element.kind === 'product')
    await assertRestoreInScope(
      db,
      actor,
      element.catalogId!,
      (current.categories as string[] | undefined) ?? [],
      (plan.applied.categories as string[] | undefined) ?? [],
    );
  const statements: BatchStatement[] = [...plan.statements];
  // a template has no catalog: its version records no place (history-record.ts `placeColumns`)
  const place = { catalogId: element.catalogId ?? '', masterId: element.masterId };
  const entries: HistoryEntry[] = [
    { elementId: element.id, kind: element.kind, place, before: current, after: plan.applied, action: 'restore' },
  ];
  const skipped = plan.skipped.map((s) => ({ elementId: element.id, ...s }));
  let removedVariants: string[] = [];

  if (element.kind === 'product') {
    const variants = await restoreVariants(db, actor, element, current, target, version.id);
    statements.push(...variants.statements);
    entries.push(...variants.entries);
    skipped.push(...variants.skipped);
    removedVariants = variants.removed;
    if (variants.kept.length > 0) plan.applied.variants = variants.kept.sort();
    else delete plan.applied.variants;
  }
  const fileKeys = removedVariants.length ? await mediaKeysWhere(db, inArray(media.elementId, removedVariants)) : [];
  const { statements: history, versionIds } = historyStatements(db, actor, entries);
  if (statements.length > 0 && element.masterId) statements.push(bumpRevision(db, element.masterId));
  // A category's name is part of the sync record of every product below it (docs/sync.md).
  const renamesCategory = element.kind === 'category' && (plan.applied.name ?? null) !== (current.name ?? null);
  if (renamesCategory) statements.push(categoryPathChanged(db, actor.companyId, element.id));
  // So are its media links, for the products placed in it (docs/shops.md "Category images").
  const relinksCategory = element.kind === 'category' && plan.linksChanged;
  if (relinksCategory && !renamesCategory) statements.push(categoryLinksChanged(db, actor.companyId, [element.id]));
  try {
    // completeness events compare each product once, before and after the whole restore
    await runBatch(db, withCompletenessEventsAtEnd(db, [...statements, ...history]));
  } catch (err) {
    if (isSkuClash(err)) throw conflict('a SKU of that version is used by another product now');
    throw err;
  }
  await deleteObjects(deps.files, fileKeys);
  if (element.masterId) await refreshFingerprints(db, actor.companyId, [element.masterId]);
  if (renamesCategory)
    await refreshFingerprints(db, actor.companyId, await staleMastersIn(db, actor.companyId, element.id));
  else if (relinksCategory)
    await refreshFingerprints(
      db,
      actor.companyId,
      await staleMastersIn(db, actor.companyId, element.id, { subtree: false }),
    );
  return {
    elementId: element.id,
    restoredFrom: version.id,
    versionId: versionIds.get(element.id) ?? null,
    changes: diffSnapshots(current, plan.applied),
    skipped,
  };
}

/** The variants of a master as they were at `versionId`: changed, re-created or removed. */
async function restoreVariants(
  db: Database,
  actor: Caller,
  master: Target,
  current: Snapshot,
  target: Snapshot,
  versionId: string,
) {
  const place = { catalogId: master.catalogId!, masterId: master.id };
  const now = new Set((current.variants as string[] | undefined) ?? []);
  const then = new Set((target.variants as string[] | undefined) ?? []);
  const statements: BatchStatement[] = [];
  const entries: HistoryEntry[] = [];
  const skipped: { elementId: string; path: string; reason: string }[] = [];
  const removed: string[] = [];
  const kept: string[] = [];
  let count = 0;
  for (const id of new Set([...now, ...then])) {
    const before = now.has(id) ? ((await loadSnapshot(db, actor.companyId, id, 'variant')) ?? {}) : {};
    const wanted = await stateAfter(db, actor.companyId, id, before, versionId);
    if (!then.has(id)) {
      removed.push(id);
      statements.push(...removeVariant(db, id));
      entries.push({ elementId: id, kind: 'variant', place, before, after: null, action: 'restore' });
      count -= 1;
      continue;
    }
    if (!now.has(id)) {
      if (Object.keys(wanted).length === 0) {
        skipped.push({ elementId: id, path: 'variants', reason: 'the variant has no recorded state to re-create' });
        continue;
      }
      const row = pickFields(wanted, PRODUCT_FIELDS);
      statements.push(
        db.insert(products).values({
          ...row,
          id,
          companyId: actor.companyId,
          catalogId: master.catalogId!,
          parentId: master.id,
        } as never),
      );
      // References waiting for the re-created variant's SKU resolve to it.
      statements.push(...resolveStatements(db, master.catalogId!, [row.sku as string | null]));
      count += 1;
    }
    kept.push(id);
    const plan: NodePlan = await planNodeRestore(
      db,
      actor.companyId,
      { id, kind: 'variant', catalogId: master.catalogId! },
      now.has(id) ? before : pickFields(wanted, PRODUCT_FIELDS),
      wanted,
    );
    statements.push(...plan.statements);
    skipped.push(...plan.skipped.map((s) => ({ elementId: id, ...s })));
    entries.push({
      elementId: id,
      kind: 'variant',
      place,
      before: now.has(id) ? before : null,
      after: plan.applied,
      action: 'restore',
    });
  }
  if (count !== 0) {
    statements.push(
      db
        .update(catalogs)
        .set({ productCount: sql`max(0, ${catalogs.productCount} + ${count})` })
        .where(eq(catalogs.id, master.catalogId!)),
    );
  }
  return { statements, entries, skipped, removed, kept };
}

function removeVariant(db: Database, id: string): BatchStatement[] {
  return [
    db.delete(attributeValues).where(eq(attributeValues.elementId, id)),
    db.delete(classificationLinks).where(eq(classificationLinks.elementId, id)),
    db.delete(media).where(eq(media.elementId, id)),
    db.delete(products).where(eq(products.id, id)),
  ];
}
