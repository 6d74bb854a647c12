import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';

/**
 * The features a node sends to a shop, and the options a master's variants are told apart by:
 * one rule for every adapter (docs/shops.md "Variants"). Each engine turns them into its own
 * shape (Shopify metafields, Shopware properties, Vendure facets, Medusa metadata).
 */
export type FeatureSource = 'classification' | 'block' | 'value';

/** One value of one feature of a node. */
export interface NodeFeature {
  /** Stable across nodes and runs: `classification:<code>`, `block:<system>:<code>` or `value:<code>`. */
  key: string;
  source: FeatureSource;
  /** The classification group (`ETIM`), the block's system, or `values` for attribute values. */
  group: string;
  code: string;
  /** The display name: the feature's name, else its code. */
  name: string;
  value: string;
  unit: string | null;
  /** The value as shown: with its unit after a space. */
  text: string;
}

export type Node = Product | Variant;

export function featureText(value: string, unit: string | null | undefined): string {
  return unit ? `${value} ${unit}` : value;
}

/**
 * The features the mapping sends, in order: classification features (`features.classification`),
 * PIM attribute values (`features.values`: all, none, or the listed codes), then the features
 * of the feature blocks whose system `features.featureBlocks` names. Blank values are left
 * out; a feature with several values gives one entry per value; an entry repeated is sent once.
 */
export function nodeFeatures(node: Node, mapping: TargetMapping): NodeFeature[] {
  const out: NodeFeature[] = [];
  const seen = new Set<string>();
  const push = (feature: Omit<NodeFeature, 'text'>) => {
    if (feature.value.trim() === '') return;
    const text = featureText(feature.value, feature.unit);
    const id = `${feature.key}\u0000${text}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ ...feature, text });
  };
  if (mapping.features.classification) {
    for (const f of node.classification?.features ?? []) {
      const name = f.name ?? f.code;
      push({
        key: `classification:${f.code}`,
        source: 'classification',
        group: f.group,
        code: f.code,
        name,
        value: f.value,
        unit: f.unit,
      });
    }
  }
  const wanted = mapping.features.values;
  if (wanted !== false) {
    for (const [code, value] of Object.entries(node.values)) {
      if (wanted !== true && !wanted.includes(code)) continue;
      push({ key: `value:${code}`, source: 'value', group: 'values', code, name: code, value, unit: null });
    }
  }
  const systems = new Set(mapping.features.featureBlocks);
  for (const block of node.featureBlocks ?? []) {
    if (!systems.has(block.system)) continue;
    for (const f of block.features) {
      const code = f.ftId ?? f.fid ?? f.name ?? f.ftName;
      if (!code) continue;
      const name = f.ftName ?? f.name ?? code;
      for (const value of f.values ?? []) {
        push({
          key: `block:${block.system}:${code}`,
          source: 'block',
          group: block.system,
          code,
          name,
          value,
          unit: f.unit ?? null,
        });
      }
    }
  }
  return out;
}

/** Longest text that is an option value; longer texts describe, they do not tell variants apart. */
export const MAX_OPTION_TEXT = 255;

/** The key and name of the option a master gets when its variants differ in no feature. */
export const SKU_OPTION = { key: 'sku', name: 'SKU' } as const;

/** One option of a master: a defining feature (or the SKU) and each variant's value of it. */
export interface VariantOption {
  /** The feature's key (`NodeFeature.key`), or `sku`. */
  key: string;
  /** Unique within the master: a name two defining features share gets the code: `Colour (EF000007)`. */
  name: string;
  /** The feature on the first variant (its source, group, code, unit); null for the SKU option. */
  feature: NodeFeature | null;
  /** Per variant, in the master's order: its value (a feature's values joined with `, `). */
  values: string[];
}

export interface VariantOptions {
  /** True when the options are the SKU fallback. */
  bySku: boolean;
  /** Empty for a master without variants. */
  options: VariantOption[];
}

/**
 * The options a master's variants are told apart by (docs/shops.md "Variants"). A feature the
 * mapping sends is variant-defining when every variant has it, no value is longer than
 * `MAX_OPTION_TEXT`, and its values are not all the same. The defining features, in the order
 * of the first variant's features and at most `max` of them (an engine's limit: Shopify 3),
 * are the options when their values together tell every variant apart; otherwise (none, or
 * two variants with the same combination) the master gets one option `SKU` whose values are
 * the variants' SKUs. A master without variants has no options.
 */
export function variantOptions(
  product: Product,
  mapping: TargetMapping,
  limits: { max?: number } = {},
): VariantOptions {
  const variants = product.variants;
  if (variants.length === 0) return { bySku: false, options: [] };
  const perVariant = variants.map((variant) => {
    const byKey = new Map<string, { feature: NodeFeature; texts: string[] }>();
    for (const feature of nodeFeatures(variant, mapping)) {
      const entry = byKey.get(feature.key) ?? { feature, texts: [] };
      entry.texts.push(feature.text);
      byKey.set(feature.key, entry);
    }
    return new Map([...byKey].map(([key, entry]) => [key, { feature: entry.feature, text: entry.texts.join(', ') }]));
  });
  const first = perVariant[0] as (typeof perVariant)[number];
  const defining = [...first.keys()]
    .filter((key) => perVariant.every((features) => features.has(key)))
    .filter((key) => perVariant.every((features) => (features.get(key)?.text.length ?? 0) <= MAX_OPTION_TEXT))
    .filter((key) => new Set(perVariant.map((features) => features.get(key)?.text)).size > 1)
    .slice(0, limits.max ?? Number.POSITIVE_INFINITY);
  const combos = new Set(perVariant.map((features) => JSON.stringify(defining.map((key) => features.get(key)?.text))));
  if (defining.length === 0 || combos.size < variants.length) {
    return { bySku: true, options: [{ ...SKU_OPTION, feature: null, values: variants.map((v) => v.sku) }] };
  }
  const names = new Map<string, number>();
  for (const key of defining) {
    const name = first.get(key)?.feature.name as string;
    names.set(name, (names.get(name) ?? 0) + 1);
  }
  const options = defining.map((key) => {
    const feature = first.get(key)?.feature as NodeFeature;
    const shared = (names.get(feature.name) ?? 0) > 1;
    return {
      key,
      name: shared ? `${feature.name} (${feature.code})` : feature.name,
      feature,
      values: perVariant.map((features) => features.get(key)?.text as string),
    };
  });
  return { bySku: false, options };
}
