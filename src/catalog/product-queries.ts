import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { productCategories, products } from '../db/schema';
import { badRequest, notFound } from '../kernel/app-error';
import { loadProductAggregates, type ProductNode } from '../model/product-aggregate';
import { findCatalog, findProduct } from '../db/scope';
import type { Caller } from '../kernel/caller';
import { priceList } from '../model/price-list';
import { type LanguageQueryInput, type ReadLanguage, readLanguageFor } from './translations/read-language';
import {
  localizableCodes,
  localizedMedia,
  localizedProduct,
  localizedValues,
  translationsFor,
} from './translations/localized-outputs';

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
    contentUnit: row.contentUnit,
    contentPerUnit: row.contentPerUnit,
    quantityMin: row.quantityMin,
    quantityInterval: row.quantityInterval,
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

function nodeDetail(node: ProductNode, read: ReadLanguage, localizable: Set<string>) {
  const localized = localizedValues(read, node.values, node.translations, localizable);
  return {
    values: localized.values,
    // Whether a class is verified is the classification reads' and the history's, not this answer's.
    classification: node.classification && {
      ...node.classification,
      classes: node.classification.classes.map(({ unverified: _unverified, ...c }) => c),
    },
    media: node.media.map(
      ({ mediaId, purpose, fileName, contentType, size, description, url, mimeCode, alt, attachment, descriptions }) =>
        localizedMedia(
          read,
          {
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
            attachment: attachment ?? null,
          },
          descriptions,
        ),
    ),
    prices: priceList(node.prices ?? [], node.product.price),
    featureBlocks: node.featureBlocks ?? [],
    missingValues: localized.missing,
  };
}

/**
 * A product (or variant) with values, classification, media and variants, its texts in the
 * asked language (docs/languages.md, "REST").
 */
export async function getProduct(db: Database, tenant: Caller, productId: string, query: LanguageQueryInput = {}) {
  const product = await findProduct(db, tenant, productId);
  const catalog = await findCatalog(db, tenant, product.catalogId);
  const read = await readLanguageFor(db, tenant, catalog, query);
  const masterId = product.parentId ?? product.id;
  const [aggregate] = await loadProductAggregates(db, tenant.companyId, [masterId]);
  if (!aggregate) throw notFound('product');
  const node = product.parentId ? aggregate.variants.find((v) => v.product.id === product.id) : aggregate;
  if (!node) throw notFound('product');
  const localizable =
    read.language === read.catalogDefault ? new Set<string>() : await localizableCodes(db, tenant.companyId);
  const { missingValues, ...detail } = nodeDetail(node, read, localizable);
  const own = localizedProduct(
    read,
    productOut(node.product, catalog.departmentId, product.parentId ? [] : aggregate.categoryIds),
    node.translations,
  );
  return {
    ...own,
    missingTranslations: [...own.missingTranslations, ...missingValues],
    ...detail,
    variants: product.parentId
      ? []
      : aggregate.variants.map((v) =>
          localizedProduct(read, productOut(v.product, catalog.departmentId), v.translations),
        ),
  };
}

/** A master's variants, their texts in the asked language. */
export async function listVariants(db: Database, tenant: Caller, productId: string, query: LanguageQueryInput = {}) {
  const master = await findProduct(db, tenant, productId);
  if (master.parentId) throw badRequest('productId names a variant, not a master product');
  const catalog = await findCatalog(db, tenant, master.catalogId);
  const read = await readLanguageFor(db, tenant, catalog, query);
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.parentId, master.id), eq(products.companyId, tenant.companyId)))
    .orderBy(asc(products.sku), asc(products.id))
    .limit(1000);
  const stored = await translationsFor(
    db,
    read,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => localizedProduct(read, productOut(r, catalog.departmentId), stored.get(r.id))) };
}
