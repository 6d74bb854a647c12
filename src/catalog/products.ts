import { dbNow } from '../kernel/clock';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { isUniqueViolation, runBatch, type BatchStatement, type Database } from '../db/client';
import { newId, unusableId } from '../kernel/ids';
import {
  attributeValues,
  catalogs,
  categories,
  classificationLinks,
  media,
  productCategories,
  products,
} from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import { assertSkuFree, rethrowSkuClash } from '../model/sku';
import { bumpRevision, refreshFingerprints } from '../records/sync-record';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../records/fingerprint-after';
import { changesNothing } from '../records/no-change';
import { guardStatement, isWriteConflict, retryOnConflict } from '../records/write-guard';
import { checkDepartment, masterFrom, productWriteStatements } from '../records/write-context';
import { deleteObjects, mediaKeysWhere } from '../media/media';
import { historyStatements, placeOf, type HistoryEntry } from '../records/history-record';
import { loadSnapshot, pickFields, PRODUCT_FIELDS, withChanges, type Snapshot } from '../records/snapshot';
import { PRODUCT_IDENTITY, type ProductInput } from './catalog.schemas';
import { getProductSummary, productOut } from './product-queries';
import { assertDepartment, findCatalog, findProduct } from '../db/scope';
import { PRODUCT_DATA_FIELDS } from '../model/fields';
import { resolveStatements } from './references/reference-statements';
import { checkGtin } from '../kernel/value-types';
import type { Caller } from '../kernel/caller';
import { assertProductWrite } from '../kernel/permissions';
import { readCompanyLanguages } from '../model/company-languages';
import { placeableCategories, placementsWithin } from './placement-reach';
import { splitLocalizedPath } from '../kernel/languages';
import {
  checkTranslations,
  patchedTranslations,
  translationPatchPaths,
  translationStatements,
  withColumnTexts,
} from './translations/translation-input';

type ProductRow = typeof products.$inferSelect;

/** Built-in fields present in the input; undefined means "leave as is", null means "clear". */
function fieldChanges(input: ProductInput): Partial<ProductRow> {
  if (input.gtin) {
    const problem = checkGtin(input.gtin);
    if (problem) throw badRequest(`gtin: ${problem}`);
  }
  const changes: Partial<ProductRow> = {};
  for (const key of ['sku', ...PRODUCT_DATA_FIELDS] as const) {
    if (input[key] !== undefined) (changes as Record<string, unknown>)[key] = input[key];
  }
  if (input.status) changes.status = input.status;
  return changes;
}

async function assertCategoriesInCatalog(db: Database, tenant: Caller, catalogId: string, categoryIds: string[]) {
  if (categoryIds.length === 0) return;
  const unique = [...new Set(categoryIds)];
  const found = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        eq(categories.companyId, tenant.companyId),
        eq(categories.catalogId, catalogId),
        inArray(categories.id, unique),
      ),
    );
  if (found.length !== unique.length) throw notFound('category');
}

/** A master's variant ids as its snapshot lists them (a partial snapshot: only `variants`). */
async function variantList(db: Database, tenant: Caller, masterId: string): Promise<Snapshot> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.parentId, masterId), eq(products.companyId, tenant.companyId)));
  const ids = rows.map((r) => r.id).sort();
  return ids.length > 0 ? { variants: ids } : {};
}

function withVariant(list: Snapshot, id: string, present: boolean): Snapshot {
  const ids = new Set((list.variants as string[] | undefined) ?? []);
  if (present) ids.add(id);
  else ids.delete(id);
  return ids.size > 0 ? { variants: [...ids].sort() } : {};
}

