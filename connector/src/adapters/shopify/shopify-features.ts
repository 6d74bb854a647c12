import { currencyPlaces, roundDecimal, type Product, type Variant } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';

type NodeFields = Product | Variant;

/** One metafield in the `pim` namespace, typed (https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types). */
export interface PimMetafield {
  key: string;
  type: 'single_line_text_field' | 'multi_line_text_field' | 'number_decimal' | 'json';
  value: string;
}

/** A feature of one product or variant: its stable key, a display name and the value with its unit. */
interface Feature {
  key: string;
  name: string;
  text: string;
  numeric: boolean;
}

const NUMBER = /^-?\d{1,15}(\.\d{1,9})?$/;

/** Metafield keys allow letters, digits, `-` and `_` (2 to 64 characters). */
function metafieldKey(prefix: string, code: string): string {
  return `${prefix}_${code.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/** The features the mapping sends: classification features (`f_<code>`) and attribute values (`v_<code>`). */
export function featuresOf(node: NodeFields, mapping: TargetMapping): Feature[] {
  const features: Feature[] = [];
  if (mapping.features.classification && node.classification) {
    const byCode = new Map<string, { name: string; values: string[]; units: (string | null)[] }>();
    for (const feature of node.classification.features) {
      const entry = byCode.get(feature.code) ?? { name: feature.name ?? feature.code, values: [], units: [] };
      entry.values.push(feature.value);
      entry.units.push(feature.unit);
      byCode.set(feature.code, entry);
    }
    for (const [code, entry] of byCode) {
      const text = entry.values.map((value, i) => (entry.units[i] ? `${value} ${entry.units[i]}` : value)).join(', ');
      const numeric = entry.values.length === 1 && !entry.units[0] && NUMBER.test(entry.values[0]!);
      features.push({ key: metafieldKey('f', code), name: entry.name, text, numeric });
    }
  }
  const wanted = mapping.features.values;
  for (const [code, value] of Object.entries(node.values)) {
    if (wanted === false || (Array.isArray(wanted) && !wanted.includes(code)) || value === '') continue;
    features.push({ key: metafieldKey('v', code), name: code, text: value, numeric: false });
  }
  return features;
}

/**
 * The metafields of one node. A key keeps its type as long as its value keeps its kind: a
 * classification value that is a plain number is `number_decimal`, any other is a single line
 * of text; attribute values are always multi-line text (they may hold line breaks), so a change
 * of text never changes a key's type.
 */
export function featureMetafields(node: NodeFields, mapping: TargetMapping): PimMetafield[] {
  return featuresOf(node, mapping)
    .filter((feature) => feature.text.trim() !== '')
    .map((feature) => ({
      key: feature.key,
      type: feature.key.startsWith('v_')
        ? 'multi_line_text_field'
        : feature.numeric
          ? 'number_decimal'
          : 'single_line_text_field',
      value: feature.text,
    }));
}

export interface VariantOptions {
  /** Option names in order (at most 3, Shopify's limit). */
  names: string[];
  /** Per variant (in the product's order), its value of each option. */
  values: string[][];
}

/**
 * The options a master's variants are told apart by: the features present on every variant
 * whose values differ between them (docs/shops.md), at most Shopify's three, as long as they
 * make every variant's combination unique. Otherwise one option "SKU" with the variant SKUs;
 * a master without variants gets Shopify's default option (Title / Default Title).
 */
export function variantOptions(product: Product, mapping: TargetMapping): VariantOptions {
  if (product.variants.length === 0) return { names: ['Title'], values: [['Default Title']] };
  const perVariant = product.variants.map((variant) => new Map(featuresOf(variant, mapping).map((f) => [f.key, f])));
  const first = perVariant[0]!;
  const defining = [...first.values()].filter(
    (feature) =>
      perVariant.every((features) => features.has(feature.key)) &&
      new Set(perVariant.map((features) => features.get(feature.key)!.text)).size > 1,
  );
  const chosen = defining.slice(0, 3);
  const values = perVariant.map((features) => chosen.map((feature) => features.get(feature.key)!.text.slice(0, 255)));
  const names = chosen.map((feature) => feature.name.slice(0, 255));
  const unique = new Set(values.map((row) => JSON.stringify(row))).size === values.length;
  const namesUnique = new Set(names).size === names.length;
  if (chosen.length > 0 && unique && namesUnique) return { names, values };
  return { names: ['SKU'], values: product.variants.map((variant) => [variant.sku]) };
}

/**
 * An amount as Shopify keeps it: rounded half up to the currency's minor unit (EUR 2, JPY 0),
 * gross when the shop shows prices with tax and the price carries its rate. The PIM keeps up to
 * 20 decimals (`21.15701` per piece); Shopify's money has the currency's places
 * (docs/shops.md, "Amounts").
 */
function shopAmount(amount: string, tax: string | null, mapping: TargetMapping): string {
  const places = currencyPlaces(mapping.currency);
  if (!mapping.pricesIncludeTax || tax === null) return roundDecimal(amount, places);
  return roundDecimal((Number(amount) * (1 + Number(tax))).toFixed(10), places);
}

/**
 * The shop's price of a node: the mapped price type's entry with an amount in the mapped
 * currency for quantity 1 (no lower bound or one of 1 or less), else the record's `price`,
 * in the currency's places (shopAmount).
 */
export function shopPrice(node: NodeFields, mapping: TargetMapping): string | null {
  const entry = (node.prices ?? []).find(
    (price) =>
      price.type === mapping.priceType &&
      price.amount !== null &&
      (price.currency === null || price.currency === mapping.currency) &&
      (price.lowerBound === null || Number(price.lowerBound) <= 1),
  );
  if (!entry?.amount) return node.price === null ? null : shopAmount(node.price, null, mapping);
  return shopAmount(entry.amount, entry.tax, mapping);
}

/** A node's quantity tiers of the shop's price (lower bound above 1), gross like `shopPrice`, by minimum quantity. */
export function priceTiers(node: NodeFields, mapping: TargetMapping): { minimumQuantity: number; amount: string }[] {
  return (node.prices ?? [])
    .filter(
      (price) =>
        price.type === mapping.priceType &&
        price.amount !== null &&
        (price.currency === null || price.currency === mapping.currency) &&
        price.lowerBound !== null &&
        Number(price.lowerBound) > 1,
    )
    .map((price) => ({
      minimumQuantity: Math.ceil(Number(price.lowerBound)),
      amount: shopAmount(price.amount!, price.tax, mapping),
    }))
    .sort((a, b) => a.minimumQuantity - b.minimumQuantity);
}
