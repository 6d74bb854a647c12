import { dbNow } from '../kernel/clock';
import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { products } from '../db/schema';
import { sha256Hex } from '../kernel/hashing';
import { loadProductAggregates, type ProductAggregate, type ProductNode } from '../model/product-aggregate';
import { CategoryPaths } from './category-paths';
import type { StoredPrice } from '../model/price-list';
import { syncPriceList } from '../model/price-records';
import type { StoredFeatureBlock } from '../model/feature-block-types';
import type { ElementTranslations } from '../model/translation-store';
import { publishedTranslations } from './published-languages';

type ProductRow = ProductNode['product'];

/**
 * The parts of a product or variant its sync record is made of: a loaded ProductNode has
 * them, and so does the state an upsert is about to write (upsert-fingerprints.ts computes the
 * fingerprint from that instead of reading the products again).
 */
export interface RecordNode {
  product: Pick<
    ProductRow,
    | 'sku'
    | 'name'
    | 'description'
    | 'gtin'
    | 'manufacturerName'
    | 'manufacturerPid'
    | 'unit'
    | 'price'
    | 'priceQuantity'
    | 'contentUnit'
    | 'contentPerUnit'
    | 'quantityMin'
    | 'quantityInterval'
    | 'keywords'
    | 'deliveryTimeDays'
    | 'status'
  >;
  values: { code: string; value: string }[];
  classification: {
    classes: { group: string; system: string; code: string; release?: string; unverified?: true }[];
    features: { group: string; code: string; value: string; unit: string | null; unverified?: true }[];
  } | null;
  /** The stored price list; a record without one (or an empty one) carries no `prices` key. */
  prices?: StoredPrice[];
  /** Outgoing references in order (catalog/references/); absent = none. */
  /** `targetKind` 'mpn' only for a reference by manufacturer number (a SKU reference's record is as before kinds). */
  references?: { type: string; targetSku: string; targetKind?: 'mpn'; quantity: number | null }[];
  media: {
    purpose: string;
    fileName: string;
    contentType: string;
    size: number;
    storageKey: string;
    url?: string | null;
    mimeCode?: string | null;
  }[];
  /** Feature blocks of other systems; absent or empty leaves the record (and fingerprint) as before they existed. */
  featureBlocks?: StoredFeatureBlock[];
  /** The texts in the catalog's other languages (docs/languages.md); absent or empty = none. */
  translations?: ElementTranslations;
}

/**
 * A node's translations as the record carries them: languages and fields in code order (a
 * write's planned state and a loaded one hash the same), undefined when there are none, so
 * products without translations keep the record and fingerprint they had before languages.
 */
export function recordTranslations(translations: ElementTranslations | undefined): ElementTranslations | undefined {
  const languages = Object.keys(translations ?? {})
    .filter((l) => Object.keys(translations![l]!).length > 0)
    .sort();
  if (languages.length === 0) return undefined;
  const out: ElementTranslations = {};
  for (const language of languages) {
    const fields = translations![language]!;
    out[language] = Object.fromEntries(
      Object.keys(fields)
        .sort()
        .map((f) => [f, fields[f]!]),
    );
  }
  return out;
}

/** A master's RecordNode with its placements and variants (a ProductAggregate is one). */
export interface RecordAggregate extends RecordNode {
  categoryIds: string[];
  variants: RecordNode[];
  /** The languages its catalog publishes: translations of others are left out of the record. */
  publishedLanguages: readonly string[];
}

/** A node's content unit, count, minimum and interval that are set (null ones left out); the wire carries the same. */
export function orderDetailsRecord(p: RecordNode['product']) {
  const { contentUnit, contentPerUnit, quantityMin, quantityInterval } = p;
  const set = Object.entries({ contentUnit, contentPerUnit, quantityMin, quantityInterval }).filter(
    ([, v]) => v !== null && v !== undefined,
  );
  return Object.fromEntries(set) as Partial<
    Record<'contentUnit' | 'contentPerUnit' | 'quantityMin' | 'quantityInterval', string>
  >;
}