export async function addProduct(db: Database, tenant: Caller, given: ProductInput) {
  await assertDepartment(db, tenant, given.departmentId);
  const catalog = await findCatalog(db, tenant, given.catalogId, given.departmentId);
  const kind = given.parentId ? 'variant' : 'product';
  const texts = given.translations
    ? checkTranslations(await readCompanyLanguages(db, tenant), catalog.language, kind, given.translations)
    : { columns: {}, others: {} };
  const input = withColumnTexts(given, texts.columns, catalog.language);
  let parent: ProductRow | undefined;
  if (input.parentId) {
    parent = await findProduct(db, tenant, input.parentId);
    if (parent.catalogId !== catalog.id) throw notFound('parent product');
    if (parent.parentId) throw badRequest('parentId: a variant cannot have variants');
    if (input.categoryIds?.length) throw badRequest('categoryIds: variants are placed through their master product');
  }
  await assertSkuFree(db, catalog.id, input.sku);
  const categoryIds = [...new Set(input.categoryIds ?? [])];
  await assertCategoriesInCatalog(db, tenant, catalog.id, categoryIds);

  const id = input.productId ?? newId();
  const masterId = parent?.id ?? id;
  const created = pickFields({ status: 'active', ...fieldChanges(input) }, PRODUCT_FIELDS);
  translationPatchPaths(texts.others, created);
  for (const path of Object.keys(created)) if (created[path] === null) delete created[path];
  if (categoryIds.length > 0) created.categories = [...categoryIds].sort();
  const history: HistoryEntry[] = [
    {
      elementId: id,
      kind: parent ? 'variant' : 'product',
      place: { catalogId: catalog.id, masterId },
      before: null,
      after: created,
    },
  ];
  if (parent) {
    const list = await variantList(db, tenant, parent.id);
    history.push({
      elementId: parent.id,
      kind: 'product',
      place: placeOf(parent),
      before: list,
      after: withVariant(list, id, true),
    });
  }
  const statements: BatchStatement[] = [
    db
      .insert(products)
      .values({
        ...fieldChanges(input),
        id,
        companyId: tenant.companyId,
        catalogId: catalog.id,
        parentId: parent?.id ?? null,
      })
      .returning(),
    ...translationStatements(db, id, texts.others),
    ...categoryIds.map((categoryId) => db.insert(productCategories).values({ productId: id, categoryId })),
    // References waiting for this SKU (or manufacturer number) resolve to the new product (catalog/references/).
    ...resolveStatements(db, catalog.id, [input.sku], [], [fieldChanges(input).manufacturerPid]),
    db
      .update(catalogs)
      .set({ productCount: sql`${catalogs.productCount} + 1` })
      .where(eq(catalogs.id, catalog.id)),
    bumpRevision(db, masterId),
    ...historyStatements(db, tenant, history).statements,
  ];
  try {
    // a new product's placements apply their rules in the same write: compared once, at its end
    await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  } catch (err) {
    // A taken productId fails the insert and so rolls back the counter and revision updates too.
    if (isUniqueViolation(err, 'products.id')) throw unusableId('productId');
    rethrowSkuClash(err, input.sku);
  }
  await refreshFingerprints(db, tenant.companyId, [masterId]);
  return getProductSummary(db, tenant, id);
}

/** UpdateProduct's `translations`, checked against the company's languages before the read batch. */
async function checkedTranslationsOf(db: Database, tenant: Caller, input: ProductInput) {
  if (!input.translations) return null;
  const [catalog] = await db
    .select({ language: catalogs.language })
    .from(catalogs)
    .where(and(eq(catalogs.id, input.catalogId), eq(catalogs.companyId, tenant.companyId)));
  if (!catalog) throw notFound('catalog');
  const [product] = await db
    .select({ parentId: products.parentId })
    .from(products)
    .where(and(eq(products.id, input.productId!), eq(products.companyId, tenant.companyId)));
  const kind = product?.parentId ? 'variant' : 'product';
  return {
    language: catalog.language,
    ...checkTranslations(await readCompanyLanguages(db, tenant), catalog.language, kind, input.translations),
  };
}

/**
 * Updates the given built-in fields (left-out fields keep their values) and, if given, the
 * placements. Three round trips at most, one transaction: one batch of reads, one guarded
 * batch with the change, its version, the master's new revision and fingerprint and the answer
 * read back (docs/history.md, "Concurrency"); a lost race reads and plans again. A member
 * limited to category subtrees who gives `categoryIds` sets the placements inside their
 * subtrees, those outside are kept (placement-reach.ts): one more read, their subtrees'
 * categories. The answer lists every placement, as GetProduct does.
 */
export async function updateProduct(db: Database, tenant: Caller, given: ProductInput) {
  // The route's and tool's check again, for a caller that comes another way (docs/teams.md).
  assertProductWrite(tenant, given, PRODUCT_IDENTITY);
  const productId = given.productId;
  if (!productId) throw badRequest('productId is required');
  // The catalog's default language cannot change while it has products, so it is read once here.
  const texts = await checkedTranslationsOf(db, tenant, given);
  const input = texts ? withColumnTexts(given, texts.columns, texts.language) : given;
  const others = texts?.others ?? {};
  // the categories a scoped member may place in: read once, whatever races the write loses
  const inside = input.categoryIds ? await placeableCategories(db, tenant, input.catalogId) : null;
  return retryOnConflict(() => updateProductOnce(db, tenant, input, productId, others, inside));
}

