import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  attributes,
  attributeValues,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  media,
  productCategories,
  products,
} from '../db/schema';

type ProductRow = typeof products.$inferSelect;

export interface AggregateClassification {
  linkId: string;
  name: string;
  classificationGroups: number;
  classes: { group: string; system: string; code: string }[];
  features: { group: string; code: string; value: string; unit: string | null }[];
}

export interface AggregateMedia {
  mediaId: string;
  purpose: string;
  fileName: string;
  contentType: string;
  size: number;
  storageKey: string;
  /** Hex SHA-256 of the bytes; null for files uploaded before hashes were kept. */
  sha256: string | null;
  description: string | null;
  /** Position in the element's media list (the history records it). */
  sortOrder?: number;
}

/** One product or variant with everything attached to it. */
export interface ProductNode {
  product: ProductRow;
  values: { code: string; type: string; value: string; unit: string | null }[];
  classification: AggregateClassification | null;
  media: AggregateMedia[];
}

/** A master product, its variants, and its category placements: the unit of sync and export. */
export interface ProductAggregate extends ProductNode {
  categoryIds: string[];
  variants: ProductNode[];
}

/**
 * The tenant filter of the IN (...) queries below, written `+company_id = ?`: the unary plus
 * keeps SQLite from choosing the company index over the id index. Without statistics it would
 * otherwise scan every row of the company for each page (measured: 0.2 s instead of 1 ms per
 * query at 160,000 products), which made large exports quadratic.
 */
function ofCompany(column: SQLiteColumn, companyId: string): SQL {
  return sql`+${column} = ${companyId}`;
}

/** Largest id list per IN (...) so a statement stays under D1's 100 bound parameters. */
const IN_CHUNK = 90;

async function inChunks<T>(ids: string[], load: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) out.push(...(await load(ids.slice(i, i + IN_CHUNK))));
  return out;
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * Loads full aggregates for a page of master products in a fixed number of set-based queries
 * (no per-product round trips). The order of `masterIds` is kept.
 */
export async function loadProductAggregates(
  db: Database,
  companyId: string,
  masterIds: string[],
): Promise<ProductAggregate[]> {
  if (masterIds.length === 0) return [];
  const masters = await inChunks(masterIds, (chunk) =>
    db
      .select()
      .from(products)
      .where(and(ofCompany(products.companyId, companyId), inArray(products.id, chunk))),
  );
  const variants = await inChunks(masterIds, (chunk) =>
    db
      .select()
      .from(products)
      .where(and(ofCompany(products.companyId, companyId), inArray(products.parentId, chunk)))
      .orderBy(asc(products.sku), asc(products.id)),
  );
  const allIds = [...masters.map((p) => p.id), ...variants.map((p) => p.id)];

  const values = await inChunks(allIds, (chunk) =>
    db
      .select({
        elementId: attributeValues.elementId,
        code: attributes.code,
        type: attributes.type,
        value: attributeValues.value,
        unit: attributes.unit,
      })
      .from(attributeValues)
      .innerJoin(attributes, eq(attributes.id, attributeValues.attributeId))
      .where(and(ofCompany(attributeValues.companyId, companyId), inArray(attributeValues.elementId, chunk)))
      .orderBy(asc(attributes.code)),
  );
  const links = await inChunks(allIds, (chunk) =>
    db
      .select()
      .from(classificationLinks)
      .where(and(ofCompany(classificationLinks.companyId, companyId), inArray(classificationLinks.elementId, chunk))),
  );
  const linkIds = links.map((l) => l.linkId);
  const linkClasses = await inChunks(linkIds, (chunk) =>
    db
      .select()
      .from(classificationLinkClasses)
      .where(inArray(classificationLinkClasses.linkId, chunk))
      .orderBy(asc(classificationLinkClasses.group)),
  );
  const linkFeatures = await inChunks(linkIds, (chunk) =>
    db
      .select()
      .from(classificationLinkFeatures)
      .where(inArray(classificationLinkFeatures.linkId, chunk))
      .orderBy(asc(classificationLinkFeatures.group), asc(classificationLinkFeatures.code)),
  );
  const mediaRows = await inChunks(allIds, (chunk) =>
    db
      .select()
      .from(media)
      .where(and(ofCompany(media.companyId, companyId), inArray(media.elementId, chunk)))
      .orderBy(asc(media.sortOrder), asc(media.fileName)),
  );
  const placements = await inChunks(masterIds, (chunk) =>
    db
      .select()
      .from(productCategories)
      .where(and(ofCompany(productCategories.companyId, companyId), inArray(productCategories.productId, chunk)))
      .orderBy(asc(productCategories.categoryId)),
  );

  const valuesBy = groupBy(values, (v) => v.elementId);
  const classesBy = groupBy(linkClasses, (c) => c.linkId);
  const featuresBy = groupBy(linkFeatures, (f) => f.linkId);
  const linkBy = new Map(links.map((l) => [l.elementId, l]));
  const mediaBy = groupBy(mediaRows, (m) => m.elementId);
  const variantsBy = groupBy(variants, (v) => v.parentId ?? '');
  const placementsBy = groupBy(placements, (p) => p.productId);

  const node = (product: ProductRow): ProductNode => {
    const link = linkBy.get(product.id);
    return {
      product,
      values: (valuesBy.get(product.id) ?? []).map(({ code, type, value, unit }) => ({ code, type, value, unit })),
      classification: link
        ? {
            linkId: link.linkId,
            name: link.name,
            classificationGroups: link.classificationGroups,
            classes: (classesBy.get(link.linkId) ?? []).map(({ group, system, code }) => ({ group, system, code })),
            features: (featuresBy.get(link.linkId) ?? []).map(({ group, code, value, unit }) => ({
              group,
              code,
              value,
              unit,
            })),
          }
        : null,
      media: (mediaBy.get(product.id) ?? []).map((m) => ({
        mediaId: m.id,
        purpose: m.purpose,
        fileName: m.fileName,
        contentType: m.contentType,
        size: m.size,
        storageKey: m.storageKey,
        sha256: m.sha256,
        description: m.description,
        sortOrder: m.sortOrder,
      })),
    };
  };

  const byId = new Map(masters.map((m) => [m.id, m]));
  return masterIds
    .map((id) => byId.get(id))
    .filter((m): m is ProductRow => m !== undefined && m.parentId === null)
    .map((master) => ({
      ...node(master),
      categoryIds: (placementsBy.get(master.id) ?? []).map((p) => p.categoryId),
      variants: (variantsBy.get(master.id) ?? []).map(node),
    }));
}
