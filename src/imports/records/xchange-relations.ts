import type { UpsertRecord } from '../../catalog/upsert/upsert-types';
import { REFERENCE_TYPE } from '../../exports/xchange/xchange-codes';

type Json = Record<string, any>;
type Reference = NonNullable<UpsertRecord['references']>[number];

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const typeOf = (written: unknown) => {
  const t = String(written ?? '').trim();
  return REFERENCE_TYPE[t.toUpperCase()] ?? t;
};
const quantityOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : null);

/**
 * A Product's `ProductRelations` as references of each of its trade items: V2.0 groups related
 * products under a RelationType (`RelatedProducts`), V1.1 writes one relation per entry. A
 * related product is named by its RelatedManufacturerProductNumber: a reference by manufacturer
 * number (`targetKind: 'mpn'`), which resolves to the product of the catalog whose
 * manufacturer_pid that is, now or when it arrives (catalog/references/reference-statements.ts).
 * A file that gives a RelatedSupplierItemNumber there names the target by SKU instead.
 */
export function productRelationsOf(product: Json): Reference[] {
  return list(product.ProductRelations).flatMap((relation) => {
    const related = Array.isArray(relation.RelatedProducts) ? list(relation.RelatedProducts) : [relation];
    return related.map((r) => {
      const sku = str(r.RelatedSupplierItemNumber);
      return {
        type: typeOf(relation.RelationType),
        targetSku: sku ?? str(r.RelatedManufacturerProductNumber) ?? '',
        ...(sku === null ? { targetKind: 'mpn' as const } : {}),
        quantity: quantityOf(r.RelatedProductQuantity),
      };
    });
  });
}

/** A TradeItem's `ItemRelations`: the target by its RelatedSupplierItemNumber (the SKU), with RelatedItemQuantity. */
export function itemRelationsOf(item: Json): Reference[] {
  return list(item.ItemRelations).map((r) => ({
    type: typeOf(r.RelationType),
    targetSku: str(r.RelatedSupplierItemNumber) ?? '',
    quantity: quantityOf(r.RelatedItemQuantity),
  }));
}
