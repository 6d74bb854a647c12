import { and, eq } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '../db/client';
import { products } from '../db/schema';
import { type AppError, conflict } from '../kernel/app-error';

/**
 * One home for the rule "a SKU is unique within its catalog" (the unique index
 * `products_catalog_sku_uq` enforces it; these functions give every write the same 409).
 * AddProduct, AddVariant, UpdateProduct and SetValue check before they write and translate
 * the index's violation when a concurrent writer won the race; UpsertProducts and imports
 * match by SKU instead (catalog/upsert) and translate the race the same way.
 */
export function skuTaken(sku: string | null | undefined): AppError {
  return conflict(
    sku
      ? `sku "${sku}" is already used in this catalog`
      : 'a sku of this request is already used in this catalog (written by another request meanwhile)',
  );
}

/** Throws 409 when another product of the catalog (not `exceptId`) has this SKU. */
export async function assertSkuFree(
  db: Database,
  catalogId: string,
  sku: string | null | undefined,
  exceptId?: string,
): Promise<void> {
  if (!sku) return;
  const [clash] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.catalogId, catalogId), eq(products.sku, sku)))
    .limit(1);
  if (clash && clash.id !== exceptId) throw skuTaken(sku);
}

/** Whether a failed batch broke the unique (catalog, SKU) index: two writers raced past the check. */
export function isSkuClash(err: unknown): boolean {
  return isUniqueViolation(err, 'products.catalog_id, products.sku');
}

/** Rethrows a race on the SKU index as the same 409 as the check; anything else unchanged. */
export function rethrowSkuClash(err: unknown, sku?: string | null): never {
  if (isSkuClash(err)) throw skuTaken(sku);
  throw err;
}