async function updateProductOnce(
  db: Database,
  tenant: Caller,
  input: ProductInput,
  productId: string,
  others: Record<string, Record<string, string | null>>,
  inside: ReadonlySet<string> | null,
) {
  const given = input.categoryIds ? [...new Set(input.categoryIds)] : undefined;
  const results = await db.batch(productWriteStatements(db, tenant, { ...input, productId, categoryIds: given ?? [] }));
  const [department, [catalog], [product], placeable] = results;
  checkDepartment(department);
  if (!catalog) throw notFound('catalog');
  if (!product || product.catalogId !== catalog.id) throw notFound('product');
  if (input.parentId !== undefined && input.parentId !== product.parentId) {
    throw badRequest('parentId cannot change; delete the variant and add it again under the other master');
  }
  if (given && product.parentId) throw badRequest('categoryIds: variants are placed through their master product');
  const { aggregate, paths } = masterFrom(db, tenant.companyId, results.slice(4) as never);
  if (!aggregate) throw notFound('product');
  // the whole new set: a scoped member's list and the placements outside their subtrees (403 before any 404)
  const categoryIds = given && placementsWithin(aggregate.categoryIds, given, inside);
  if (given && placeable.length !== given.length) throw notFound('category');

  const masterId = aggregate.product.id;
  const node = product.parentId ? aggregate.variants.find((v) => v.product.id === product.id) : aggregate;
  const changes = fieldChanges(input);
  const statements: BatchStatement[] = [
    guardStatement(db, revisionIs(tenant.companyId, masterId, aggregate.product.revision)),
  ];
  if (Object.keys(changes).length > 0) {
    // A variant's own updatedAt (a master's is also touched by bumpWithFingerprint).
    statements.push(
      db
        .update(products)
        .set({ ...changes, updatedAt: dbNow })
        .where(eq(products.id, product.id)),
    );
  }
  if (changes.sku !== undefined && changes.sku !== product.sku)
    statements.push(...resolveStatements(db, product.catalogId, [changes.sku], [product.id]));
  if (changes.manufacturerPid !== undefined && changes.manufacturerPid !== product.manufacturerPid)
    statements.push(
      ...resolveStatements(db, product.catalogId, [], [], [changes.manufacturerPid, product.manufacturerPid]),
    );
  statements.push(...translationStatements(db, product.id, others));
  if (categoryIds) {
    statements.push(db.delete(productCategories).where(eq(productCategories.productId, product.id)));
    for (const categoryId of categoryIds) {
      statements.push(db.insert(productCategories).values({ productId: product.id, categoryId }));
    }
  }
  // Partial snapshots, both from the state the guard holds: the product row and its placements.
  const before = pickFields(product, PRODUCT_FIELDS);
  const patch: Snapshot = { ...changes } as Snapshot;
  // The translations' paths (`name@eng`), before as the guarded read holds them.
  translationPatchPaths(others, patch);
  for (const path of Object.keys(patch)) {
    const { field, language } = splitLocalizedPath(path);
    const text = language ? node?.translations?.[language]?.[field] : undefined;
    if (text !== undefined) before[path] = text;
  }
  if (categoryIds) {
    if (aggregate.categoryIds.length > 0) before.categories = [...aggregate.categoryIds].sort();
    patch.categories = categoryIds.length > 0 ? [...categoryIds].sort() : null;
  }
  const kind = product.parentId ? 'variant' : 'product';
  const entry = {
    elementId: product.id,
    kind,
    place: placeOf(product),
    before,
    after: withChanges(before, patch),
  } as const;
  statements.push(...historyStatements(db, tenant, [entry]).statements);
  const after = aggregateAfter(
    aggregate,
    product.id,
    (n) => {
      Object.assign(n.product, changes);
      n.translations = patchedTranslations(n.translations, others);
    },
    categoryIds,
  );
  const placements = product.parentId ? [] : (categoryIds ?? aggregate.categoryIds);
  // The same fields, texts and placements: nothing is written, the product is answered as it is.
  if (await changesNothing([entry], { before: aggregate, after, paths }))
    return productOut(product, catalog.departmentId, [...placements].sort());
  // Completeness events compare each (product, channel) before and after the whole write (its
  // fields, texts and placements), not after each of its statements (migration 0069).
  const write = withCompletenessEventsAtEnd(db, statements);
  write.push(
    bumpWithFingerprint(db, masterId, aggregate.product.revision, await fingerprintWith(after, paths)),
    // The answer, read in the same transaction as the write.
    db.select().from(products).where(eq(products.id, product.id)),
  );
  let written: Awaited<ReturnType<typeof runBatch>>;
  try {
    written = await runBatch(db, write);
  } catch (err) {
    if (isWriteConflict(err)) throw err;
    // Two writers can set the same SKU at once; the unique index decides, and the loser gets 409.
    rethrowSkuClash(err, input.sku);
  }
  const [row] = written.at(-1) as ProductRow[];
  return productOut(row!, catalog.departmentId, [...placements].sort());
}

