import { and, asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import {
  attributes,
  attributeValues,
  catalogs,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  media,
  productCategories,
  productPrices,
  products,
  productReferences,
  productUdx,
} from '../db/schema';
import { attachmentOfColumn, type MediaAttachment } from '../kernel/media-attachment';
import { type ElementTranslations, groupedTranslations, translationsOfStatement } from './translation-store';
import type { StoredPrice } from './price-list';
import { blockOfRow, blocksStatement } from './feature-block-rows';
import type { StoredFeatureBlock } from './feature-block-types';
import { type StoredReference, storedReference } from './reference-types';

type ProductRow = typeof products.$inferSelect;

interface AggregateClassification {
  linkId: string;
  name: string;
  classificationGroups: number;
  /**
   * `classVersion` / `dynamicReleaseDate`: what an ETIM xChange file said it classified against (migration 0082), when it did;
   * `release`: the loaded release the class was checked against (migration 0020), when it was (the history's
   * `classification.release.GROUP`; its system names it too, so the sync record leaves it out);
   * `unverified`: kept verbatim, no reference data confirms it (history only; not in the sync record).
   */
  classes: {
    group: string;
    system: string;
    code: string;
    classVersion?: number;
    dynamicReleaseDate?: string;
    release?: string;
    unverified?: true;
  }[];
  /** `unverified`: a value kept as text (history only, for its unit's path; not in the sync record). */
  features: { group: string; code: string; value: string; unit: string | null; unverified?: true }[];
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
  /** A link's absolute URL (no stored object); null for an uploaded file or file reference. */
  url?: string | null;
  mimeCode?: string | null;
  alt?: string | null;
  /** An xChange attachment's type, languages and dates beyond the purpose (kernel/media-attachment.ts); absent when none. */
  attachment?: MediaAttachment | null;
  /** The description in the catalog's other languages: language -> text (docs/languages.md). */
  descriptions?: Record<string, string>;
}

/** One product or variant with everything attached to it. */
export interface ProductNode {
  product: ProductRow;
  values: { code: string; type: string; value: string; unit: string | null }[];
  classification: AggregateClassification | null;
  media: AggregateMedia[];
  /** The stored price list (prices/price-list.ts: the default row's amount is `product.price`). */
  prices?: StoredPrice[];
  /** Outgoing references in their order, by target SKU (catalog/references/). */
  references: AggregateReference[];
  /** The USER_DEFINED_EXTENSIONS kept from a BMEcat import (verbatim XML), written back by the exports. */
  udx?: string | null;
  /** Feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …), in order; absent reads as none. */
  featureBlocks?: StoredFeatureBlock[];
  /**
   * The product's texts in languages other than its catalog's default (which its own columns
   * hold): language -> field -> text (docs/languages.md). Absent or empty reads as none.
   */
  translations?: ElementTranslations;
}

/** One outgoing reference of a node; `targetProductId` null = pending (the SKU is not in the catalog). */
export interface AggregateReference extends StoredReference {
  targetProductId: string | null;
  /** A reference by manufacturer number (`targetKind` 'mpn'): the SKU of the product it resolved to, null while pending. */
  resolvedSku?: string | null;
}

/** A master product, its variants, and its category placements: the unit of sync and export. */
export interface ProductAggregate extends ProductNode {
  categoryIds: string[];
  variants: ProductNode[];
  /**
   * The languages its catalog publishes (`catalogs.languages`, default first): the sync record
   * carries translations of these only (docs/languages.md "Sync").
   */
  publishedLanguages: string[];
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

/**
 * Ids per round trip. The ids travel as one JSON text read with `json_each` (one bound
 * parameter, far under D1's 100), so a page of masters costs one `db.batch` round trip
 * instead of a dozen IN (...) chunks per table: at a sync batch of 1000 masters the chunked
 * form made ~130 round trips, which dominated the batch's time on a loaded machine.
 */
const IDS_PER_ROUND_TRIP = 1000;

/** `(SELECT value FROM json_each(?))`: the ids of one round trip as a set for `IN`. */
function idSet(idsJson: string): SQL {
  return sql`(SELECT value FROM json_each(${idsJson}))`;
}

function groupBy<T, K>(rows: T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * Loads full aggregates for a page of master products in one `db.batch` round trip per 1000
 * masters (no per-product round trips). The order of `masterIds` is kept.
 */
export async function loadProductAggregates(
  db: Database,
  companyId: string,
  masterIds: string[],
): Promise<ProductAggregate[]> {
  const out: ProductAggregate[] = [];
  for (let i = 0; i < masterIds.length; i += IDS_PER_ROUND_TRIP)
    out.push(...(await loadPage(db, companyId, masterIds.slice(i, i + IDS_PER_ROUND_TRIP))));
  return out;
}

/** The statements of one round trip: every row of the page's masters and their variants. */
function pageQueries(db: Database, companyId: string, idsJson: string) {
  return aggregateStatements(db, companyId, idSet(idsJson));
}

/**
 * The read statements of the aggregates of the masters in `masterSet` (an SQL set such as
 * `(SELECT ...)`), for a caller that puts them into its own `db.batch` with other reads, so a
 * write can read everything it plans from in one round trip (catalog/value-context.ts).
 * `assembleAggregates` turns their results into aggregates.
 */
export function aggregateStatements(db: Database, companyId: string, masterSet: SQL) {
  // The company's masters among the ids: media and placements carry no company_id (migration
  // 0010), so the tenant comes from the product row.
  const ownMastersSelect = sql`SELECT m.id FROM products m WHERE m.id IN ${masterSet} AND +m.company_id = ${companyId}`;
  const ownMasters = sql`(${ownMastersSelect})`;
  // The masters and their variants: the elements that carry values, classifications and media.
  const elementSet = sql`(${ownMastersSelect} UNION ALL SELECT v.id FROM products v WHERE +v.company_id = ${companyId} AND v.parent_id IN ${masterSet})`;
  const linkSet = sql`(SELECT l.id FROM classification_links l WHERE +l.company_id = ${companyId} AND l.element_id IN ${elementSet})`;
  return [
    db
      .select()
      .from(products)
      .where(and(ofCompany(products.companyId, companyId), inArray(products.id, masterSet))),
    db
      .select()
      .from(products)
      .where(and(ofCompany(products.companyId, companyId), inArray(products.parentId, masterSet)))
      .orderBy(asc(products.sku), asc(products.id)),
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
      .where(and(ofCompany(attributes.companyId, companyId), inArray(attributeValues.elementId, elementSet)))
      .orderBy(asc(attributes.code)),
    db
      .select()
      .from(classificationLinks)
      .where(
        and(ofCompany(classificationLinks.companyId, companyId), inArray(classificationLinks.elementId, elementSet)),
      ),
    db
      .select()
      .from(classificationLinkClasses)
      .where(inArray(classificationLinkClasses.linkId, linkSet))
      .orderBy(asc(classificationLinkClasses.group)),
    db
      .select()
      .from(classificationLinkFeatures)
      .where(inArray(classificationLinkFeatures.linkId, linkSet))
      .orderBy(asc(classificationLinkFeatures.group), asc(classificationLinkFeatures.code)),
    db
      .select()
      .from(media)
      .where(inArray(media.elementId, elementSet))
      .orderBy(asc(media.sortOrder), asc(media.fileName)),
    db
      .select()
      .from(productCategories)
      .where(inArray(productCategories.productId, ownMasters))
      .orderBy(asc(productCategories.categoryId)),
    db
      .select()
      .from(productPrices)
      .where(inArray(productPrices.productId, elementSet))
      .orderBy(asc(productPrices.productId), asc(productPrices.position)),
    db
      .select({
        ...getTableColumns(productReferences),
        // The SKU of the product a reference by manufacturer number resolved to (exports write it to BMEcat).
        resolvedSku: sql<
          string | null
        >`CASE WHEN ${productReferences.targetKind} = 'mpn' THEN (SELECT p.sku FROM products p WHERE p.id = ${productReferences.targetProductId}) END`,
      })
      .from(productReferences)
      .where(inArray(productReferences.productId, elementSet))
      .orderBy(asc(productReferences.productId), asc(productReferences.position)),
    db.select().from(productUdx).where(inArray(productUdx.productId, elementSet)),
    blocksStatement(db, elementSet),
    // The elements' and their media's translations, one row per element (translation-store.ts).
    translationsOfStatement(db, sql`(SELECT id FROM media WHERE element_id IN ${elementSet})`, elementSet),
    // The languages the masters' catalogs publish (one catalog for nearly every caller).
    db
      .select({ id: catalogs.id, languages: catalogs.languages })
      .from(catalogs)
      .where(
        sql`${catalogs.id} IN (SELECT m.catalog_id FROM products m WHERE m.id IN ${masterSet} AND +m.company_id = ${companyId})`,
      ),
  ] as const;
}

async function loadPage(db: Database, companyId: string, masterIds: string[]): Promise<ProductAggregate[]> {
  if (masterIds.length === 0) return [];
  return assembleAggregates(await db.batch(pageQueries(db, companyId, JSON.stringify(masterIds))), masterIds);
}

/** What the statements of `aggregateStatements` answer, in their order. */
type Answers<T> = { readonly [K in keyof T]: Awaited<T[K]> };
export type AggregateRows = Answers<ReturnType<typeof aggregateStatements>>;

/** The aggregates of `masterIds` (in that order; absent ones left out) from the rows `aggregateStatements` read. */
export function assembleAggregates(rows: AggregateRows, masterIds: string[]): ProductAggregate[] {
  const [
    masters,
    variants,
    values,
    links,
    linkClasses,
    linkFeatures,
    mediaRows,
    placements,
    priceRows,
    referenceRows,
    udxRows,
    blockRows,
    translationRows,
    catalogRows,
  ] = rows;
  const languagesBy = new Map(catalogRows.map((c) => [c.id, c.languages]));
  const translationsBy = groupedTranslations(translationRows);
  const descriptionsOf = (mediaId: string) => {
    const byLanguage = translationsBy.get(mediaId);
    if (!byLanguage) return undefined;
    const out: Record<string, string> = {};
    for (const [lang, fields] of Object.entries(byLanguage)) if (fields.description) out[lang] = fields.description;
    return out;
  };
  const pricesBy = groupBy(priceRows, (p) => p.productId);
  const referencesBy = groupBy(referenceRows, (r) => r.productId);
  const udxBy = new Map(udxRows.map((u) => [u.productId, u.xml]));
  const blocksBy = groupBy(blockRows, (b) => b.productId);

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
            classes: (classesBy.get(link.id) ?? []).map(
              ({ group, system, code, classVersion, dynamicReleaseDate, release, unverified }) => ({
                group,
                system,
                code,
                ...(release !== null ? { release } : {}),
                ...(unverified ? { unverified: true as const } : {}),
                ...(classVersion !== null ? { classVersion } : {}),
                ...(dynamicReleaseDate !== null ? { dynamicReleaseDate } : {}),
              }),
            ),
            features: (featuresBy.get(link.id) ?? []).map(({ group, code, value, unit, unverified }) => ({
              group,
              code,
              value,
              unit,
              ...(unverified ? { unverified: true as const } : {}),
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
        url: m.url,
        mimeCode: m.mimeCode,
        alt: m.alt,
        ...(m.attachment ? { attachment: attachmentOfColumn(m.attachment) } : {}),
        descriptions: descriptionsOf(m.id),
      })),
      prices: (pricesBy.get(product.id) ?? []).map(({ productId: _id, ...row }) => row),
      references: (referencesBy.get(product.id) ?? []).map((r) => ({
        ...storedReference(r),
        targetProductId: r.targetProductId,
        ...(r.targetKind === 'mpn' ? { resolvedSku: r.resolvedSku } : {}),
      })),
      udx: udxBy.get(product.id) ?? null,
      featureBlocks: (blocksBy.get(product.id) ?? []).map(blockOfRow),
      translations: translationsBy.get(product.id) ?? {},
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
      publishedLanguages: languagesBy.get(master.catalogId) ?? [],
    }));
}
