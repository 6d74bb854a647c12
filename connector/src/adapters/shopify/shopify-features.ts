import { currencyPlaces, type Product } from '../../../../src/sync/protocol/wire';
import { type Node, nodeFeatures, variantOptions } from '../common/features';
import { amountIn, priceTiers, shopPrice } from '../common/prices';
import type { TargetMapping } from '../target-adapter';

/** One metafield in the `pim` namespace, typed (https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types). */
export interface PimMetafield {
  key: string;
  type: 'single_line_text_field' | 'multi_line_text_field' | 'number_decimal' | 'json' | 'list.product_reference';
  value: string;
}

const NUMBER = /^-?\d{1,15}(\.\d{1,9})?$/;
const PREFIX = { classification: 'f', value: 'v', block: 'b' } as const;

/** Metafield keys allow letters, digits, `-` and `_` (2 to 64 characters). */
function metafieldKey(prefix: string, code: string): string {
  return `${prefix}_${code.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 64);
}

/**
 * The metafields of one node: one per feature the mapping sends (adapters/common/features.ts),
 * `f_<code>` for classification features, `v_<code>` for attribute values, `b_<system>_<code>`
 * for feature-block features, several values joined with `, `. A key keeps its type as long as
 * its value keeps its kind: a classification value that is a plain number is `number_decimal`,
 * any other is a single line of text; attribute values are always multi-line text (they may
 * hold line breaks), so a change of text never changes a key's type.
 */
export function featureMetafields(node: Node, mapping: TargetMapping): PimMetafield[] {
  const byKey = new Map<string, { source: keyof typeof PREFIX; values: string[]; texts: string[]; units: boolean }>();
  for (const feature of nodeFeatures(node, mapping)) {
    const code = feature.source === 'block' ? `${feature.group}_${feature.code}` : feature.code;
    const key = metafieldKey(PREFIX[feature.source], code);
    const entry = byKey.get(key) ?? { source: feature.source, values: [], texts: [], units: false };
    entry.values.push(feature.value);
    entry.texts.push(feature.text);
    entry.units ||= feature.unit !== null;
    byKey.set(key, entry);
  }
  return [...byKey].map(([key, entry]) => ({
    key,
    type:
      entry.source === 'value'
        ? 'multi_line_text_field'
        : entry.values.length === 1 && !entry.units && NUMBER.test(entry.values[0] as string)
          ? 'number_decimal'
          : 'single_line_text_field',
    value: entry.texts.join(', '),
  }));
}

export interface ShopifyOptions {
  /** Option names in order (at most 3, Shopify's limit). */
  names: string[];
  /** Per variant (in the product's order), its value of each option. */
  values: string[][];
}

/**
 * The product's options: the shared rule (docs/shops.md "Variants") with Shopify's limit of
 * three options; a master without variants gets Shopify's default option (Title / Default Title).
 */
export function shopifyOptions(product: Product, mapping: TargetMapping): ShopifyOptions {
  if (product.variants.length === 0) return { names: ['Title'], values: [['Default Title']] };
  const { options } = variantOptions(product, mapping, { max: 3 });
  return {
    names: options.map((option) => option.name.slice(0, 255)),
    values: product.variants.map((_, i) => options.map((option) => option.values[i] as string)),
  };
}

/** A price as Shopify keeps money: the currency's minor unit (EUR 2, JPY 0), half up (docs/shops.md "Amounts"). */
const decimal = (amount: number, mapping: TargetMapping) => amountIn(amount, currencyPlaces(mapping.currency));

/** The shop price of a node (adapters/common/prices.ts) as Shopify's Decimal; null when it has none. */
export function shopifyPrice(node: Node, mapping: TargetMapping): string | null {
  const amount = shopPrice(node, mapping);
  return amount === null ? null : decimal(amount, mapping);
}

/** A node's quantity tiers (above quantity 1) as Shopify's price breaks. */
export function priceBreaks(node: Node, mapping: TargetMapping): { minimumQuantity: number; amount: string }[] {
  return priceTiers(node, mapping)
    .filter((tier) => tier.minQuantity > 1)
    .map((tier) => ({ minimumQuantity: tier.minQuantity, amount: decimal(tier.amount, mapping) }));
}