/** What the sync connector receives for one product or variant. */
function nodeRecord(node: RecordNode, published: readonly string[]) {
  const p = node.product;
  return {
    sku: p.sku,
    name: p.name,
    description: p.description,
    gtin: p.gtin,
    manufacturerName: p.manufacturerName,
    manufacturerPid: p.manufacturerPid,
    unit: p.unit,
    price: p.price,
    priceQuantity: p.priceQuantity,
    // The order details only when the product has any (migration 0091), so the records (and
    // fingerprints) of products without them stay as they were: no mass resend after the upgrade.
    ...orderDetailsRecord(p),
    keywords: p.keywords,
    deliveryTimeDays: p.deliveryTimeDays,
    status: p.status,
    values: Object.fromEntries(node.values.map((v) => [v.code, v.value])),
    classification: node.classification
      ? {
          // The release is the class's system already, and whether it is verified is the PIM's: fingerprints stay as they were.
          classes: node.classification.classes.map(({ release: _release, unverified: _unverified, ...c }) => c),
          features: node.classification.features.map(({ unverified: _unverified, ...f }) => f),
        }
      : null,
    // A link adds its URL and MIME code (files keep the keys they had, so their fingerprints stay).
    media: node.media.map(({ purpose, fileName, contentType, size, storageKey, url, mimeCode }) => ({
      purpose,
      fileName,
      contentType,
      size,
      storageKey,
      ...(url ? { url, mimeCode: mimeCode ?? null } : {}),
    })),
    // Only a non-empty list is sent, so the records (and fingerprints) of products without a
    // price list stay exactly as before price lists existed: no mass resend after the upgrade.
    ...(node.prices && node.prices.length > 0 ? { prices: syncPriceList(node.prices, p.price) } : {}),
    // By target SKU, as the shop knows products; left out when there are none, so the records
    // (and fingerprints) of products without references are what they were before references.
    ...(node.references?.length
      ? {
          references: node.references.map(({ type, targetSku, targetKind, quantity }) => ({
            type,
            targetSku,
            ...(targetKind === 'mpn' ? { targetKind } : {}),
            quantity,
          })),
        }
      : {}),
    ...(node.featureBlocks && node.featureBlocks.length > 0 ? { featureBlocks: node.featureBlocks } : {}),
    ...withTranslations(node.translations, published),
  };
}

/** `{ translations }` of the published languages when the node has any, else nothing (see recordTranslations). */
export function withTranslations(translations: ElementTranslations | undefined, published: readonly string[]) {
  const sorted = recordTranslations(publishedTranslations(translations, published));
  return sorted ? { translations: sorted } : {};
}

const REFRESH_PAGE = 90;

/**
 * Per category: names root..leaf (undefined for one that no longer exists) and its media links
 * as text (undefined when it has none), from `CategoryPaths`.
 */
type CategoryLookup = Pick<CategoryPaths, 'path' | 'links'>;

/**
 * The record the sync sends for one master product, with its variants. Deterministic key order.
 * Categories carry their path of names, as the shop receives them, so a rename or move of a
 * category changes the fingerprints of the products in it (docs/sync.md "Category names"); a
 * category with media links adds them, so a change of its links does too (docs/shops.md
 * "Category images").
 */
export function syncRecord(aggregate: RecordAggregate, categories: CategoryLookup) {
  return {
    ...nodeRecord(aggregate, aggregate.publishedLanguages),
    categories: aggregate.categoryIds.flatMap((id) => {
      const path = categories.path(id);
      const links = categories.links(id);
      return path ? [links ? { id, path, links } : { id, path }] : [];
    }),
    variants: aggregate.variants.map((variant) => nodeRecord(variant, aggregate.publishedLanguages)),
  };
}

/** Fingerprints of loaded aggregates, by master id, with their category paths read in one go. */
export async function fingerprintsOf(
  db: Database,
  companyId: string,
  aggregates: ProductAggregate[],
): Promise<Map<string, string>> {
  const paths = new CategoryPaths(db, companyId);
  await paths.load(aggregates.flatMap((a) => a.categoryIds));
  const out = new Map<string, string>();
  for (const aggregate of aggregates) out.set(aggregate.product.id, await fingerprintOf(syncRecord(aggregate, paths)));
  return out;
}

type SyncRecord = ReturnType<typeof syncRecord>;

/** SHA-256 over the canonical JSON of the sync record. */
export function fingerprintOf(record: SyncRecord): Promise<string> {
  return sha256Hex(JSON.stringify(record));
}

/** The statement that marks a master's sync record as changed; put it in the same batch as the change. */
export function bumpRevision(db: Database, masterId: string) {
  return db
    .update(products)
    .set({ revision: sql`${products.revision} + 1`, updatedAt: dbNow })
    .where(eq(products.id, masterId));
}

/**
 * Recomputes the fingerprints of masters whose revision moved past their fingerprint. The
 * update is conditional on the revision read, so a concurrent write is never overwritten by a
 * stale hash; whichever writer saw the last revision stores the hash for it. A crash between
 * a write and this call leaves `fingerprintRevision < revision`, which the sync job repairs.
 */
export async function refreshFingerprints(db: Database, companyId: string, masterIds: string[]): Promise<void> {
  // Pages keep memory bounded when one write touches many masters (e.g. deleting a big category).
  for (let i = 0; i < masterIds.length; i += REFRESH_PAGE) {
    const aggregates = await loadProductAggregates(db, companyId, masterIds.slice(i, i + REFRESH_PAGE));
    const fingerprints = await fingerprintsOf(db, companyId, aggregates);
    const updates: BatchStatement[] = [];
    for (const aggregate of aggregates) {
      const fingerprint = fingerprints.get(aggregate.product.id)!;
      const revision = aggregate.product.revision;
      updates.push(
        db
          .update(products)
          .set({ fingerprint, fingerprintRevision: revision })
          .where(and(eq(products.id, aggregate.product.id), eq(products.revision, revision))),
      );
    }
    await runBatch(db, updates);
  }
}