/**
 * The statements that delete a product with its variants and everything attached to them
 * (with its history entries), and the media keys to delete once they are committed: shared
 * by DeleteProduct and an import's T_UPDATE_PRODUCTS mode="delete".
 */
export async function productDeleteStatements(
  db: Database,
  tenant: Caller,
  product: { id: string; parentId: string | null; catalogId: string },
): Promise<{ statements: BatchStatement[]; fileKeys: string[]; removed: number }> {
  const family = sql`SELECT id FROM products WHERE id = ${product.id} OR parent_id = ${product.id}`;
  const [count] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${family})`);
  const removed = count?.n ?? 1;
  // Their manufacturer numbers: a reference by number left ambiguous by them may now name one product.
  const numbers = await db.all<{ mpn: string }>(
    sql`SELECT DISTINCT manufacturer_pid AS mpn FROM products WHERE (id = ${product.id} OR parent_id = ${product.id}) AND manufacturer_pid IS NOT NULL`,
  );
  const fileKeys = await mediaKeysWhere(db, sql`${media.elementId} IN (${family})`);
  const statements: BatchStatement[] = [
    // Builder statements with a raw condition: drizzle cannot put parameterised `db.run` in a D1 batch.
    db.delete(attributeValues).where(sql`${attributeValues.elementId} IN (${family})`),
    db.delete(classificationLinks).where(sql`${classificationLinks.elementId} IN (${family})`),
    db.delete(media).where(sql`${media.elementId} IN (${family})`),
    db.delete(products).where(eq(products.parentId, product.id)),
    db.delete(products).where(eq(products.id, product.id)),
    db
      .update(catalogs)
      .set({ productCount: sql`max(0, ${catalogs.productCount} - ${removed})` })
      .where(eq(catalogs.id, product.catalogId)),
    ...resolveStatements(
      db,
      product.catalogId,
      [],
      [],
      numbers.map((n) => n.mpn),
    ),
  ];
  if (product.parentId) statements.push(bumpRevision(db, product.parentId));
  // One entry for the deleted product (its variants go with it, listed under `variants`).
  const history: HistoryEntry[] = [
    {
      elementId: product.id,
      kind: product.parentId ? 'variant' : 'product',
      place: placeOf(product),
      before: await loadSnapshot(db, tenant.companyId, product.id, 'product'),
      after: null,
    },
  ];
  if (product.parentId) {
    const list = await variantList(db, tenant, product.parentId);
    history.push({
      elementId: product.parentId,
      kind: 'product',
      place: { catalogId: product.catalogId, masterId: product.parentId },
      before: list,
      after: withVariant(list, product.id, false),
    });
  }
  statements.push(...historyStatements(db, tenant, history).statements);
  return { statements, fileKeys, removed };
}

/** Deletes a product with its variants and everything attached to them, in one transaction. */
export async function deleteProduct(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: { departmentId: string; productId: string },
) {
  const { db } = deps;
  await assertDepartment(db, tenant, input.departmentId);
  const product = await findProduct(db, tenant, input.productId);
  await findCatalog(db, tenant, product.catalogId, input.departmentId);
  const { statements, fileKeys, removed } = await productDeleteStatements(db, tenant, product);
  await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  await deleteObjects(deps.files, fileKeys);
  if (product.parentId) await refreshFingerprints(db, tenant.companyId, [product.parentId]);
  return { productId: product.id, deleted: removed };
}
