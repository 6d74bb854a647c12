import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';

/**
 * The features a product node carries, as Shopware properties: one property group per feature
 * (ETIM / eCl@ss classification features, feature-block features of the mapped systems, PIM
 * attribute values as mapped), one option per value. `groupKey` and `optionKey` are the natural
 * keys the deterministic ids are derived from, so the same feature value is one option in the
 * whole shop, whatever product carries it.
 */
export interface FeatureValue {
  groupKey: string;
  groupName: string;
  optionKey: string;
  optionName: string;
}

/** Shopware's DAL keeps option names to 255 characters; longer texts are not facets. */
const MAX_OPTION_NAME = 255;

export function nodeFeatures(node: Product | Variant, mapping: TargetMapping): FeatureValue[] {
  const out: FeatureValue[] = [];
  const push = (groupKey: string, groupName: string, value: string) => {
    const optionName = value.trim();
    if (!optionName || optionName.length > MAX_OPTION_NAME) return;
    out.push({ groupKey, groupName: groupName.slice(0, MAX_OPTION_NAME), optionKey: optionName, optionName });
  };
  if (mapping.features.classification) {
    for (const f of node.classification?.features ?? []) {
      push(`classification:${f.code}`, f.name ?? f.code, f.unit ? `${f.value} ${f.unit}` : f.value);
    }
  }
  const systems = new Set(mapping.features.featureBlocks);
  for (const block of node.featureBlocks ?? []) {
    if (!systems.has(block.system)) continue;
    for (const f of block.features) {
      const code = f.ftId ?? f.fid ?? f.name ?? f.ftName;
      if (!code) continue;
      for (const v of f.values ?? []) {
        push(`block:${block.system}:${code}`, f.ftName ?? f.name ?? code, f.unit ? `${v} ${f.unit}` : v);
      }
    }
  }
  const wanted = mapping.features.values;
  if (wanted !== false) {
    for (const [code, value] of Object.entries(node.values)) {
      if (wanted === true || wanted.includes(code)) push(`value:${code}`, code, value);
    }
  }
  return dedupe(out);
}

/** The option each variant gets in the configurator: groupKey -> option, per variant SKU. */
export type VariantOptions = Map<string, FeatureValue[]>;

export const SKU_OPTION_GROUP = 'variant:sku';

/**
 * The variant-defining features of a master (docs/shops.md): the feature groups whose values
 * differ between its variants and that every variant has. When they do not tell every variant
 * apart (or there are none), each variant gets one option named after its SKU.
 */
export function variantOptions(product: Product, mapping: TargetMapping): VariantOptions {
  const perVariant = product.variants.map((v) => new Map(nodeFeatures(v, mapping).map((f) => [f.groupKey, f])));
  const groups = new Set(perVariant.flatMap((m) => [...m.keys()]));
  const defining = [...groups]
    .filter((g) => perVariant.every((m) => m.has(g)))
    .filter((g) => new Set(perVariant.map((m) => m.get(g)?.optionKey)).size > 1)
    .sort();
  const combos = perVariant.map((m) => defining.map((g) => m.get(g)?.optionKey).join('\u0000'));
  const out: VariantOptions = new Map();
  if (defining.length > 0 && new Set(combos).size === combos.length) {
    product.variants.forEach((v, i) => {
      const m = perVariant[i] as Map<string, FeatureValue>;
      out.set(
        v.sku,
        defining.map((g) => m.get(g) as FeatureValue),
      );
    });
    return out;
  }
  for (const v of product.variants) {
    out.set(v.sku, [{ groupKey: SKU_OPTION_GROUP, groupName: 'Variant', optionKey: v.sku, optionName: v.sku }]);
  }
  return out;
}

function dedupe(values: FeatureValue[]): FeatureValue[] {
  const seen = new Set<string>();
  return values.filter((v) => {
    const key = `${v.groupKey}\u0000${v.optionKey}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
