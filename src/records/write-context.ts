import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { catalogs, categories, departments, productCategories, products } from '../db/schema';
import { forbidden, notFound } from '../kernel/app-error';
import { CategoryPaths } from './category-paths';
import {
  type AggregateRows,
  aggregateStatements,
  assembleAggregates,
  type ProductAggregate,
} from '../model/product-aggregate';
import type { ElementRef } from '../db/scope';
import type { Caller } from '../kernel/caller';

/**
 * The reads of a single-element write, as statements for ONE `db.batch` (one round trip):
 * the caller's department, the element whatever its kind, and its master's aggregate with the
 * category paths its sync record holds. SetValue, UpdateProduct and the classification writes
 * read this way, plan in JavaScript, and write behind a guard (records/write-guard.ts). The
 * checks keep the order and messages of scope.ts (assertDepartment, findElement).
 */

type Rows<S> = S extends BatchStatement ? Awaited<S> : never;
type RowsOf<T extends readonly unknown[]> = { [K in keyof T]: Rows<T[K]> };

/** An element with its own row (a products, categories or catalogs row). */
export interface LoadedElement extends ElementRef {
  row: Record<string, unknown>;
  /** The default language of the element's catalog: the language of its own columns (docs/languages.md). */
  catalogLanguage: string;
}

export function departmentStatement(db: Database, tenant: Caller, departmentId: string) {
  return db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, departmentId), eq(departments.companyId, tenant.companyId)))
    .limit(1);
}

/** 403 unless the department statement found the department (as assertDepartment). */
export function checkDepartment(rows: { id: string }[]): void {
  if (rows.length === 0) throw forbidden('departmentId does not name a department of your company');
}

/** `elementId`: an id, or SQL that yields one (e.g. the element of a classification link). */
export function elementStatements(db: Database, tenant: Caller, elementId: string | SQL) {
  return [
    db
      .select({ row: products, departmentId: catalogs.departmentId, catalogLanguage: catalogs.language })
      .from(products)
      .innerJoin(catalogs, eq(catalogs.id, products.catalogId))
      .where(and(eq(products.id, elementId), eq(products.companyId, tenant.companyId)))
      .limit(1),
    db
      .select({ row: categories, departmentId: catalogs.departmentId, catalogLanguage: catalogs.language })
      .from(categories)
      .innerJoin(catalogs, eq(catalogs.id, categories.catalogId))
      .where(and(eq(categories.id, elementId), eq(categories.companyId, tenant.companyId)))
      .limit(1),
    db
      .select()
      .from(catalogs)
      .where(and(eq(catalogs.id, elementId), eq(catalogs.companyId, tenant.companyId)))
      .limit(1),
  ] as const;
}

/** The element `elementStatements` found, else 404 (as findElement). */
export function elementFrom(rows: RowsOf<ReturnType<typeof elementStatements>>): LoadedElement {
  const [[product], [category], [catalog]] = rows;
  if (product) {
    const p = product.row;
    return {
      kind: p.parentId ? 'variant' : 'product',
      id: p.id,
      catalogId: p.catalogId,
      departmentId: product.departmentId,
      masterId: p.parentId ?? p.id,
      row: p,
      catalogLanguage: product.catalogLanguage,
    };
  }
  if (category) {
    const c = category.row;
    return {
      kind: 'category',
      id: c.id,
      catalogId: c.catalogId,
      departmentId: category.departmentId,
      masterId: null,
      row: c,
      catalogLanguage: category.catalogLanguage,
    };
  }
  if (catalog)
    return {
      kind: 'catalog',
      id: catalog.id,
      catalogId: catalog.id,
      departmentId: catalog.departmentId,
      masterId: null,
      row: catalog,
      catalogLanguage: catalog.language,
    };
  throw notFound('element');
}

/** The master of the company's product or variant `elementId` as an SQL set (empty for other elements). */
export function masterSetOf(companyId: string, elementId: string | SQL): SQL {
  return sql`(SELECT coalesce(${products.parentId}, ${products.id}) FROM ${products} WHERE ${products.id} = ${elementId} AND ${products.companyId} = ${companyId})`;
}

/**
 * The aggregate of the master(s) in `masterSet` and the category paths of its placements and
 * of `moreCategoryIds` (placements a write is about to make).
 */
export function masterStatements(db: Database, companyId: string, masterSet: SQL, moreCategoryIds: string[] = []) {
  const seed = sql`SELECT ${productCategories.categoryId} FROM ${productCategories} WHERE ${productCategories.productId} IN ${masterSet}
    UNION SELECT value FROM json_each(${JSON.stringify(moreCategoryIds)})`;
  return [...aggregateStatements(db, companyId, masterSet), CategoryPaths.statement(db, companyId, seed)] as const;
}

/** The master aggregate (undefined when the element is no product) and the paths `masterStatements` read. */
export function masterFrom(
  db: Database,
  companyId: string,
  rows: RowsOf<ReturnType<typeof masterStatements>>,
): { aggregate: ProductAggregate | undefined; paths: CategoryPaths } {
  // The category paths are the last statement; the aggregate's are all before it.
  const aggregateRows = rows.slice(0, -1) as unknown as AggregateRows;
  const [aggregate] = assembleAggregates(
    aggregateRows,
    aggregateRows[0].map((m) => m.id),
  );
  const pathRows = rows[rows.length - 1] as Parameters<CategoryPaths['accept']>[0];
  return { aggregate, paths: new CategoryPaths(db, companyId).accept(pathRows) };
}

/**
 * UpdateProduct's reads: department, the catalog (of that department), the product, which of
 * `categoryIds` are categories of the catalog, and the master's aggregate with the category
 * paths of its placements and of `categoryIds`. Results from index 4 on are `masterFrom`'s.
 */
export function productWriteStatements(
  db: Database,
  tenant: Caller,
  input: { departmentId: string; catalogId: string; productId: string; categoryIds: string[] },
) {
  return [
    departmentStatement(db, tenant, input.departmentId),
    db
      .select()
      .from(catalogs)
      .where(
        and(
          eq(catalogs.id, input.catalogId),
          eq(catalogs.companyId, tenant.companyId),
          eq(catalogs.departmentId, input.departmentId),
        ),
      ),
    db
      .select()
      .from(products)
      .where(and(eq(products.id, input.productId), eq(products.companyId, tenant.companyId))),
    db
      .select({ id: categories.id })
      .from(categories)
      .where(
        and(
          eq(categories.companyId, tenant.companyId),
          eq(categories.catalogId, input.catalogId),
          sql`${categories.id} IN (SELECT value FROM json_each(${JSON.stringify(input.categoryIds)}))`,
        ),
      ),
    ...masterStatements(db, tenant.companyId, masterSetOf(tenant.companyId, input.productId), input.categoryIds),
  ] as const;
}
