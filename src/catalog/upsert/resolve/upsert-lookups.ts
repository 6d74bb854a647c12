import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { jsonList } from '../../../db/json-rows';
import { categories, products } from '../../../db/schema';

type ExistingRow = { id: string; sku: string | null; parentId: string | null };

/** The catalog an upsert writes into (a part of UpsertContext, which imports this file). */
type CatalogScope = { catalogId: string; companyId: string };

/** The products of the catalog with these SKUs: one query whatever the number (json_each). */
export async function existingBySku(
  db: Database,
  ctx: CatalogScope,
  skus: string[],
): Promise<Map<string, ExistingRow>> {
  const out = new Map<string, ExistingRow>();
  if (skus.length === 0) return out;
  const rows = await db
    .select({ id: products.id, sku: products.sku, parentId: products.parentId })
    .from(products)
    .where(
      and(
        eq(products.catalogId, ctx.catalogId),
        eq(products.companyId, ctx.companyId),
        sql`${products.sku} IN ${jsonList(skus)}`,
      ),
    );
  for (const row of rows) out.set(row.sku!, row);
  return out;
}

export async function categoriesOfCatalog(db: Database, ctx: CatalogScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  // The unary `+` keeps SQLite from choosing categories_company_idx, which read every category
  // of the company (all its catalogs) for each batch of an import; the ids go by primary key.
  const rows = await db
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        sql`${categories.id} IN ${jsonList(ids)}`,
        sql`+${categories.catalogId} = ${ctx.catalogId}`,
        sql`+${categories.companyId} = ${ctx.companyId}`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}
