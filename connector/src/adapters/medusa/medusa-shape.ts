import type { MediaRef, Product, Variant } from '../../../../src/sync/protocol/wire';
import { type Node, nodeFeatures, SKU_OPTION, variantOptions } from '../common/features';
import { imagesFor } from '../common/images';
import { orderDetailsOf } from '../common/order-details';
import { priceCurrencies, priceTiers } from '../common/prices';
import { skuSlug } from '../common/slug';
import { type TextField, textIn, translatedLocalesOf } from '../common/texts';
import type { TargetMapping } from '../target-adapter';

/**
 * What a PIM master becomes in Medusa v2, before any call: the product's fields, its options
 * (from the variant-defining features), its variants with prices per currency and quantity
 * tiers, the features in metadata (Medusa has no attributes in core), the translations per
 * locale, the images and categories to resolve. Pure, so the writer only compares and sends.
 */
export interface MedusaPrice {
  currency_code: string;
  amount: number;
  min_quantity?: number;
}

export interface DesiredVariant {
  sku: string;
  title: string;
  ean: string | null;
  options: Record<string, string>;
  prices: MedusaPrice[];
  metadata: Record<string, unknown>;
  /** locale -> `{ title }` */
  translations: Record<string, Record<string, string>>;
}

export interface DesiredProduct {
  sku: string;
  title: string;
  description: string | null;
  handle: string;
  status: 'published' | 'draft';
  options: { title: string; values: string[] }[];
  variants: DesiredVariant[];
  metadata: Record<string, unknown>;
  /** locale -> `{ title, description }` */
  translations: Record<string, Record<string, string>>;
  images: MediaRef[];
  categories: Product['categories'];
}

/** A handle Medusa accepts, derived from the SKU alone (adapters/common/slug.ts) so a second run finds the same one. */
export function handleOf(sku: string): string {
  return skuSlug(sku);
}

/** Options from the shared rule (docs/shops.md "Variants"); a master without variants gets the SKU option with its own SKU. */
function optionsOf(product: Product, sku: string, mapping: TargetMapping) {
  const { options } = variantOptions(product, mapping);
  if (options.length === 0) {
    return { options: [{ title: SKU_OPTION.name, values: [sku] }], combos: [{ [SKU_OPTION.name]: sku }] };
  }
  return {
    options: options.map((option) => ({ title: option.name, values: [...new Set(option.values)] })),
    combos: product.variants.map((_, i) =>
      Object.fromEntries(options.map((option) => [option.name, option.values[i] as string])),
    ),
  };
}

/**
 * The shop prices of a node (adapters/common/prices.ts) in every currency it has prices of the
 * mapped type in, tiers as `min_quantity`; the master's when the node has none.
 */
export function pricesOf(node: Node, master: Product, mapping: TargetMapping): MedusaPrice[] {
  const priced = {
    ...node,
    prices: node.prices?.length ? node.prices : master.prices,
    price: node.price ?? master.price,
  };
  return priceCurrencies(priced, mapping).flatMap((currency) =>
    priceTiers(priced, mapping, { currency }).map((tier) => ({
      currency_code: currency.toLowerCase(),
      amount: tier.amount,
      ...(tier.minQuantity > 1 ? { min_quantity: tier.minQuantity } : {}),
    })),
  );
}

function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );
}

function metadataOf(node: Node, mapping: TargetMapping): Record<string, unknown> {
  const blocks = (node.featureBlocks ?? []).filter((b) => mapping.features.featureBlocks.includes(b.system));
  return compact({
    // Feature blocks go whole into pim_feature_blocks.
    pim_features: nodeFeatures(node, mapping)
      .filter((f) => f.source !== 'block')
      .map(({ name, value, unit }) => (unit ? { name, value, unit } : { name, value })),
    pim_feature_blocks: blocks,
    pim_gtin: node.gtin,
    pim_manufacturer_id: node.manufacturerId,
    pim_manufacturer_pid: node.manufacturerPid,
    pim_unit_id: node.unitId,
    pim_tax_id: node.taxId,
    pim_keywords: node.keywords,
    pim_delivery_time_days: node.deliveryTimeDays,
    pim_price_quantity: node.priceQuantity,
  });
}

/**
 * The order details in effect for a Medusa variant (its own, else the master's), as text as the
 * PIM keeps them: Medusa v2 has no minimum, step or content unit of its own, so a storefront or
 * cart rule reads these metadata keys (docs/shops.md "Order details"). Unset ones are left out,
 * and a key the record no longer carries is removed by the writer (medusa-write.ts).
 */
function orderMetadata(node: Node, master: Product): Record<string, unknown> {
  const details = orderDetailsOf(node, master, 'product');
  return compact({
    pim_content_unit: details.contentUnit?.value,
    pim_content_per_unit: details.contentPerUnit?.value,
    pim_quantity_min: details.quantityMin?.value,
    pim_quantity_interval: details.quantityInterval?.value,
  });
}

function translationsOf(node: Node, mapping: TargetMapping, fields: Record<string, string>) {
  const out: Record<string, Record<string, string>> = {};
  for (const [language, locale] of translatedLocalesOf(mapping)) {
    const row: Record<string, string> = {};
    for (const [pim, medusa] of Object.entries(fields)) {
      const text = textIn(node, pim as TextField, language, mapping);
      if (text !== null) row[medusa] = text;
    }
    if (Object.keys(row).length > 0) out[locale] = row;
  }
  return out;
}

export function desiredProduct(sku: string, product: Product, mapping: TargetMapping): DesiredProduct {
  const nodes: Node[] = product.variants.length > 0 ? product.variants : [product];
  const skus = product.variants.length > 0 ? product.variants.map((v) => v.sku) : [sku];
  const { options, combos } = optionsOf(product, sku, mapping);
  const variants = nodes.map((node, i) => ({
    sku: skus[i] as string,
    title: node.name ?? (skus[i] as string),
    ean: node.gtin,
    options: combos[i] as Record<string, string>,
    prices: pricesOf(node, product, mapping),
    metadata: { ...(node === product ? {} : metadataOf(node, mapping)), ...orderMetadata(node, product) },
    translations: node === product ? {} : translationsOf(node, mapping, { name: 'title' }),
  }));
  return {
    sku,
    title: product.name ?? sku,
    description: product.description,
    handle: handleOf(sku),
    status: product.status === 'active' ? 'published' : 'draft',
    options,
    variants,
    metadata: { pim_sku: sku, ...metadataOf(product, mapping), ...orderMetadata(product, product) },
    translations: translationsOf(product, mapping, { name: 'title', description: 'description' }),
    images: imagesFor(product, mapping),
    categories: product.categories,
  };
}
