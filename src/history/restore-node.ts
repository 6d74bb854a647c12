import { dbNow } from '../kernel/clock';
import { deleteStatements, insertStatements, resolveStatements } from '../catalog/references/reference-statements';
import { and, eq, inArray } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import {
  attributes,
  attributeValues,
  catalogs,
  categories,
  exportTemplates,
  productCategories,
  productFeatureBlocks,
  products,
} from '../db/schema';
import { parseValue } from '../kernel/value-types';
import { isTranslation, translationRestore } from './restore-translations';
import { classificationStatements } from './restore-classification';
import type { StoredPrice } from '../model/price-list';
import { replacePriceStatements } from '../catalog/prices/prices';
import { blockRows, deleteBlocksStatement } from '../model/feature-block-rows';
import type { FeatureBlockInput } from '../model/feature-block-types';
import { mediaRestore } from './restore-media';
import { languagesChangedStatement } from '../records/published-languages';
import {
  CATALOG_FIELDS,
  CATEGORY_FIELDS,
  PRODUCT_FIELDS,
  TEMPLATE_FIELDS,
  type HistoryKind,
  type Json,
  type Snapshot,
} from '../records/snapshot';

/** Paths a restore leaves as they are (docs/history.md): moves between departments or parents. */
const KEPT = (path: string) => path === 'variants' || path === 'departmentId' || path === 'parentId';

export interface NodePlan {
  statements: BatchStatement[];
  /** The snapshot the statements produce: the target, except for paths that could not be restored. */
  applied: Snapshot;
  /** Paths that differ from the target but were left as they are, with the reason. */
  skipped: { path: string; reason: string }[];
  /** Whether the statements re-create, remove or change a media link of the element. */
  linksChanged: boolean;
}

function fieldsOf(kind: HistoryKind): readonly string[] {
  return kind === 'catalog'
    ? CATALOG_FIELDS
    : kind === 'category'
      ? CATEGORY_FIELDS
      : kind === 'template'
        ? TEMPLATE_FIELDS
        : PRODUCT_FIELDS;
}

function builtInStatement(db: Database, kind: HistoryKind, id: string, set: Record<string, Json>): BatchStatement {
  switch (kind) {
    case 'catalog':
      return db
        .update(catalogs)
        .set({ ...set, updatedAt: dbNow })
        .where(eq(catalogs.id, id));
    case 'category':
      return db
        .update(categories)
        .set({ ...set, updatedAt: dbNow })
        .where(eq(categories.id, id));
    case 'template':
      return db
        .update(exportTemplates)
        .set({ ...set, updatedAt: dbNow } as never)
        .where(eq(exportTemplates.id, id));
    default:
      return db
        .update(products)
        .set({ ...set, updatedAt: dbNow })
        .where(eq(products.id, id));
  }
}

const differs = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);

/**
 * The statements that take one element from `current` to `target` (both full snapshots):
 * built-in fields, attribute values, the classification and category placements. What cannot
 * be restored any more (an attribute or category deleted since) is skipped and reported.
 */
