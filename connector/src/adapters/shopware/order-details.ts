import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import { OrderDetailRefused, orderDetailsOf, wholeQuantity } from '../common/order-details';

/**
 * A node's order details as Shopware 6 product fields (docs/shops.md "Order details"):
 * `minPurchase` and `purchaseSteps` (integers: a fraction fails the record, never rounded),
 * and the content as Shopware's base price: `purchaseUnit` (content units per order unit),
 * `referenceUnit` 1 and `unitId` the content unit (looked up by its code, as GET /mappings
 * matches the order unit). A node without a content unit or count keeps the order unit as
 * `unitId` (this spread leaves it alone); the other fields are always sent, so a value the PIM
 * cleared is cleared in the shop: minimum and steps 1 on a master, null (inherit) on a variant,
 * no base price (null). A variant's are its own, else its master's. A value Shopware cannot
 * take throws `OrderDetailRefused` (plan.ts fails the record on its field).
 */
export async function orderFields(
  node: Product | Variant,
  master: Product,
  field: string,
  unitIdOf: (code: string) => Promise<string | undefined>,
): Promise<Record<string, unknown>> {
  const details = orderDetailsOf(node, master, field);
  const { contentUnit, contentPerUnit, quantityMin, quantityInterval } = details;
  // Unset on a master is Shopware's default 1; on a variant null, which Shopware inherits from its parent.
  const unset = node === master ? 1 : null;
  const out: Record<string, unknown> = {
    minPurchase: quantityMin ? wholeQuantity(quantityMin, 'the minimum purchase (minPurchase)') : unset,
    purchaseSteps: quantityInterval ? wholeQuantity(quantityInterval, 'the purchase steps (purchaseSteps)') : unset,
    purchaseUnit: contentUnit || contentPerUnit ? Number(contentPerUnit?.value ?? '1') : null,
    referenceUnit: contentUnit || contentPerUnit ? 1 : null,
  };
  if (contentUnit) {
    const unitId = await unitIdOf(contentUnit.value);
    if (!unitId)
      throw new OrderDetailRefused(
        contentUnit.field,
        `the shop has no unit with the short code "${contentUnit.value}" for the content unit`,
      );
    out.unitId = unitId;
  }
  return out;
}
