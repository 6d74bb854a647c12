import type { Product } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';
import { PRICE_LISTS, QUANTITY_PRICING_UPDATE } from './shopify-documents';
import { failOn, type UserErrors } from './shopify-failure';
import { priceBreaks, shopifyPrice } from './shopify-features';
import type { ShopifyGraphql } from './shopify-graphql';

/** The nodes that carry prices in Shopify: the variants, or the master itself as its default variant. */
const priced = (product: Product, sku: string) =>
  product.variants.length === 0 ? [{ ...product, sku }] : product.variants;

function tiersBySku(product: Product | null, sku: string, mapping: TargetMapping) {
  return new Map(product ? priced(product, sku).map((node) => [node.sku, priceBreaks(node, mapping)]) : []);
}

/**
 * Quantity price breaks, where the shop has them: Shopify keeps them on a B2B price list
 * (Shopify Plus), so a price list in the mapping's currency is looked up once; without one,
 * tiers are not sent (the probe says so). Per variant with tiers the price list gets the
 * variant's fixed price and its breaks, the old breaks deleted in the same call (Shopify runs
 * the deletes before the creates and applies the call as a whole or not at all:
 * https://shopify.dev/docs/api/admin-graphql/latest/mutations/quantityPricingByVariantUpdate);
 * a variant whose tiers are gone loses its fixed price and breaks.
 * Nothing is sent when the tiers are as last written.
 */
export function createPriceBreaks(gql: ShopifyGraphql) {
  let priceList: Promise<string | null> | null = null;

  const priceListFor = (currency: string) =>
    (priceList ??= gql
      .request<{ priceLists: { nodes: { id: string; currency: string }[] } }>(PRICE_LISTS)
      .then((result) => result.data?.priceLists.nodes.find((list) => list.currency === currency)?.id ?? null));

  async function sync(
    sku: string,
    product: Product,
    previous: Product | null,
    variantIds: Record<string, string>,
    mapping: TargetMapping,
  ) {
    const now = tiersBySku(product, sku, mapping);
    const before = tiersBySku(previous, sku, mapping);
    const changed = [...new Set([...now.keys(), ...before.keys()])].filter(
      (key) => JSON.stringify(now.get(key) ?? []) !== JSON.stringify(before.get(key) ?? []),
    );
    if (changed.length === 0 && previous !== null) return;
    const wanted = [...now].filter(([, tiers]) => tiers.length > 0);
    if (wanted.length === 0 && previous === null) return;
    const priceListId = await priceListFor(mapping.currency);
    if (!priceListId) return;

    const money = (amount: string) => ({ amount, currencyCode: mapping.currency });
    const nodes = new Map(priced(product, sku).map((node) => [node.sku, node]));
    // A product written before has its old tiers in `previous`; without it every variant's breaks are replaced.
    const touched = (previous === null ? [...now.keys()] : changed).filter((key) => variantIds[key]);
    const adding = touched.filter((key) => (now.get(key) ?? []).length > 0);
    const result = await gql.request<{ quantityPricingByVariantUpdate: UserErrors | null }>(QUANTITY_PRICING_UPDATE, {
      priceListId,
      input: {
        pricesToAdd: adding.flatMap((key) => {
          const price = shopifyPrice(nodes.get(key)!, mapping) ?? shopifyPrice(product, mapping);
          return price === null ? [] : [{ variantId: variantIds[key], price: money(price) }];
        }),
        pricesToDeleteByVariantId: touched.filter((key) => !adding.includes(key)).map((key) => variantIds[key]),
        quantityPriceBreaksToAdd: adding.flatMap((key) =>
          (now.get(key) ?? []).map((tier) => ({
            variantId: variantIds[key],
            minimumQuantity: tier.minimumQuantity,
            price: money(tier.amount),
          })),
        ),
        quantityPriceBreaksToDelete: [],
        quantityPriceBreaksToDeleteByVariantId: touched.map((key) => variantIds[key]),
        quantityRulesToAdd: [],
        quantityRulesToDeleteByVariantId: [],
      },
    });
    failOn('product.prices', result, result.data?.quantityPricingByVariantUpdate);
  }

  return { sync, priceListFor };
}
