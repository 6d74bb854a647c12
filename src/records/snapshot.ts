import { classSnapshot, featureSnapshot } from '../model/class-version';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { blockOfRow, blocksStatement } from '../model/feature-block-rows';
import type { Database } from '../db/client';
import {
  attributes,
  attributeValues,
  catalogs,
  categories,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  exportTemplates,
  media,
  productCategories,
  products,
  productPrices,
  productReferences,
  translations,
} from '../db/schema';
import { localizedPath } from '../kernel/languages';
import { attachmentOfColumn, type MediaAttachment } from '../kernel/media-attachment';
import { PRODUCT_DATA_FIELDS } from '../model/fields';
import { pricesSnapshot } from '../model/price-records';
import { type StoredReference, storedReference } from '../model/reference-types';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * The recorded state of one element as a flat map `path -> value` (docs/history.md): built-in
 * fields by name, `values.<attribute code>`, `classification.name`, `classification.groups`,
 * `classification.class.<GROUP>`, `classification.feature.<GROUP>.<code>` (a kept value's unit as
 * `classification.featureUnit.<GROUP>.<code>`), `categories` (sorted
 * ids, masters), `variants` (sorted ids, masters) and `media.<mediaId>`. A missing path is null.
 * A snapshot may be partial: the diff covers the paths of either side only.
 */
export type Snapshot = Record<string, Json>;

export type HistoryKind = 'catalog' | 'category' | 'product' | 'variant' | 'template';

export const PRODUCT_FIELDS = ['sku', ...PRODUCT_DATA_FIELDS, 'status'] as const;
/** `features` is the stored JSON text and `udx` the verbatim XML (migration 0051): restored as they were. */
export const CATEGORY_FIELDS = ['name', 'description', 'sortOrder', 'parentId', 'keywords', 'features', 'udx'] as const;
export const CATALOG_FIELDS = [
  'departmentId',
  'name',
  'description',
  'catalogType',
  'catalogVersion',
  'language',
  'languages',
  'currency',
] as const;
export const TEMPLATE_FIELDS = ['name', 'exportType', 'language', 'options'] as const;

/** Copies the non-null `fields` of a row into a snapshot. */
export function pickFields(row: Record<string, unknown>, fields: readonly string[], into: Snapshot = {}): Snapshot {
  for (const field of fields) {
    const value = row[field];
    if (value !== null && value !== undefined) into[field] = value as Json;
  }
  return into;
}

/** The snapshot with `patch` applied; a null value removes the path. */
export function withChanges(snapshot: Snapshot, patch: Snapshot): Snapshot {
  const out = { ...snapshot };
  for (const [path, value] of Object.entries(patch)) {
    if (value === null || value === undefined) delete out[path];
    else out[path] = value;
  }
  return out;
}

/**
 * Loads the full snapshot of one element of the company in one round trip (a D1 batch of
 * reads). Returns null when the element does not exist. Variants are separate elements; a
 * master lists their ids under `variants`.
 */
