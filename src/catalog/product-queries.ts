import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { productCategories, products } from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import { loadProductAggregates, type ProductNode } from './product-aggregate';
import { findCatalog, findProduct } from '../db/scope';
import type { Caller } from '../kernel/caller';
import { priceList } from './prices/price-list';

/** Read side of products: the DTO, detail with everything attached, lists and variants. */
type ProductRow = typeof products.$inferSelect;

export function productOut(row: ProductRow, departmentId: string, categoryIds: string[] = []) {
  return {
    productId: row.id,
    catalogId: row.catalogId,
    departmentId,
    parentId: row.parentId,
    sku: row.sku,
    name: row.name,
    description: row.description,
    gtin: row.gtin,
    manufacturerName: row.manufacturerName,
    manufacturerPid: row.manufacturerPid,
    unit: row.unit,
    price: row.price,
    priceQuantity: row.priceQuantity,
    keywords: row.keywords,
    deliveryTimeDays: row.deliveryTimeDays,
    status: row.status,
    categoryIds,
    fingerprint: row.parentId ? null : row.fingerprint,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function placementsOf(db: Database, productId: string): Promise<string[]> {
  const rows = await db
    .select({ categoryId: productCategories.categoryId })
    .from(productCategories)
    .where(eq(productCategories.productId, productId))
    .orderBy(asc(productCategories.categoryId));
  return rows.map((r) => r.categoryId);
}

export async function getProductSummary(db: Database, tenant: Caller, productId: string) {
  const product = await findProduct(db, tenant, productId);
  const catalog = await findCatalog(db, tenant, product.catalogId);
  return productOut(product, catalog.departmentId, await placementsOf(db, product.id));
}

function nodeDetail(node: ProductNode) {
  return {
    values: node.values,
    classification: node.classification,
    media: node.media.map(({ mediaId, purpose, fileName, contentType, size, description, url, mimeCode, alt }) => ({
      mediaId,
      purpose,
      fileName,
      contentType,
      size,
      kind: url ? ('link' as const) : ('file' as const),
      url: url ?? null,
      description,
      mimeCode: mimeCode ?? null,
      alt: alt ?? null,
    })),
    prices: priceList(node.prices ?? [], node.product.price),
    featureBlocks: node.featureBlocks ?? [],
  };
}

/** A product (or variant) with values, classification, media and variants. */
export async function getProduct(db: Database, tenant: Caller, productId: string) {
  const product = await findProduct(db, tenant, productId);
  const catalog = await findCatalog(db, tenant, product.catalogId);
  const masterId = product.parentId ?? product.id;
  const [aggregate] = await loadProductAggregates(db, tenant.companyId, [masterId]);
  if (!aggregate) throw notFound('product');
  const node = product.parentId ? aggregate.variants.find((v) => v.product.id === product.id) : aggregate;
  if (!node) throw notFound('product');
  return {
    ...productOut(node.product, catalog.departmentId, product.parentId ? [] : aggregate.categoryIds),
    ...nodeDetail(node),
    variants: product.parentId ? [] : aggregate.variants.map((v) => productOut(v.product, catalog.departmentId)),
  };
}

export async function listVariants(db: Database, tenant: Caller, productId: string) {
  const master = await findProduct(db, tenant, productId);
  if (master.parentId) throw badRequest('productId names a variant, not a master product');
  const catalog = await findCatalog(db, tenant, master.catalogId);
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.parentId, master.id), eq(products.companyId, tenant.companyId)))
    .orderBy(asc(products.sku), asc(products.id))
    .limit(1000);
  return { items: rows.map((r) => productOut(r, catalog.departmentId)) };
}