export async function planNodeRestore(
  db: Database,
  companyId: string,
  element: { id: string; kind: HistoryKind; catalogId?: string },
  current: Snapshot,
  target: Snapshot,
): Promise<NodePlan> {
  const applied: Snapshot = { ...target };
  const skipped: NodePlan['skipped'] = [];
  const statements: BatchStatement[] = [];
  const keep = (path: string, reason: string) => {
    if (current[path] === undefined) delete applied[path];
    else applied[path] = current[path]!;
    if (differs(current[path], target[path])) skipped.push({ path, reason });
  };
  for (const path of new Set([...Object.keys(current), ...Object.keys(target)])) {
    if (KEPT(path)) keep(path, 'moves are not undone by a restore');
  }
  const files = mediaRestore(db, companyId, element.id, current, target, keep);
  statements.push(...files.statements);
  Object.assign(applied, files.applied);
  for (const path of files.removed) delete applied[path];
  statements.push(...translationRestore(db, element.id, current, target, keep));

  const set: Record<string, Json> = {};
  for (const field of fieldsOf(element.kind)) {
    if (!KEPT(field) && differs(current[field], target[field])) set[field] = target[field] ?? null;
  }
  if (Object.keys(set).length > 0) statements.push(builtInStatement(db, element.kind, element.id, set));
  if ((element.kind === 'product' || element.kind === 'variant') && ('sku' in set || 'manufacturerPid' in set)) {
    // As SetValue: references by the restored SKU, and by the old and the restored manufacturer
    // number, resolve against the catalog as the restore leaves it (catalog/references/).
    const text = (v: Json | undefined) => (typeof v === 'string' ? v : null);
    statements.push(
      ...resolveStatements(
        db,
        element.catalogId ?? '',
        'sku' in set ? [text(set.sku)] : [],
        [element.id],
        'manufacturerPid' in set ? [text(set.manufacturerPid), text(current.manufacturerPid)] : [],
      ),
    );
  }
  if (element.kind === 'catalog' && set.languages) {
    // As UpdateCatalog: products with texts in a language the restore adds or removes are resent once.
    const republish = languagesChangedStatement(
      db,
      element.id,
      (current.languages as string[] | null) ?? [],
      set.languages as string[],
    );
    if (republish) statements.push(republish);
  }

  const codes = new Set(
    [...Object.keys(current), ...Object.keys(target)]
      .filter((p) => p.startsWith('values.') && !isTranslation(p) && differs(current[p], target[p]))
      .map((p) => p.slice(7)),
  );
  if (codes.size > 0) {
    const defs = await db
      .select()
      .from(attributes)
      .where(and(eq(attributes.companyId, companyId), inArray(attributes.code, [...codes])));
    for (const code of codes) {
      const def = defs.find((d) => d.code === code);
      const path = `values.${code}`;
      if (!def) {
        keep(path, 'the attribute no longer exists');
        continue;
      }
      const value = target[path];
      if (value === undefined || value === null) {
        statements.push(
          db
            .delete(attributeValues)
            .where(and(eq(attributeValues.elementId, element.id), eq(attributeValues.attributeId, def.id))),
        );
        continue;
      }
      const parsed = parseValue(path, String(value), { type: def.type, unit: def.unit, enumValues: def.enumValues });
      const row = {
        value: parsed.value,
        numberValue: parsed.number,
        numberValueTo: parsed.numberTo,
      };
      statements.push(
        db
          .insert(attributeValues)
          .values({ elementId: element.id, attributeId: def.id, ...row })
          .onConflictDoUpdate({ target: [attributeValues.elementId, attributeValues.attributeId], set: row }),
      );
    }
  }

  // In path order: an undone version appends a path (a kept unit's) that a fresh snapshot lists beside its value.
  const classPaths = (s: Snapshot) =>
    Object.entries(s)
      .filter(([p]) => p.startsWith('classification.'))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (JSON.stringify(classPaths(current)) !== JSON.stringify(classPaths(target))) {
    // `applied`: the target as the rows will hold it (a kept unit it cannot write back is dropped).
    statements.push(...(await classificationStatements(db, companyId, element.id, applied)));
  }

  if (element.kind === 'product' && differs(current.categories, target.categories)) {
    const wanted = (target.categories as string[] | undefined) ?? [];
    const existing = wanted.length
      ? await db
          .select({ id: categories.id })
          .from(categories)
          .where(
            and(
              eq(categories.companyId, companyId),
              eq(categories.catalogId, element.catalogId ?? ''),
              inArray(categories.id, wanted),
            ),
          )
      : [];
    const ids = wanted.filter((id) => existing.some((e) => e.id === id));
    if (ids.length !== wanted.length) skipped.push({ path: 'categories', reason: 'some categories no longer exist' });
    if (ids.length > 0) applied.categories = ids;
    else delete applied.categories;
    statements.push(db.delete(productCategories).where(eq(productCategories.productId, element.id)));
    for (const categoryId of ids)
      statements.push(db.insert(productCategories).values({ productId: element.id, categoryId }));
  }
  if ((element.kind === 'product' || element.kind === 'variant') && differs(current.prices, target.prices)) {
    // The whole list is one path: a restore puts back the list as it was (its default row's amount is `price`).
    const rows = ((target.prices as unknown as Omit<StoredPrice, 'position'>[] | undefined) ?? []).map(
      (r, position) => ({
        ...r,
        position,
      }),
    );
    statements.push(...replacePriceStatements(db, element.id, rows));
  }
  if ((element.kind === 'product' || element.kind === 'variant') && differs(current.references, target.references)) {
    // The list by target SKU comes back whole; each target resolves against the catalog as it is now.
    const list =
      (target.references as { type: string; targetSku: string; quantity: number | null }[] | undefined) ?? [];
    statements.push(...deleteStatements(db, [element.id]));
    statements.push(...insertStatements(db, element.catalogId ?? '', [{ productId: element.id, references: list }]));
  }
  if (
    (element.kind === 'product' || element.kind === 'variant') &&
    differs(current.featureBlocks, target.featureBlocks)
  ) {
    // Blocks are one path, the whole ordered list (catalog/feature-blocks/feature-block-history.ts).
    const blocks = (target.featureBlocks as unknown as FeatureBlockInput[] | undefined) ?? [];
    statements.push(
      deleteBlocksStatement(db, element.id),
      ...blockRows(element.id, blocks).map((row) => db.insert(productFeatureBlocks).values(row)),
    );
  }
  return { statements, applied, skipped, linksChanged: files.linksChanged };
}
