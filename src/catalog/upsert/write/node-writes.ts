import { attachmentColumn } from '../../../kernel/media-attachment';
import { dbNow } from '../../../kernel/clock';
import { eq, inArray, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../../../db/client';
import { jsonInsert } from '../../../db/json-rows';
import { newId } from '../../../kernel/ids';
import {
  attributeValues,
  classificationLinkClasses,
  classificationLinkFeatures,
  classificationLinks,
  media,
  productCategories,
  products,
  productPrices,
  productUdx,
} from '../../../db/schema';
import { linkStorageKey, mediaKey } from '../../../media/media-links.rules';
import type { ProductNode } from '../../../model/product-aggregate';
import type { ResolvedNode } from '../upsert-types';
import type { changedParts } from './changed-parts';
import { linkKey } from '../../../classification/link-key';
import { PRODUCT_DATA_FIELDS } from '../../../model/fields';
import {
  deleteStatements,
  insertStatements,
  type ReferenceRows,
  resolveStatements,
} from '../../references/reference-statements';
import { blockRows, deleteBlocksStatement } from '../../../model/feature-block-rows';
import { productFeatureBlocks } from '../../../db/schema';
import { clearFieldStatement, translationRowsStatements, type TranslationRow } from '../../../model/translation-store';
import { changedLanguages } from '../resolve/upsert-translations';

type ByLinkId<T> = Omit<T, 'linkId'> & { linkId: string };

/** Product columns a new row sets (the rest take their defaults); every new row sets all of them, so rows insert together. */
const NEW_PRODUCT_COLUMNS = PRODUCT_DATA_FIELDS;

/**
 * The writes of one upsert call, collected per table so that new rows of many products go in
 * a few multi-row INSERTs (D1 cost grows with statements, not rows). `flush` orders them:
 * updates and deletes first, then inserts parents before children.
 */
export class WriteSet {
  readonly statements: BatchStatement[] = [];
  /** R2 objects of media rows the write removes; deleted after the transaction commits. */
  readonly removedKeys: string[] = [];
  readonly products: (typeof products.$inferInsert)[] = [];
  readonly values: (typeof attributeValues.$inferInsert)[] = [];
  readonly links: (typeof classificationLinks.$inferInsert)[] = [];
  /** Rows of a link's classes and features name the link by its public id, looked up on insert. */
  readonly linkClasses: ByLinkId<typeof classificationLinkClasses.$inferInsert>[] = [];
  readonly linkFeatures: ByLinkId<typeof classificationLinkFeatures.$inferInsert>[] = [];
  readonly media: (typeof media.$inferInsert)[] = [];
  readonly placements: (typeof productCategories.$inferInsert)[] = [];
  readonly prices: (typeof productPrices.$inferInsert)[] = [];
  /** Outgoing reference lists written (catalog/references/), and SKUs of the products created. */
  readonly references: (ReferenceRows & { catalogId: string })[] = [];
  readonly createdSkus: { catalogId: string; sku: string }[] = [];
  /** Manufacturer numbers of products created or changed (old and new), for references by number. */
  readonly writtenMpns: { catalogId: string; mpn: string }[] = [];
  readonly udx: (typeof productUdx.$inferInsert)[] = [];
  readonly featureBlocks: (typeof productFeatureBlocks.$inferInsert)[] = [];
  /** Translations written (text) or removed (null), after the statements that clear fields. */
  readonly translations: TranslationRow[] = [];

  flush(db: Database): BatchStatement[] {
    return [
      ...this.statements,
      ...jsonInsert(db, products, this.products),
      ...jsonInsert(db, classificationLinks, this.links),
      ...jsonInsert(db, classificationLinkClasses, this.linkClasses, { columnSql: { linkId: linkKey } }),
      ...jsonInsert(db, classificationLinkFeatures, this.linkFeatures, { columnSql: { linkId: linkKey } }),
      ...jsonInsert(db, attributeValues, this.values),
      ...jsonInsert(db, media, this.media),
      ...jsonInsert(db, productCategories, this.placements),
      ...jsonInsert(db, productPrices, this.prices),
      // After the products: a reference to a product created in this batch resolves, and
      // references of earlier writes waiting for a created SKU resolve to it.
      ...byCatalog(this.references).flatMap(([catalogId, lists]) => insertStatements(db, catalogId, lists)),
      ...byCatalog(this.createdSkus).flatMap(([catalogId, created]) =>
        resolveStatements(
          db,
          catalogId,
          created.map((c) => c.sku),
        ),
      ),
      ...byCatalog(this.writtenMpns).flatMap(([catalogId, written]) =>
        resolveStatements(
          db,
          catalogId,
          [],
          [],
          written.map((w) => w.mpn),
        ),
      ),
      ...jsonInsert(db, productUdx, this.udx),
      ...jsonInsert(db, productFeatureBlocks, this.featureBlocks),
      ...translationRowsStatements(db, this.translations),
    ];
  }
}

function byCatalog<T extends { catalogId: string }>(rows: readonly T[]): [string, T[]][] {
  const map = new Map<string, T[]>();
  for (const row of rows) map.set(row.catalogId, [...(map.get(row.catalogId) ?? []), row]);
  return [...map];
}

/** The media rows a write leaves, by `mediaKey` (a link's URL, a file's name): ids, and size, type and storage key as stored. */
export interface WrittenMedia {
  mediaIds: Map<string, string>;
  mediaSizes: Map<string, { size: number; contentType: string; storageKey: string }>;
}

/**
 * Adds to `out` what brings one product row to `next`: the row itself (insert when `existing`
 * is null), and each collection `next` gives (attribute values, classification, media
 * references, placements), replaced as a whole. Media rows whose file name stays keep their
 * stored file.
 */
export function nodeStatements(
  db: Database,
  ctx: { companyId: string; catalogId: string },
  next: ResolvedNode,
  target: {
    id: string;
    parentId: string | null;
    existing: ProductNode | null;
    parts: ReturnType<typeof changedParts> | null;
  },
  out: WriteSet,
): WrittenMedia {
  const { id, existing, parts } = target;
  const mediaIds = new Map<string, string>();
  const mediaSizes: WrittenMedia['mediaSizes'] = new Map();
  const statements = out.statements;
  const all = existing === null;
  if (all) {
    const row: typeof products.$inferInsert = {
      id,
      sku: next.sku,
      companyId: ctx.companyId,
      catalogId: ctx.catalogId,
      parentId: target.parentId,
      status: 'active',
    };
    for (const column of NEW_PRODUCT_COLUMNS) (row as Record<string, unknown>)[column] = null;
    out.products.push({ ...row, ...next.fields });
    out.createdSkus.push({ catalogId: ctx.catalogId, sku: next.sku });
    const mpn = next.fields.manufacturerPid;
    if (typeof mpn === 'string' && mpn !== '') out.writtenMpns.push({ catalogId: ctx.catalogId, mpn });
  } else if (parts && parts.fields.length > 0) {
    const mpn = parts.fields.find(([field]) => field === 'manufacturerPid');
    if (mpn)
      for (const value of [mpn[1], existing.product.manufacturerPid])
        if (typeof value === 'string' && value !== '') out.writtenMpns.push({ catalogId: ctx.catalogId, mpn: value });
    statements.push(
      db
        .update(products)
        .set({ ...Object.fromEntries(parts.fields), updatedAt: dbNow })
        .where(eq(products.id, id)),
    );
  }
  if (next.values && (all || parts?.values)) {
    if (!all) statements.push(db.delete(attributeValues).where(eq(attributeValues.elementId, id)));
    // A value that goes takes its translations with it.
    const kept = new Set(next.values.map((v) => v.code));
    for (const v of existing?.values ?? [])
      if (!kept.has(v.code)) statements.push(clearFieldStatement(db, id, `values.${v.code}`));
    out.values.push(
      ...next.values.map((v) => ({
        elementId: id,
        attributeId: v.attributeId,
        value: v.value,
        numberValue: v.numberValue,
        numberValueTo: v.numberValueTo,
      })),
    );
  }
  if (next.classification !== undefined && (all || parts?.classification)) {
    const oldLink = existing?.classification?.linkId;
    if (oldLink) {
      statements.push(
        db.delete(classificationLinkClasses).where(eq(classificationLinkClasses.linkId, linkKey(oldLink))),
      );
      statements.push(
        db.delete(classificationLinkFeatures).where(eq(classificationLinkFeatures.linkId, linkKey(oldLink))),
      );
      statements.push(db.delete(classificationLinks).where(eq(classificationLinks.linkId, oldLink)));
    }
    const c = next.classification;
    if (c) {
      const linkId = newId();
      const name = c.classes.map((k) => `${k.system} ${k.code}`).join(', ');
      out.links.push({ linkId, companyId: ctx.companyId, elementId: id, name, classificationGroups: c.groups });
      out.linkClasses.push(...c.classes.map((k) => ({ linkId, ...k })));
      out.linkFeatures.push(...c.features.map((f) => ({ linkId, ...f })));
    }
  }
  if (next.media && (all || parts?.media)) {
    const keep = new Map((existing?.media ?? []).map((m) => [mediaKey(m), m]));
    const wanted = new Set(next.media.map(mediaKey));
    const drop = (existing?.media ?? []).filter((m) => !wanted.has(mediaKey(m)));
    if (drop.length > 0) {
      statements.push(
        db.delete(media).where(
          inArray(
            media.id,
            drop.map((m) => m.mediaId),
          ),
        ),
      );
      out.removedKeys.push(...drop.map((m) => m.storageKey));
    }
    next.media.forEach((m, sortOrder) => {
      const key = mediaKey(m);
      const old = keep.get(key);
      // Further-language descriptions: each given language written, unless it is the stored text.
      const describe = (mediaId: string) => {
        for (const [lang, value] of Object.entries(m.descriptions ?? {}))
          if (old?.descriptions?.[lang] !== value)
            out.translations.push({ elementId: mediaId, field: 'description', lang, value });
      };
      if (old) {
        describe(old.mediaId);
        mediaIds.set(key, old.mediaId);
        mediaSizes.set(key, {
          size: old.size,
          contentType: old.size > 0 ? old.contentType : m.contentType,
          storageKey: old.storageKey,
        });
        statements.push(
          db
            .update(media)
            .set({
              purpose: m.purpose,
              description: m.description,
              contentType: old.size > 0 ? old.contentType : m.contentType,
              sortOrder,
              mimeCode: m.mimeCode,
              alt: m.alt,
              attachment: attachmentColumn(m.attachment),
            })
            .where(eq(media.id, old.mediaId)),
        );
      } else {
        const mediaId = newId();
        describe(mediaId);
        const storageKey = m.url ? linkStorageKey(ctx.companyId, mediaId) : `media-ref/${ctx.companyId}/${mediaId}`;
        mediaIds.set(key, mediaId);
        mediaSizes.set(key, { size: 0, contentType: m.contentType, storageKey });
        // A reference only: no object is stored under this key until the file is uploaded (Media/Upload).
        out.media.push({
          id: mediaId,
          elementId: id,
          purpose: m.purpose,
          fileName: m.fileName,
          contentType: m.contentType,
          size: 0,
          storageKey,
          description: m.description,
          sortOrder,
          url: m.url,
          mimeCode: m.mimeCode,
          alt: m.alt,
          attachment: attachmentColumn(m.attachment),
        });
      }
    });
  }
  if (next.references && (all || parts?.references)) {
    if (!all) statements.push(...deleteStatements(db, [id]));
    out.references.push({ catalogId: ctx.catalogId, productId: id, references: next.references });
  }
  if (next.categoryIds && (all || parts?.categories)) {
    if (!all) statements.push(db.delete(productCategories).where(eq(productCategories.productId, id)));
    out.placements.push(...next.categoryIds.map((categoryId) => ({ productId: id, categoryId })));
  }
  if (next.prices && (all || parts?.prices)) {
    if (!all) statements.push(db.delete(productPrices).where(eq(productPrices.productId, id)));
    out.prices.push(...next.prices.map((p) => ({ ...p, productId: id })));
  }
  if (next.udx !== undefined && (all || parts?.udx)) {
    if (!all) statements.push(db.delete(productUdx).where(eq(productUdx.productId, id)));
    if (next.udx) out.udx.push({ productId: id, xml: next.udx });
  }
  if (next.featureBlocks && (all || parts?.featureBlocks)) {
    if (!all) statements.push(deleteBlocksStatement(db, id));
    out.featureBlocks.push(...blockRows(id, next.featureBlocks));
  }
  if (next.translations && (all || parts?.translations))
    for (const [lang, fields] of changedLanguages(next, existing))
      for (const [field, value] of Object.entries(fields)) out.translations.push({ elementId: id, field, lang, value });
  return { mediaIds, mediaSizes };
}
