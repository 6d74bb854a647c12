import type { UpsertRecord } from '../../../../src/sync/protocol/wire';
import type { WriteContext } from '../target-adapter';
import type { SyncItem } from './plan';

/**
 * Product references as Shopware cross-selling (docs/shops.md, mapping `references`).
 *
 * TODO(issue 35, lead): the wire (src/sync/protocol/wire.ts) carries no product references yet.
 * When it does, answer per record one `product_cross_selling` upsert
 * `{ id: shopwareId('product_cross_selling', sku, type), productId, name: <reference type>,
 * type: 'productList', active: true, position }` and one
 * `product_cross_selling_assigned_products` upsert per referenced SKU
 * `{ id, crossSellingId, productId: <its id from ctx.idsOf or shopwareId('product', refSku)>, position }`
 * (op names to add to plan.ts `OpName` and sync.ts `UPSERT_ORDER`, both after `product`), and add
 * `product_cross_selling` to plan.ts `OWNED` so removed references are deleted. Both entities
 * have schemas in the pinned document, so the contract test validates them as they come.
 */
export async function planReferences(_record: UpsertRecord, _ctx: WriteContext): Promise<SyncItem[]> {
  return [];
}
