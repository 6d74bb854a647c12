import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import { orderDetailsOf } from '../common/order-details';
import { RecordFailure } from './shopify-failure';
import type { PimMetafield } from './shopify-features';

/** Shopify's number_decimal: at most 9 decimal places (https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types). */
const SHOPIFY_DECIMAL = /^\d{1,15}(\.\d{1,9})?$/;

const KEYS = {
  contentPerUnit: 'content_per_unit',
  quantityMin: 'quantity_min',
  quantityInterval: 'quantity_interval',
} as const;

/**
 * The order details of a node as `pim` metafields (docs/shops.md "Order details"): Shopify has
 * no minimum order quantity, step or content unit on a product or variant (quantity rules exist
 * only in B2B catalogs), so a theme or cart rule reads `pim.quantity_min`, `pim.quantity_interval`,
 * `pim.content_per_unit` (number_decimal, as written) and `pim.content_unit` (the UN/ECE code).
 * A variant's are its own, else its master's. A decimal with more places than Shopify keeps fails
 * the record on its field rather than arriving rounded; a key the node no longer has is deleted
 * (it is left out of the keys the product should carry).
 */
export function orderMetafields(node: Product | Variant, master: Product, field: string): PimMetafield[] {
  const details = orderDetailsOf(node, master, field);
  const out: PimMetafield[] = [];
  if (details.contentUnit)
    out.push({ key: 'content_unit', type: 'single_line_text_field', value: details.contentUnit.value });
  for (const [name, key] of Object.entries(KEYS) as [keyof typeof KEYS, string][]) {
    const detail = details[name];
    if (!detail) continue;
    if (!SHOPIFY_DECIMAL.test(detail.value))
      throw new RecordFailure(
        detail.field,
        `Shopify keeps a decimal metafield to 9 places: ${detail.value} is not sent rounded`,
      );
    out.push({ key, type: 'number_decimal', value: detail.value });
  }
  return out;
}

/** The keys `orderMetafields` gives a node, unchecked: what a variant written before carried (shopify-record.ts). */
export function orderMetafieldKeys(node: Product | Variant, master: Product): string[] {
  const details = orderDetailsOf(node, master, 'product');
  return [
    ...(details.contentUnit ? ['content_unit'] : []),
    ...(Object.entries(KEYS) as [keyof typeof KEYS, string][]).flatMap(([name, key]) => (details[name] ? [key] : [])),
  ];
}
