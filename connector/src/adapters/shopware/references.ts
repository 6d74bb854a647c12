import type { ProductReference } from '../../../../src/sync/protocol/wire';
import { shopwareId } from './ids';

/**
 * Product references as Shopware cross-selling (docs/shops.md, mapping `references`): one
 * `product_cross_selling` of type `productList` per reference type (named after the type, in the
 * order the types first appear), its `product_cross_selling_assigned_products` the referenced
 * products in the record's order. Ids are derived from the SKU, the type and the referenced SKU,
 * so the plan of the previous product names what the shop holds and what the record lost is
 * deleted (plan.ts `OWNED`); an unchanged record is not written at all (its fingerprint).
 * Shopware keeps no quantity on a cross-selling: `quantity` is not sent.
 *
 * A referenced product is assigned by its id in the mirror, else by its derived id (the
 * adapter's own products have it); a reference to a product the shop does not hold yet fails the
 * record with Shopware's reason on `product.references`, and the next run sends it again.
 */
export interface ReferenceItem {
  op: 'product_cross_selling' | 'product_cross_selling_assigned_products';
  payload: Record<string, unknown>;
}

export async function planReferences(
  sku: string,
  productId: string,
  references: ProductReference[],
  idOf: (sku: string) => string | undefined,
): Promise<ReferenceItem[]> {
  const byType = new Map<string, string[]>();
  for (const ref of references) {
    if (ref.sku === sku) continue;
    const skus = byType.get(ref.type) ?? [];
    if (!skus.includes(ref.sku)) skus.push(ref.sku);
    byType.set(ref.type, skus);
  }
  const items: ReferenceItem[] = [];
  let position = 0;
  for (const [type, skus] of byType) {
    const crossSellingId = await shopwareId('product_cross_selling', sku, type);
    items.push({
      op: 'product_cross_selling',
      payload: { id: crossSellingId, productId, name: type, type: 'productList', active: true, position: position++ },
    });
    for (const [i, target] of skus.entries()) {
      items.push({
        op: 'product_cross_selling_assigned_products',
        payload: {
          id: await shopwareId('product_cross_selling_assigned_products', sku, type, target),
          crossSellingId,
          productId: idOf(target) ?? (await shopwareId('product', target)),
          position: i,
        },
      });
    }
  }
  return items;
}
