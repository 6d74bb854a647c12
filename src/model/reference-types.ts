/**
 * Product references (docs/data-model.md "Product references"): the types are BMEcat's
 * PRODUCT_REFERENCE `type` values (2005 and 1.2's ARTICLE_REFERENCE alike), so a file and the
 * API name them the same way. This module imports nothing, so the web app bundles it as it is.
 */
export const REFERENCE_TYPES = [
  'accessories',
  'sparepart',
  'similar',
  'followup',
  'mandatory',
  'select',
  'consists_of',
  'diff_orderunit',
  'others',
] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];

/**
 * What a file can say about a reference besides type, target and quantity (BMEcat
 * REFERENCE_DESCR, and CATALOG_ID / CATALOG_VERSION of the catalog the target is in): kept to be
 * written back (migration 0021). Absent when not given, so lists without them compare, hash and
 * show in the history as they did before.
 */
export interface ReferenceDetails {
  descr?: string;
  targetCatalog?: string;
  targetCatalogVersion?: string;
}

/** A reference in stored form: what the snapshot, the exports and the comparisons of the upsert carry. */
export interface StoredReference extends ReferenceDetails {
  type: string;
  targetSku: string;
  /**
   * 'mpn': `targetSku` is the target's manufacturer product number (an ETIM xChange
   * ProductRelation), resolved to the product of the catalog with that manufacturer_pid.
   * Absent for the usual reference by SKU.
   */
  targetKind?: 'mpn';
  quantity: number | null;
}

type Maybe = string | null | undefined;

/** The one stored form of a reference: its keys in one order, empty details left out. */
export function storedReference(r: {
  type: string;
  targetSku: string;
  targetKind?: Maybe;
  quantity?: number | null;
  descr?: Maybe;
  targetCatalog?: Maybe;
  targetCatalogVersion?: Maybe;
}): StoredReference {
  return {
    type: r.type,
    targetSku: r.targetSku,
    ...(r.targetKind === 'mpn' ? { targetKind: 'mpn' as const } : {}),
    quantity: r.quantity ?? null,
    ...(r.descr ? { descr: r.descr } : {}),
    ...(r.targetCatalog ? { targetCatalog: r.targetCatalog } : {}),
    ...(r.targetCatalogVersion ? { targetCatalogVersion: r.targetCatalogVersion } : {}),
  };
}