export async function loadSnapshot(
  db: Database,
  companyId: string,
  elementId: string,
  kind: HistoryKind,
): Promise<Snapshot | null> {
  if (kind === 'template') {
    const row = await db.query.exportTemplates.findFirst({
      where: and(eq(exportTemplates.id, elementId), eq(exportTemplates.companyId, companyId)),
    });
    return row ? pickFields(row, TEMPLATE_FIELDS) : null;
  }
  const own =
    kind === 'catalog'
      ? db
          .select()
          .from(catalogs)
          .where(and(eq(catalogs.id, elementId), eq(catalogs.companyId, companyId)))
      : kind === 'category'
        ? db
            .select()
            .from(categories)
            .where(and(eq(categories.id, elementId), eq(categories.companyId, companyId)))
        : db
            .select()
            .from(products)
            .where(and(eq(products.id, elementId), eq(products.companyId, companyId)));
  // The element's id if it is the company's: media and placements carry no company_id (migration 0010).
  const ownTable = kind === 'catalog' ? catalogs : kind === 'category' ? categories : products;
  const ownId = db
    .select({ id: ownTable.id })
    .from(ownTable)
    .where(and(eq(ownTable.id, elementId), eq(ownTable.companyId, companyId)));
  const [
    rows,
    values,
    link,
    classes,
    features,
    mediaRows,
    placements,
    variants,
    priceRows,
    referenceRows,
    blockRows,
    translationRows,
  ] = await db.batch([
    own,
    db
      .select({ code: attributes.code, value: attributeValues.value })
      .from(attributeValues)
      .innerJoin(attributes, eq(attributes.id, attributeValues.attributeId))
      .where(and(eq(attributeValues.elementId, elementId), eq(attributes.companyId, companyId))),
    db
      .select()
      .from(classificationLinks)
      .where(and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, companyId))),
    db
      .select({
        group: classificationLinkClasses.group,
        code: classificationLinkClasses.code,
        system: classificationLinkClasses.system,
        release: classificationLinkClasses.release,
        unverified: classificationLinkClasses.unverified,
        classVersion: classificationLinkClasses.classVersion,
        dynamicReleaseDate: classificationLinkClasses.dynamicReleaseDate,
      })
      .from(classificationLinkClasses)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkClasses.linkId))
      .where(and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, companyId))),
    db
      .select({
        group: classificationLinkFeatures.group,
        code: classificationLinkFeatures.code,
        value: classificationLinkFeatures.value,
        unit: classificationLinkFeatures.unit,
        unverified: classificationLinkFeatures.unverified,
      })
      .from(classificationLinkFeatures)
      .innerJoin(classificationLinks, eq(classificationLinks.id, classificationLinkFeatures.linkId))
      .where(and(eq(classificationLinks.elementId, elementId), eq(classificationLinks.companyId, companyId))),
    db.select().from(media).where(inArray(media.elementId, ownId)),
    db
      .select({ id: productCategories.categoryId })
      .from(productCategories)
      .where(inArray(productCategories.productId, ownId))
      .orderBy(asc(productCategories.categoryId)),
    db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.parentId, elementId), eq(products.companyId, companyId)))
      .orderBy(asc(products.id)),
    db.select().from(productPrices).where(inArray(productPrices.productId, ownId)).orderBy(asc(productPrices.position)),
    db
      .select({
        type: productReferences.type,
        targetSku: productReferences.targetSku,
        // 'mpn' stays in the snapshot (storedReference leaves 'sku' out, so older versions read the same).
        targetKind: productReferences.targetKind,
        quantity: productReferences.quantity,
      })
      .from(productReferences)
      .where(inArray(productReferences.productId, ownId))
      .orderBy(asc(productReferences.position)),
    blocksStatement(db, sql`(${ownId})`),
    // The element's texts in its catalog's other languages, and its media's (docs/languages.md).
    db
      .select()
      .from(translations)
      .where(
        sql`${translations.elementId} IN (${ownId}) OR ${translations.elementId} IN (SELECT ${media.id} FROM ${media} WHERE ${media.elementId} IN (${ownId}))`,
      ),
  ]);
  const row = rows[0] as Record<string, unknown> | undefined;
  if (!row) return null;
  const fields = kind === 'catalog' ? CATALOG_FIELDS : kind === 'category' ? CATEGORY_FIELDS : PRODUCT_FIELDS;
  const snapshot = pickFields(row, fields);
  for (const v of values) snapshot[`values.${v.code}`] = v.value;
  const linkRow = link[0];
  if (linkRow) {
    snapshot['classification.name'] = linkRow.name;
    snapshot['classification.groups'] = linkRow.classificationGroups;
    for (const c of classes) classSnapshot(snapshot, c);
    for (const f of features) featureSnapshot(snapshot, f);
  }
  for (const m of mediaRows) snapshot[`media.${m.id}`] = mediaEntry(m);
  if (blockRows.length > 0) snapshot.featureBlocks = blockRows.map(blockOfRow) as unknown as Json;
  if (kind === 'product' && row.parentId === null) {
    // An empty list is left out: absent and [] mean the same, so creating a product shows no noise.
    if (placements.length > 0) snapshot.categories = placements.map((p) => p.id);
    if (variants.length > 0) snapshot.variants = variants.map((v) => v.id);
  }
  const prices = pricesSnapshot(priceRows.map(({ productId: _id, ...row }) => row));
  if (prices !== undefined) snapshot.prices = prices;
  if (kind === 'product' || kind === 'variant')
    Object.assign(snapshot, referencesSnapshot(referenceRows.map(storedReference)));
  // `name@eng`, `values.colour@fra`; a media entry's `media.<id>.description@eng`.
  for (const t of translationRows) {
    const field = t.elementId === elementId ? t.field : `media.${t.elementId}.${t.field}`;
    snapshot[localizedPath(field, t.lang)] = t.value;
  }
  return snapshot;
}

/** How a media file appears in a snapshot (the file itself lives in R2 and is not versioned). */
export function mediaEntry(m: {
  fileName: string;
  purpose: string;
  contentType: string;
  size: number;
  description: string | null;
  sortOrder: number;
  url?: string | null;
  mimeCode?: string | null;
  alt?: string | null;
  /** The attachment, or the `media.attachment` column's text a row holds. */
  attachment?: MediaAttachment | string | null;
}): Json {
  const attachment = typeof m.attachment === 'string' ? attachmentOfColumn(m.attachment) : m.attachment;
  return {
    fileName: m.fileName,
    purpose: m.purpose,
    contentType: m.contentType,
    size: m.size,
    description: m.description,
    sortOrder: m.sortOrder,
    // A link (migration 0017) records where it points; a file's entry stays as it was.
    ...(m.url ? { url: m.url, mimeCode: m.mimeCode ?? null, alt: m.alt ?? null } : {}),
    // Only an entry that has one records it (migration 0082), so other entries' history keeps its form.
    ...(attachment ? { attachment: attachment as Json } : {}),
  };
}

/**
 * How a product's outgoing references appear in a snapshot: one path `references`, the list in
 * order by target SKU (the resolved target is not history: it follows the catalog), left out
 * when empty so that products without references show no noise.
 */
export function referencesSnapshot(list: readonly StoredReference[]): Snapshot {
  return list.length > 0 ? { references: list.map((r) => ({ ...storedReference(r) })) } : {};
}
