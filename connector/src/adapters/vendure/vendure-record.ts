import type { Product, Variant } from '../../../../src/sync/protocol/wire';
import { type NodeFeature, nodeFeatures, variantOptions } from '../common/features';
import { orderDetailsOf } from '../common/order-details';
import { amountIn, shopPrice } from '../common/prices';
import { codeOf, shortHash, slugify } from '../common/slug';
import { textIn } from '../common/texts';
import type { TargetMapping } from '../target-adapter';

/**
 * The PIM record in Vendure's terms, without any request: texts per Vendure language, slugs,
 * the channel price, the facet values a node carries, the option groups. The rules every
 * engine shares (features, variant options, prices, images, texts) are in adapters/common;
 * every code made here is a pure function of the record, so a second run finds what the
 * first created.
 */

export type Node = Product | Variant;

/** A facet value a node carries: the facet by code and name, the value by code and name. */
export interface FacetValueRef {
  facetCode: string;
  facetName: string;
  code: string;
  name: string;
}

/** Stable and unique per language: the name (for the shop's URLs) and the SKU (for uniqueness). */
export function productSlug(name: string, sku: string): string {
  const stem = slugify(name).slice(0, 80).replace(/-+$/, '');
  return stem ? `${stem}-${slugify(sku) || shortHash(sku)}` : slugify(sku) || shortHash(sku);
}

/** A node's text in one PIM language; the default language's text where it has no translation. */
export function textOf(node: Node, field: 'name' | 'description', language: string, mapping: TargetMapping): string {
  return textIn(node, field, language, mapping) ?? textIn(node, field, mapping.defaultLanguage, mapping) ?? '';
}

/**
 * The channel price in minor units (adapters/common/prices.ts: Vendure core has no quantity
 * tiers, so the price for quantity 1), with tax at the tax category's rate when the shop shows
 * prices with tax. Null when the node has no price.
 */
export function channelPrice(node: Node, mapping: TargetMapping, taxRate: number | null): number | null {
  const amount = shopPrice(node, mapping, taxRate);
  if (amount === null) return null;
  // Vendure keeps whole cents: rounded half up as text, so 21.15701 is 2116 and 1.005 is 101.
  const [whole = '0', fraction = ''] = amountIn(amount, 2).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function valueRef(facetCode: string, facetName: string, name: string): FacetValueRef {
  const code = `${slugify(name).slice(0, 40) || 'v'}-${shortHash(`${facetCode}\u0000${name}`)}`;
  return { facetCode, facetName, code, name };
}

/** Longest text that becomes a facet value; longer attribute texts are descriptions, not filters. */
const FACET_VALUE_MAX = 255;

/** The facet of a feature: `pim-<code>` (classification), `pim-attr-<code>` (values), `pim-<system>-<code>` (blocks). */
export function facetCodeOf(feature: NodeFeature): string {
  if (feature.source === 'classification') return `pim-${slugify(feature.code)}`;
  if (feature.source === 'value') return `pim-attr-${slugify(feature.code)}`;
  return `pim-${slugify(feature.group)}-${slugify(feature.code)}`;
}

/**
 * The facet values of one node's features (adapters/common/features.ts), without the features
 * in `exclude` (by key: the node's option groups) and without texts too long to filter by.
 */
export function featureValues(
  node: Node,
  mapping: TargetMapping,
  exclude: ReadonlySet<string> = new Set(),
): FacetValueRef[] {
  return nodeFeatures(node, mapping)
    .filter((f) => !exclude.has(f.key) && f.text.length <= FACET_VALUE_MAX)
    .map((f) => valueRef(facetCodeOf(f), f.name, f.text));
}

/** The facet value that puts a product into the collection of one category path. */
export function categoryValue(path: string[]): FacetValueRef {
  return {
    facetCode: 'pim-category',
    facetName: 'Category',
    code: `${slugify(path.at(-1) ?? '').slice(0, 40) || 'c'}-${shortHash(path.join('\u0000'))}`,
    name: path.join(' / ').slice(0, FACET_VALUE_MAX),
  };
}

export function unitValue(unit: string): FacetValueRef {
  return { facetCode: 'pim-unit', facetName: 'Unit', code: slugify(unit) || shortHash(unit), name: unit };
}

const ORDER_FACETS = {
  contentUnit: ['pim-content-unit', 'Content unit'],
  contentPerUnit: ['pim-content-per-unit', 'Content per order unit'],
  quantityMin: ['pim-quantity-min', 'Minimum order quantity'],
  quantityInterval: ['pim-quantity-interval', 'Order quantity step'],
} as const;

/**
 * The order details in effect for a node (its own, else its master's) as facet values, as the
 * order unit is (`pim-unit`): Vendure core has no minimum, step or content unit, and a custom
 * field would need the shop's config changed (docs/shops.md "Order details"). The value is the
 * text as the PIM keeps it (`2.5`), never rounded; unset ones are left out, so the facet values
 * written whole on each update lose a cleared one.
 */
export function orderValues(node: Node, master: Product): FacetValueRef[] {
  const details = orderDetailsOf(node, master, 'product');
  return (Object.keys(ORDER_FACETS) as (keyof typeof ORDER_FACETS)[]).flatMap((name) => {
    const detail = details[name];
    if (!detail) return [];
    const [facetCode, facetName] = ORDER_FACETS[name];
    return [valueRef(facetCode, facetName, detail.value)];
  });
}

/** One option group of a product: a variant-defining feature, or the SKU itself. */
export interface OptionGroupPlan {
  code: string;
  /** The feature's key (adapters/common/features.ts) the group stands for; null for the SKU group. */
  feature: string | null;
  name: string;
  /** Variant SKU -> the option (code, name). */
  options: Map<string, { code: string; name: string }>;
}

/**
 * The option groups: the shared rule (docs/shops.md "Variants"): the variant-defining
 * features, else one group `pim-sku` whose options are the variants' SKUs. A product without
 * variants has none (its one Vendure variant is the master).
 */
export function optionGroups(product: Product, mapping: TargetMapping): OptionGroupPlan[] {
  return variantOptions(product, mapping).options.map((option) => ({
    code: option.feature ? facetCodeOf(option.feature) : 'pim-sku',
    feature: option.feature ? option.key : null,
    name: option.name,
    options: new Map(product.variants.map((v, i) => [v.sku, optionOf(option.values[i] as string)])),
  }));
}

function optionOf(name: string) {
  return { code: codeOf(name, 40, 'o'), name };
}

/** The facet values one record needs: the product's (features, categories, unit) and each variant's own. */
export interface RecordRefs {
  plans: OptionGroupPlan[];
  product: FacetValueRef[];
  /** Variant SKU -> its facet values (without the option groups' features). */
  variants: Map<string, FacetValueRef[]>;
}

export function recordRefs(sku: string, product: Product, mapping: TargetMapping): RecordRefs {
  const plans = optionGroups(product, mapping);
  const defining = new Set(plans.flatMap((p) => (p.feature === null ? [] : [p.feature])));
  const refs: FacetValueRef[] = [
    ...featureValues(product, mapping),
    ...product.categories.map((c) => categoryValue(c.path)),
  ];
  if (product.unitId) refs.push(unitValue(product.unitId));
  refs.push(...orderValues(product, product));
  const nodes = product.variants.length > 0 ? product.variants : [{ ...product, sku }];
  const variants = new Map(
    nodes.map((v) => [
      v.sku,
      product.variants.length ? [...featureValues(v, mapping, defining), ...orderValues(v, product)] : [],
    ]),
  );
  return { plans, product: refs, variants };
}
