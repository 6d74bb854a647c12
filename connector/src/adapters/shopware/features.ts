import type { Product } from '../../../../src/sync/protocol/wire';
import { MAX_OPTION_TEXT, type Node, nodeFeatures, variantOptions } from '../common/features';
import type { TargetMapping } from '../target-adapter';

/**
 * The features a product node carries (adapters/common/features.ts), as Shopware properties:
 * one property group per feature, one option per value. `groupKey` (the shared feature key)
 * and `optionKey` are the natural keys the deterministic ids are derived from, so the same
 * feature value is one option in the whole shop, whatever product carries it.
 */
export interface FeatureValue {
  groupKey: string;
  groupName: string;
  optionKey: string;
  optionName: string;
}

/** Shopware's DAL keeps option names to 255 characters; longer texts are not facets. */
const MAX_NAME = MAX_OPTION_TEXT;

export function shopwareFeatures(node: Node, mapping: TargetMapping): FeatureValue[] {
  return nodeFeatures(node, mapping)
    .map((f) => ({
      groupKey: f.key,
      groupName: f.name.slice(0, MAX_NAME),
      optionKey: f.text.trim(),
      optionName: f.text.trim(),
    }))
    .filter((f) => f.optionName.length <= MAX_NAME);
}

/** The option each variant gets in the configurator: groupKey -> option, per variant SKU. */
export type VariantOptions = Map<string, FeatureValue[]>;

/** The property group of the SKU option (its id is derived from this key). */
export const SKU_OPTION_GROUP = 'variant:sku';

/**
 * The configurator options per variant SKU, from the shared rule (docs/shops.md "Variants"):
 * the variant-defining features, or one option per variant named after its SKU. A group keeps
 * the feature's own name (the group is one in the whole shop).
 */
export function configuratorOptions(product: Product, mapping: TargetMapping): VariantOptions {
  const { options } = variantOptions(product, mapping);
  const out: VariantOptions = new Map();
  product.variants.forEach((variant, i) => {
    out.set(
      variant.sku,
      options.map((option) => {
        const text = (option.values[i] as string).trim();
        return option.feature
          ? {
              groupKey: option.key,
              groupName: option.feature.name.slice(0, MAX_NAME),
              optionKey: text,
              optionName: text,
            }
          : { groupKey: SKU_OPTION_GROUP, groupName: option.name, optionKey: text, optionName: text };
      }),
    );
  });
  return out;
}
