import { and, eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { catalogs, categories, departments, products } from './schema';
import { forbidden, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { productScopeSql } from './product-scope';

/**
 * What a tenant-scoped finder reads of the caller: its company and, for a product, the member's
 * product scope (a product outside it is not found, as one of another company).
 */
type TenantRef = Pick<Caller, 'companyId'> & Partial<Pick<Caller, 'productScope'>>;

/** The member's product scope over `products` (none for an unscoped caller), db/product-scope.ts. */
export const productInScope = (tenant: TenantRef) =>
  tenant.productScope
    ? productScopeSql(
        tenant.productScope,
        tenant.companyId,
        sql`${products.catalogId}`,
        sql`coalesce(${products.parentId}, ${products.id})`,
      )
    : undefined;

/** 403 unless the department belongs to the caller's company (docs/design.md section 2). */
export async function assertDepartment(db: Database, tenant: TenantRef, departmentId: string): Promise<void> {
  const found = await db
    .select({ id: departments.id })
    .from(departments)
    .where(and(eq(departments.id, departmentId), eq(departments.companyId, tenant.companyId)))
    .limit(1);
  if (found.length === 0) throw forbidden('departmentId does not name a department of your company');
}

/** A catalog of the caller's company (optionally of one department), else 404. */
export async function findCatalog(db: Database, tenant: TenantRef, catalogId: string, departmentId?: string) {
  const catalog = await db.query.catalogs.findFirst({
    where: and(
      eq(catalogs.id, catalogId),
      eq(catalogs.companyId, tenant.companyId),
      departmentId ? eq(catalogs.departmentId, departmentId) : undefined,
    ),
  });
  if (!catalog) throw notFound('catalog');
  return catalog;
}

export async function findProduct(db: Database, tenant: TenantRef, productId: string) {
  const product = await findProductOrNull(db, tenant, productId);
  if (!product) throw notFound('product');
  return product;
}

/** A product (or variant) of the caller's company within its product scope, else null. */
async function findProductOrNull(db: Database, tenant: TenantRef, productId: string) {
  const product = await db.query.products.findFirst({
    where: and(eq(products.id, productId), eq(products.companyId, tenant.companyId), productInScope(tenant)),
  });
  return product ?? null;
}

export async function findCategory(db: Database, tenant: TenantRef, categoryId: string) {
  const category = await db.query.categories.findFirst({
    where: and(eq(categories.id, categoryId), eq(categories.companyId, tenant.companyId)),
  });
  if (!category) throw notFound('category');
  return category;
}

export type ElementKind = 'catalog' | 'category' | 'product' | 'variant';

export interface ElementRef {
  kind: ElementKind;
  id: string;
  catalogId: string;
  departmentId: string;
  /** The master product whose sync record this element belongs to, if any. */
  masterId: string | null;
}

/** Finds any catalog element of the company by id: catalog, category, product or variant. */
export async function findElement(db: Database, tenant: TenantRef, elementId: string): Promise<ElementRef> {
  const [product] = await db
    .select({
      id: products.id,
      parentId: products.parentId,
      catalogId: products.catalogId,
      departmentId: catalogs.departmentId,
    })
    .from(products)
    .innerJoin(catalogs, eq(catalogs.id, products.catalogId))
    .where(and(eq(products.id, elementId), eq(products.companyId, tenant.companyId)))
    .limit(1);
  // A product outside the member's scope is not found; a category or catalog is not limited (docs/teams.md).
  if (product && tenant.productScope && !(await findProductOrNull(db, tenant, product.id))) throw notFound('element');
  if (product) {
    return {
      kind: product.parentId ? 'variant' : 'product',
      id: product.id,
      catalogId: product.catalogId,
      departmentId: product.departmentId,
      masterId: product.parentId ?? product.id,
    };
  }
  const [category] = await db
    .select({ id: categories.id, catalogId: categories.catalogId, departmentId: catalogs.departmentId })
    .from(categories)
    .innerJoin(catalogs, eq(catalogs.id, categories.catalogId))
    .where(and(eq(categories.id, elementId), eq(categories.companyId, tenant.companyId)))
    .limit(1);
  if (category) return { kind: 'category', ...category, masterId: null };
  const catalog = await db.query.catalogs.findFirst({
    where: and(eq(catalogs.id, elementId), eq(catalogs.companyId, tenant.companyId)),
  });
  if (catalog)
    return {
      kind: 'catalog',
      id: catalog.id,
      catalogId: catalog.id,
      departmentId: catalog.departmentId,
      masterId: null,
    };
  throw notFound('element');
}
