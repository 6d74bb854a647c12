import { dbNow } from '../kernel/clock';
import { and, eq, sql } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '../db/client';
import { newId, unusableId } from '../kernel/ids';
import { keysetPage } from '../kernel/pagination';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { attributeValues, catalogs, classificationLinks, media } from '../db/schema';
import { badRequest, conflict } from '../kernel/app-error';
import { assertEnabled, type CompanyLanguages, readCompanyLanguages } from '../model/company-languages';
import { historyStatement } from '../records/history-record';
import { CATALOG_FIELDS, loadSnapshot, pickFields, type Snapshot, withChanges } from '../records/snapshot';
import type { CatalogInput } from './catalog.schemas';
import { purgeCatalogMedia } from '../media/media';
import { languagesChangedStatement } from '../records/published-languages';
import { assertDepartment, findCatalog } from '../db/scope';
import { catalogCount, narrowingScope, scopedCatalogCounts } from '../db/scope-counts';
import type { Caller } from '../kernel/caller';

type CatalogRow = typeof catalogs.$inferSelect;

export function catalogOut(row: CatalogRow) {
  return {
    catalogId: row.id,
    departmentId: row.departmentId,
    name: row.name,
    catalogType: row.catalogType,
    catalogVersion: row.catalogVersion,
    description: row.description,
    language: row.language,
    languages: row.languages,
    currency: row.currency,
    categoryCount: row.categoryCount,
    productCount: row.productCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function addCatalog(db: Database, tenant: Caller, input: CatalogInput) {
  await assertDepartment(db, tenant, input.departmentId);
  const settings = await readCompanyLanguages(db, tenant);
  const language = input.language ?? settings.defaultLanguage;
  const values = {
    id: input.catalogId ?? newId(),
    companyId: tenant.companyId,
    departmentId: input.departmentId,
    name: input.name,
    catalogType: input.catalogType ?? null,
    catalogVersion: input.catalogVersion ?? null,
    description: input.description ?? null,
    language,
    languages: catalogLanguages(settings, language, input.languages),
    currency: input.currency ?? 'EUR',
  };
  try {
    // A taken id (of any company) fails the insert and rolls the history entry back with it.
    const [rows] = await db.batch([
      db.insert(catalogs).values(values).returning(),
      ...historyStatement(db, tenant, {
        elementId: values.id,
        kind: 'catalog',
        before: null,
        after: pickFields(values, CATALOG_FIELDS),
      }),
    ]);
    return catalogOut(rows[0]!);
  } catch (err) {
    if (isUniqueViolation(err, 'catalogs.id')) throw unusableId('catalogId');
    throw err;
  }
}

/** Updates the given fields; a field left out keeps its value. The catalog may move between departments. */
export async function updateCatalog(db: Database, tenant: Caller, input: CatalogInput) {
  if (!input.catalogId) throw badRequest('catalogId is required');
  await assertDepartment(db, tenant, input.departmentId);
  const existing = await findCatalog(db, tenant, input.catalogId);
  const changes: Partial<CatalogRow> = { departmentId: input.departmentId, name: input.name };
  if (input.catalogType !== undefined) changes.catalogType = input.catalogType;
  if (input.catalogVersion !== undefined) changes.catalogVersion = input.catalogVersion;
  if (input.description !== undefined) changes.description = input.description;
  if (input.language || input.languages) {
    const language = input.language ?? existing.language;
    if (language !== existing.language && (existing.productCount > 0 || existing.categoryCount > 0))
      throw conflict(
        "the default language of a catalog with categories or products cannot change: its texts are stored in it; add the language to the catalog's languages instead",
      );
    changes.language = language;
    changes.languages = catalogLanguages(
      await readCompanyLanguages(db, tenant),
      language,
      input.languages ?? existing.languages,
    );
  }
  if (input.currency) changes.currency = input.currency;
  const before = pickFields(existing, CATALOG_FIELDS);
  // The sync records of products with texts in a language added or removed change: one resend each.
  const republish = changes.languages
    ? languagesChangedStatement(db, existing.id, existing.languages, changes.languages)
    : null;
  const [rows] = await db.batch([
    db
      .update(catalogs)
      .set({ ...changes, updatedAt: dbNow })
      .where(and(eq(catalogs.id, input.catalogId), eq(catalogs.companyId, tenant.companyId)))
      .returning(),
    ...(republish ? [republish] : []),
    ...historyStatement(db, tenant, {
      elementId: existing.id,
      kind: 'catalog',
      before,
      after: withChanges(before, changes as Snapshot),
    }),
  ]);
  return catalogOut(rows[0]!);
}

/**
 * A catalog's languages: its default first, then the others it publishes, each enabled for the
 * company (400 naming the field otherwise; docs/languages.md).
 */
function catalogLanguages(settings: CompanyLanguages, language: string, requested?: string[] | null): string[] {
  assertEnabled(settings, language, 'language');
  const others = (requested ?? []).filter((l) => l !== language);
  for (const [i, l] of others.entries()) assertEnabled(settings, l, `languages[${i}]`);
  return [language, ...new Set(others)];
}

/** A catalog; its `productCount` narrowed to the caller's product scope (db/scope-counts.ts). */
export async function getCatalog(db: Database, tenant: Caller, catalogId: string) {
  const catalog = await findCatalog(db, tenant, catalogId);
  const counts = narrowingScope(tenant, catalog.id) ? await scopedCatalogCounts(db, tenant) : null;
  return catalogOut({ ...catalog, productCount: catalogCount(tenant, counts, catalog) });
}

export async function listCatalogs(
  db: Database,
  tenant: Caller,
  input: { departmentId?: string; cursor?: string; limit: number },
) {
  if (input.departmentId) await assertDepartment(db, tenant, input.departmentId);
  const page = await keysetPage(
    input,
    { column: catalogs.id, order: 'asc' },
    (q) =>
      db
        .select()
        .from(catalogs)
        .where(
          and(
            eq(catalogs.companyId, tenant.companyId),
            input.departmentId ? eq(catalogs.departmentId, input.departmentId) : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.id,
  );
  const counts = await scopedCatalogCounts(db, tenant);
  return {
    items: page.items.map((row) => catalogOut({ ...row, productCount: catalogCount(tenant, counts, row) })),
    nextCursor: page.nextCursor,
  };
}

/** Deletes a catalog with its categories, products, values, links and media rows (one transaction). */
export async function deleteCatalog(
  deps: { db: Database; files: R2Bucket },
  tenant: Caller,
  input: { departmentId: string; catalogId: string },
) {
  const { db } = deps;
  await assertDepartment(db, tenant, input.departmentId);
  const catalog = await findCatalog(db, tenant, input.catalogId, input.departmentId);
  // Builder statements with a raw condition: drizzle cannot put parameterised `db.run` in a D1 batch.
  const inCatalog = (column: SQLiteColumn) =>
    sql`(${column} IN (SELECT id FROM products WHERE catalog_id = ${catalog.id})
      OR ${column} IN (SELECT id FROM categories WHERE catalog_id = ${catalog.id}) OR ${column} = ${catalog.id})`;
  await db.batch([
    db.delete(attributeValues).where(inCatalog(attributeValues.elementId)),
    db.delete(classificationLinks).where(inCatalog(classificationLinks.elementId)),
    db.delete(media).where(inCatalog(media.elementId)),
    db.delete(catalogs).where(and(eq(catalogs.id, catalog.id), eq(catalogs.companyId, tenant.companyId))),
    // One entry for the catalog; its products' own histories stay until retention prunes them.
    ...historyStatement(db, tenant, {
      elementId: catalog.id,
      kind: 'catalog',
      before: await loadSnapshot(db, tenant.companyId, catalog.id, 'catalog'),
      after: null,
    }),
  ]);
  // The rows are gone in one transaction; the files follow (a failure here leaves only orphans, never dangling rows).
  await purgeCatalogMedia(deps.files, tenant.companyId, catalog.id);
  return { catalogId: catalog.id, deleted: true as const };
}

/**
 * Counts for one department, read from the counters kept on each catalog row: the named one,
 * which must be of the caller's company (403), or the caller's own (docs/spec.md part 2: "the
 * authenticated department"). The one home of that default for REST, /api/ai and MCP.
 */
export async function getStats(
  db: Database,
  caller: Caller & { departmentId: string },
  named?: string,
): Promise<{ catalogs: number; categories: number; products: number }> {
  const departmentId = named ?? caller.departmentId;
  await assertDepartment(db, caller, departmentId);
  const where = and(eq(catalogs.companyId, caller.companyId), eq(catalogs.departmentId, departmentId));
  const [row] = await db
    .select({
      catalogs: sql<number>`count(*)`,
      categories: sql<number>`coalesce(sum(${catalogs.categoryCount}), 0)`,
      products: sql<number>`coalesce(sum(${catalogs.productCount}), 0)`,
    })
    .from(catalogs)
    .where(where);
  let products = Number(row?.products ?? 0);
  const counts = await scopedCatalogCounts(db, caller);
  if (counts) {
    // a member with a product scope counts their products only (db/scope-counts.ts)
    const rows = await db.select({ id: catalogs.id, productCount: catalogs.productCount }).from(catalogs).where(where);
    products = rows.reduce((n, catalog) => n + catalogCount(caller, counts, catalog), 0);
  }
  return {
    catalogs: Number(row?.catalogs ?? 0),
    categories: Number(row?.categories ?? 0),
    products,
  };
}
