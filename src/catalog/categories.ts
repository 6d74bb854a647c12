import { dbNow } from '../kernel/clock';
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { isUniqueViolation, runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import type { JobMessage } from '../env';
import { INLINE_MASTERS, planSubtreeRescore, startSubtreeJob } from './category-rescore';
import { clientId, newId, unusableId } from '../kernel/ids';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { attributeValues, catalogs, categories, classificationLinks, media, products } from '../db/schema';
import { categoryPathChanged, staleMastersIn } from '../records/category-paths';
import { refreshFingerprints } from '../records/sync-record';
import { badRequest, notFound } from '../kernel/app-error';
import { deleteObjects, mediaKeysWhere } from '../media/media';
import { historyStatement, historyStatements, type HistoryEntry } from '../records/history-record';
import { CATEGORY_FIELDS, loadSnapshot, pickFields, withChanges, type Snapshot } from '../records/snapshot';
import { subtreeSums } from './category-counts';
import { type CategoryReach, categoryReach, categoryReachIn, marked, reaches } from './category-reach';
import { assertDepartment, findCatalog, findCategory } from '../db/scope';
import { scopedCategoryCounts } from '../db/scope-counts';
import type { Caller } from '../kernel/caller';
import {
  type LanguageQueryInput,
  LocalizedOut,
  type ReadLanguage,
  readLanguageFor,
} from './translations/read-language';
import { textLocalizer } from './translations/localized-outputs';
import { TranslationsInput } from './catalog.schemas';
import { readCompanyLanguages } from '../model/company-languages';
import {
  checkTranslations,
  translationPatchPaths,
  translationPaths,
  translationStatements,
  withColumnTexts,
  type TranslationsPatch,
} from './translations/translation-input';
import { readTranslations } from '../model/translation-store';
import { CategoryDataInput, categoryDataColumns, CategoryDataOut, categoryDataOut } from './category-data';

export const CategoryDto = z.strictObject({
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  categoryId: clientId().nullish(),
  parentId: z.uuid().nullish(),
  name: z.string().trim().min(1, 'name must not be empty').max(250),
  description: z.string().max(8000).nullish(),
  sortOrder: z.int().nullish(),
  /** Name, description and keywords per language (docs/languages.md): `{ eng: { name: 'Cables' } }`, null removes. */
  translations: TranslationsInput.optional(),
  ...CategoryDataInput,
});
export type CategoryInput = z.infer<typeof CategoryDto>;

export const MoveCategoryDto = z.strictObject({
  departmentId: z.uuid(),
  categoryId: z.uuid(),
  /** New parent; null moves the category to the top level. */
  parentId: z.uuid().nullable(),
  sortOrder: z.int().nullish(),
});

/** A category in listings and trees (without its group data, which only single-category answers carry). */
export const CategoryItem = z.object({
  categoryId: z.string(),
  catalogId: z.string(),
  parentId: z.string().nullable(),
  /** Null only in a language the category has no name in (then listed in `missingTranslations`). */
  name: z.string().nullable(),
  description: z.string().nullable(),
  sortOrder: z.number().int(),
  /** Products placed directly in this category (a maintained counter, never a row count). */
  productCount: z.number().int(),
  ...LocalizedOut,
});

/** One category: also its group data (keywords, features, kept UDX; category-data.ts). */
export const CategoryOut = CategoryItem.extend(CategoryDataOut);

/** A category in a listing: also the placements in its whole subtree (a product placed twice there counts twice). */
export const CategoryListItem = CategoryItem.extend({
  subtreeProductCount: z.number().int(),
  /**
   * True on a category listed to a member limited to category subtrees only because one of
   * their subtrees lies below it (docs/teams.md): the path to their part of the tree, shown to
   * orient them; its other children are not listed and a write naming it is refused. Absent
   * on every other category.
   */
  outsideScope: z.literal(true).optional(),
});

/** Deepest category tree we accept; deeper trees are rejected (BMEcat readers choke on them). */
export const MAX_DEPTH = 12;

type CategoryRow = typeof categories.$inferSelect;

/** A category row as a single-category answer shows it: with its group data. */
export function categoryDetailOut(row: CategoryRow) {
  return { ...categoryOut(row), ...categoryDataOut(row) };
}

/** A category row as the API lists it (in the catalog's default language). */
export function categoryOut(row: CategoryRow) {
  return {
    categoryId: row.id,
    catalogId: row.catalogId,
    parentId: row.parentId,
    name: row.name,
    description: row.description,
    sortOrder: row.sortOrder,
    productCount: row.productCount,
  };
}

async function depthOf(db: Database, categoryId: string): Promise<number> {
  const [row] = await db.all<{ depth: number }>(sql`
    WITH RECURSIVE up(id, parent_id, depth) AS (
      SELECT id, parent_id, 1 FROM categories WHERE id = ${categoryId}
      UNION ALL SELECT c.id, c.parent_id, up.depth + 1 FROM categories c JOIN up ON c.id = up.parent_id WHERE up.depth < 100
    ) SELECT max(depth) AS depth FROM up`);
  return row?.depth ?? 0;
}

async function findParent(db: Database, tenant: Caller, catalogId: string, parentId: string) {
  const parent = await db.query.categories.findFirst({
    where: and(
      eq(categories.id, parentId),
      eq(categories.companyId, tenant.companyId),
      eq(categories.catalogId, catalogId),
    ),
  });
  if (!parent) throw notFound('parent category');
  return parent;
}

/** A category write's `translations`, checked before anything is written; the default language's merged into the input. */
async function categoryTexts(db: Database, tenant: Caller, catalog: { language: string }, input: CategoryInput) {
  if (!input.translations) return { input, others: {} as TranslationsPatch };
  const texts = checkTranslations(
    await readCompanyLanguages(db, tenant),
    catalog.language,
    'category',
    input.translations,
  );
  return { input: withColumnTexts(input, texts.columns, catalog.language), others: texts.others };
}

export async function addCategory(db: Database, tenant: Caller, given: CategoryInput) {
  await assertDepartment(db, tenant, given.departmentId);
  const catalog = await findCatalog(db, tenant, given.catalogId, given.departmentId);
  const { input, others } = await categoryTexts(db, tenant, catalog, given);
  if (input.parentId) {
    await findParent(db, tenant, catalog.id, input.parentId);
    if ((await depthOf(db, input.parentId)) >= MAX_DEPTH)
      throw badRequest(`parentId: category trees are limited to ${MAX_DEPTH} levels`);
  }
  const id = input.categoryId ?? newId();
  const values = {
    id,
    companyId: tenant.companyId,
    catalogId: catalog.id,
    parentId: input.parentId ?? null,
    name: input.name,
    description: input.description ?? null,
    sortOrder: input.sortOrder ?? 0,
    ...categoryDataColumns(input),
  };
  const after = pickFields(values, CATEGORY_FIELDS);
  translationPatchPaths(others, after);
  for (const path of Object.keys(after)) if (after[path] === null) delete after[path];
  const statements = [
    db.insert(categories).values(values).returning(),
    ...translationStatements(db, id, others),
    db
      .update(catalogs)
      .set({ categoryCount: sql`${catalogs.categoryCount} + 1` })
      .where(eq(catalogs.id, catalog.id)),
    ...historyStatement(db, tenant, { elementId: id, kind: 'category', before: null, after }),
  ] as const;
  try {
    const [inserted] = await db.batch(statements);
    return categoryDetailOut(inserted[0]!);
  } catch (err) {
    // The whole batch rolled back, the counter included.
    if (isUniqueViolation(err, 'categories.id')) throw unusableId('categoryId');
    throw err;
  }
}

export async function updateCategory(db: Database, tenant: Caller, given: CategoryInput, queue?: Queue<JobMessage>) {
  if (!given.categoryId) throw badRequest('categoryId is required');
  await assertDepartment(db, tenant, given.departmentId);
  const catalog = await findCatalog(db, tenant, given.catalogId, given.departmentId);
  const { input, others } = await categoryTexts(db, tenant, catalog, given);
  if (!input.categoryId) throw badRequest('categoryId is required');
  const category = await findCategory(db, tenant, input.categoryId);
  if (category.catalogId !== input.catalogId) throw notFound('category');
  const changes: Partial<CategoryRow> = { name: input.name, ...categoryDataColumns(input) };
  if (input.description !== undefined) changes.description = input.description;
  if (input.sortOrder !== undefined && input.sortOrder !== null) changes.sortOrder = input.sortOrder;
  if (input.parentId !== undefined && input.parentId !== category.parentId) {
    return moveCategory(
      db,
      tenant,
      {
        departmentId: input.departmentId,
        categoryId: category.id,
        parentId: input.parentId ?? null,
        sortOrder: input.sortOrder,
      },
      changes,
      others,
      queue,
    );
  }
  return writeCategory(db, tenant, category, changes, others);
}

/**
 * Writes category changes with their history entry in one batch. A new name or parent changes
 * the path of names the sync sends for every product placed in the subtree: their sync records
 * are marked stale in the same batch and (up to a bound) refreshed right after.
 */
async function writeCategory(
  db: Database,
  tenant: Caller,
  category: CategoryRow,
  changes: Partial<CategoryRow>,
  others: TranslationsPatch = {},
  rescore: BatchStatement[] = [],
) {
  const before = pickFields(category, CATEGORY_FIELDS);
  const patch = translationPatchPaths(others, { ...changes } as Snapshot);
  if (Object.keys(others).length > 0) {
    // The translations' history `before`, only of the paths this write touches.
    const stored = translationPaths((await readTranslations(db, [category.id])).get(category.id));
    for (const path of Object.keys(patch)) if (stored[path] !== undefined) before[path] = stored[path];
  }
  const pathChanged =
    (changes.name !== undefined && changes.name !== category.name) ||
    (changes.parentId !== undefined && changes.parentId !== category.parentId);
  const [rows] = await db.batch([
    db
      .update(categories)
      .set({ ...changes, updatedAt: dbNow })
      .where(eq(categories.id, category.id))
      .returning(),
    ...translationStatements(db, category.id, others),
    ...historyStatement(db, tenant, {
      elementId: category.id,
      kind: 'category',
      before,
      after: withChanges(before, patch),
    }),
    ...(pathChanged ? [categoryPathChanged(db, tenant.companyId, category.id)] : []),
    ...rescore,
  ]);
  if (pathChanged)
    await refreshFingerprints(db, tenant.companyId, await staleMastersIn(db, tenant.companyId, category.id));
  return categoryDetailOut(rows[0]!);
}

/**
 * Re-parents a category within its catalog; refuses cycles and trees deeper than MAX_DEPTH. A new
 * parent rescores the subtree's products for rules limited to a category (category-rescore.ts):
 * in the move's batch when few, else by a job started right after it (without a queue, as in
 * domain tests that do not pass one, always in the batch).
 */
export async function moveCategory(
  db: Database,
  tenant: Caller,
  input: z.infer<typeof MoveCategoryDto>,
  extraChanges: Partial<CategoryRow> = {},
  others: TranslationsPatch = {},
  queue?: Queue<JobMessage>,
  inline = INLINE_MASTERS,
) {
  await assertDepartment(db, tenant, input.departmentId);
  const category = await findCategory(db, tenant, input.categoryId);
  await findCatalog(db, tenant, category.catalogId, input.departmentId);
  if (input.parentId) {
    await findParent(db, tenant, category.catalogId, input.parentId);
    const [cycle] = await db.all<{ found: number }>(sql`
      WITH RECURSIVE up(id, parent_id) AS (
        SELECT id, parent_id FROM categories WHERE id = ${input.parentId}
        UNION ALL SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
      ) SELECT count(*) AS found FROM up WHERE id = ${category.id}`);
    if ((cycle?.found ?? 0) > 0) throw badRequest('parentId: a category cannot move below itself');
    const [height] = await db.all<{ h: number }>(sql`
      WITH RECURSIVE down(id, h) AS (
        SELECT id, 1 FROM categories WHERE id = ${category.id}
        UNION ALL SELECT c.id, down.h + 1 FROM categories c JOIN down ON c.parent_id = down.id WHERE down.h < 100
      ) SELECT max(h) AS h FROM down`);
    if ((await depthOf(db, input.parentId)) + (height?.h ?? 1) > MAX_DEPTH) {
      throw badRequest(`parentId: category trees are limited to ${MAX_DEPTH} levels`);
    }
  }
  const changes: Partial<CategoryRow> = { ...extraChanges, parentId: input.parentId };
  if (input.sortOrder !== undefined && input.sortOrder !== null) changes.sortOrder = input.sortOrder;
  const rescore =
    input.parentId === category.parentId
      ? { statements: [], deferred: false }
      : await planSubtreeRescore(db, tenant.companyId, category.id, queue ? inline : Number.POSITIVE_INFINITY);
  const out = await writeCategory(db, tenant, category, changes, others, rescore.statements);
  if (rescore.deferred && queue)
    await startSubtreeJob({ db, queue }, tenant, { catalogId: category.catalogId, categoryId: category.id });
  return out;
}

/**
 * Deletes a category and its whole subtree. Products stay in the catalog; only their
 * placement in the deleted categories goes (with the rows, through the foreign key).
 */
export async function deleteCategory(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: { departmentId: string; categoryId: string },
) {
  const { db } = deps;
  await assertDepartment(db, tenant, input.departmentId);
  const category = await findCategory(db, tenant, input.categoryId);
  await findCatalog(db, tenant, category.catalogId, input.departmentId);
  const subtree = sql`WITH RECURSIVE sub(id) AS (
      SELECT ${category.id} UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub`;
  const [count] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${subtree})`);
  const removed = count?.n ?? 1;
  // Placements vanish with the categories: the affected masters' sync records change.
  const placed = sql`SELECT product_id FROM product_categories WHERE category_id IN (${subtree})`;
  const affected = await db.all<{ id: string }>(sql`SELECT DISTINCT product_id AS id FROM (${placed})`);
  const inSubtree = (column: SQLiteColumn) => sql`${column} IN (${subtree})`;
  const fileKeys = await mediaKeysWhere(db, inSubtree(media.elementId));
  const history = await deletionHistory(db, tenant, category, subtree, placed);
  // Builder statements with a raw condition: drizzle cannot put parameterised `db.run` in a D1 batch.
  // Placements of many products go row by row: their completeness is compared once, at the end.
  await runBatch(
    db,
    withCompletenessEventsAtEnd(db, [
      db
        .update(products)
        .set({ revision: sql`${products.revision} + 1`, updatedAt: dbNow })
        .where(sql`${products.id} IN (${placed})`),
      db.delete(classificationLinks).where(inSubtree(classificationLinks.elementId)),
      db.delete(attributeValues).where(inSubtree(attributeValues.elementId)),
      db.delete(media).where(inSubtree(media.elementId)),
      db.delete(categories).where(inSubtree(categories.id)),
      db
        .update(catalogs)
        .set({ categoryCount: sql`max(0, ${catalogs.categoryCount} - ${removed})` })
        .where(eq(catalogs.id, category.catalogId)),
      ...historyStatements(db, tenant, history).statements,
    ]),
  );
  await deleteObjects(deps.files, fileKeys);
  await refreshFingerprints(
    db,
    tenant.companyId,
    affected.map((r) => r.id),
  );
  return { categoryId: category.id, deleted: removed };
}

/**
 * History of a subtree deletion: one entry for the deleted category (its subcategories go with
 * it) and one per product that loses a placement (`categories` before -> after).
 */
async function deletionHistory(
  db: Database,
  tenant: Caller,
  category: { id: string; catalogId: string },
  subtree: SQL,
  placed: SQL,
): Promise<HistoryEntry[]> {
  const categoryId = category.id;
  const entries: HistoryEntry[] = [
    {
      elementId: categoryId,
      kind: 'category',
      before: await loadSnapshot(db, tenant.companyId, categoryId, 'category'),
      after: null,
    },
  ];
  const gone = new Set((await db.all<{ id: string }>(sql`SELECT id FROM (${subtree})`)).map((r) => r.id));
  const rows = await db.all<{ productId: string; categoryId: string }>(
    sql`SELECT product_id AS productId, category_id AS categoryId FROM product_categories WHERE product_id IN (${placed}) ORDER BY category_id`,
  );
  const byProduct = new Map<string, string[]>();
  for (const row of rows) byProduct.set(row.productId, [...(byProduct.get(row.productId) ?? []), row.categoryId]);
  for (const [productId, ids] of byProduct) {
    const kept = ids.filter((id) => !gone.has(id));
    entries.push({
      elementId: productId,
      kind: 'product',
      // a placement is of a category of the product's own catalog, and only masters are placed
      place: { catalogId: category.catalogId, masterId: productId },
      before: { categories: ids },
      after: kept.length > 0 ? { categories: kept } : {},
    });
  }
  return entries;
}

/** Per category, the sum of `counts` over its subtree (the tree given as id and parent). */
function scopedSubtreeSums(tree: { id: string; parentId: string | null }[], counts: Map<string, number>) {
  const sums = new Map<string, number>();
  for (const { id } of tree) sums.set(id, counts.get(id) ?? 0);
  const parents = new Map(tree.map((c) => [c.id, c.parentId]));
  for (const [id, n] of counts) {
    if (!n) continue;
    // add each category's own count to every category above it (a tree is at most MAX_DEPTH deep)
    for (let up = parents.get(id), depth = 0; up && depth < 100; up = parents.get(up), depth++)
      sums.set(up, (sums.get(up) ?? 0) + n);
  }
  return sums;
}

/** The children of one category (or the top level), in display order; counts narrowed to the caller's product scope. */
export async function listCategories(
  db: Database,
  tenant: Caller,
  input: { catalogId: string; parentId?: string } & LanguageQueryInput,
) {
  const catalog = await findCatalog(db, tenant, input.catalogId);
  const read = await readLanguageFor(db, tenant, catalog, input);
  // a member limited to category subtrees is listed their subtrees and the path above them only
  const reach = await categoryReach(db, tenant, catalog.id);
  const rows = await db
    .select()
    .from(categories)
    .where(
      and(
        eq(categories.catalogId, catalog.id),
        eq(categories.companyId, tenant.companyId),
        input.parentId ? eq(categories.parentId, input.parentId) : isNull(categories.parentId),
        reach ? withinReachSql(reach) : undefined,
      ),
    )
    .orderBy(asc(categories.sortOrder), asc(categories.name))
    .limit(1000);
  const scoped = await scopedCategoryCounts(db, tenant, catalog.id);
  const localize = await categoryLocalizer(db, read, rows);
  if (scoped) {
    // counts of the member's products only (db/scope-counts.ts): the subtree sums over the catalog's tree
    const tree = await db
      .select({ id: categories.id, parentId: categories.parentId })
      .from(categories)
      .where(and(eq(categories.catalogId, catalog.id), eq(categories.companyId, tenant.companyId)));
    const sums = scopedSubtreeSums(tree, scoped);
    return {
      items: rows.map((r) =>
        marked(reach, {
          ...localize({ ...r, productCount: scoped.get(r.id) ?? 0 }),
          subtreeProductCount: sums.get(r.id) ?? 0,
        }),
      ),
    };
  }
  const sums = await subtreeSums(
    db,
    rows.map((r) => r.id),
  );
  return {
    items: rows.map((r) => ({ ...localize(r), subtreeProductCount: sums.get(r.id) ?? r.productCount })),
  };
}

/** The whole tree of a catalog, nested. Category trees are small (thousands), unlike products. */
export async function getCategoryTree(db: Database, tenant: Caller, catalogId: string, query: LanguageQueryInput = {}) {
  const catalog = await findCatalog(db, tenant, catalogId);
  const read = await readLanguageFor(db, tenant, catalog, query);
  const rows = await db
    .select()
    .from(categories)
    .where(and(eq(categories.catalogId, catalog.id), eq(categories.companyId, tenant.companyId)))
    .orderBy(asc(categories.sortOrder), asc(categories.name));
  const localize = await categoryLocalizer(db, read, rows);
  const scoped = await scopedCategoryCounts(db, tenant, catalog.id);
  const counted = (r: CategoryRow) => (scoped ? { ...r, productCount: scoped.get(r.id) ?? 0 } : r);
  type Node = ReturnType<typeof localize> & { subtreeProductCount: number; children: Node[] };
  const nodes = new Map<string, Node>(
    rows.map((r) => [r.id, { ...localize(counted(r)), subtreeProductCount: 0, children: [] }]),
  );
  const roots: Node[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sum = (node: Node): number =>
    (node.subtreeProductCount = node.productCount + node.children.reduce((n, child) => n + sum(child), 0));
  roots.forEach(sum);
  // summed over the whole tree first, as GetCategories sums, then cut to the member's reach
  const reach = categoryReachIn(tenant, catalog.id, rows);
  return { catalogId: catalog.id, items: reach ? pruned(roots, reach) : roots };
}

/** The nodes (and their descendants) a member of `reach` is shown, the path above their subtrees marked. */
function pruned<N extends { categoryId: string; children: N[] }>(nodes: N[], reach: CategoryReach): N[] {
  return nodes
    .filter((node) => reaches(reach, node.categoryId))
    .map((node) => ({ ...marked(reach, node), children: pruned(node.children, reach) }));
}

/** `categories.id` among those a member of `reach` is shown (one JSON parameter: thousands of ids at most). */
function withinReachSql(reach: CategoryReach) {
  return sql`${categories.id} IN (SELECT value FROM json_each(${JSON.stringify([...reach.inside, ...reach.context])}))`;
}

/** Categories in a read's language: name and description replaced (translations/localized-outputs.ts). */
async function categoryLocalizer(db: Database, read: ReadLanguage, rows: CategoryRow[]) {
  const localize = await textLocalizer(
    db,
    read,
    rows.map((r) => r.id),
  );
  return (row: CategoryRow) => {
    const out = categoryOut(row);
    return { ...out, ...localize(row.id, { name: out.name, description: out.description }) };
  };
}
