import { type MediaRef, type Product, roundDecimal, type Variant } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';

/**
 * The PIM record in Vendure's terms, without any request: texts per Vendure language, slugs,
 * the channel price, the facet values a node carries, the variant-defining features. Every code
 * made here is a pure function of the record, so a second run finds what the first created.
 */

export type Node = Product | Variant;

/** A facet value a node carries: the facet by code and name, the value by code and name. */
export interface FacetValueRef {
  facetCode: string;
  facetName: string;
  code: string;
  name: string;
}

/** A short, stable hash (FNV-1a, 2 x 32 bits) for codes: deterministic, no crypto needed. */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0').slice(0, 4);
}

export function slugify(text: string): string {
  return text
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Stable and unique per language: the name (for the shop's URLs) and the SKU (for uniqueness). */
export function productSlug(name: string, sku: string): string {
  const stem = slugify(name).slice(0, 80).replace(/-+$/, '');
  return stem ? `${stem}-${slugify(sku) || shortHash(sku)}` : slugify(sku) || shortHash(sku);
}

/** The PIM languages sent and their Vendure codes, the default language first. */
export function languagePairs(mapping: TargetMapping): [string, string][] {
  const pairs = Object.entries(mapping.languages);
  return pairs.sort(([a], [b]) => Number(b === mapping.defaultLanguage) - Number(a === mapping.defaultLanguage));
}

/** A node's text in one PIM language; the default language's text where it has no translation. */
export function textIn(node: Node, field: 'name' | 'description', language: string, mapping: TargetMapping): string {
  const own = node[field] ?? '';
  if (language === mapping.defaultLanguage) return own;
  return node.translations?.[language]?.[field] ?? own;
}

/**
 * The channel price in minor units: the mapped price type in the mapped currency, its lowest
 * tier (Vendure core has no quantity tiers), else the record's `price`; with tax when the shop
 * shows prices with tax. Null when the node has no price.
 */
export function channelPrice(node: Node, mapping: TargetMapping, taxRate: number | null): number | null {
  const candidates = (node.prices ?? []).filter(
    (p) =>
      p.type === mapping.priceType && p.amount !== null && (p.currency === null || p.currency === mapping.currency),
  );
  candidates.sort((a, b) => Number(a.lowerBound ?? 0) - Number(b.lowerBound ?? 0));
  const amount = candidates[0]?.amount ?? node.price;
  if (amount === null || amount === undefined) return null;
  if (!mapping.pricesIncludeTax || taxRate === null) return minorUnits(amount);
  return minorUnits((Number(amount) * (1 + taxRate / 100)).toFixed(12));
}

/**
 * Vendure keeps money as whole minor units (cents): the amount rounded half up to 2 decimals as
 * text, so `21.15701` is 2116 and `1.005` is 101 (a float gives 100) (docs/shops.md, "Amounts").
 */
function minorUnits(amount: string): number {
  const [whole = '0', fraction = ''] = roundDecimal(amount, 2).split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function valueRef(facetCode: string, facetName: string, name: string): FacetValueRef {
  const code = `${slugify(name).slice(0, 40) || 'v'}-${shortHash(`${facetCode}\u0000${name}`)}`;
  return { facetCode, facetName, code, name };
}

/** Longest text that becomes a facet value; longer attribute texts are descriptions, not filters. */
const FACET_VALUE_MAX = 255;

/** The facet values of one node's features (classification, attribute values, feature blocks) per mapping. */
export function featureValues(
  node: Node,
  mapping: TargetMapping,
  exclude: ReadonlySet<string> = new Set(),
): FacetValueRef[] {
  const refs: FacetValueRef[] = [];
  if (mapping.features.classification) {
    for (const f of node.classification?.features ?? []) {
      if (exclude.has(f.code)) continue;
      refs.push(valueRef(`pim-${slugify(f.code)}`, f.name ?? f.code, featureText(f.value, f.unit)));
    }
  }
  const sendValues = mapping.features.values;
  for (const [code, value] of Object.entries(node.values)) {
    if (sendValues === false || (Array.isArray(sendValues) && !sendValues.includes(code))) continue;
    if (value.trim() === '' || value.length > FACET_VALUE_MAX) continue;
    refs.push(valueRef(`pim-attr-${slugify(code)}`, code, value));
  }
  for (const block of node.featureBlocks ?? []) {
    if (!mapping.features.featureBlocks.includes(block.system)) continue;
    for (const f of block.features) {
      const key = f.ftId ?? f.fid ?? f.name;
      if (!key) continue;
      for (const value of f.values ?? []) {
        if (value.trim() === '' || value.length > FACET_VALUE_MAX) continue;
        const facetCode = `pim-${slugify(block.system)}-${slugify(key)}`;
        refs.push(valueRef(facetCode, f.ftName ?? f.name ?? key, featureText(value, f.unit ?? null)));
      }
    }
  }
  return refs;
}

export function featureText(value: string, unit: string | null): string {
  return unit ? `${value} ${unit}` : value;
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

/** One option group of a product: a variant-defining feature, or the SKU itself. */
export interface OptionGroupPlan {
  code: string;
  /** The classification feature the group stands for; null for the SKU group. */
  feature: string | null;
  name: string;
  /** Variant SKU -> the option (code, name). */
  options: Map<string, { code: string; name: string }>;
}

/**
 * The option groups: the classification features whose values differ between the variants,
 * else one group whose options are the variants' SKUs. A product without variants has none
 * (its one Vendure variant is the master).
 */
export function optionGroups(product: Product): OptionGroupPlan[] {
  const variants = product.variants;
  if (variants.length === 0) return [];
  const codes = new Map<string, string>();
  for (const v of variants) for (const f of v.classification?.features ?? []) codes.set(f.code, f.name ?? f.code);
  const groups: OptionGroupPlan[] = [];
  for (const [code, name] of codes) {
    const texts = variants.map((v) => {
      const f = v.classification?.features.find((x) => x.code === code);
      return f ? featureText(f.value, f.unit) : '-';
    });
    if (new Set(texts).size < 2) continue;
    const options = new Map(variants.map((v, i) => [v.sku, optionOf(texts[i] ?? '-')]));
    groups.push({ code: `pim-${slugify(code)}`, feature: code, name, options });
  }
  const combos = new Set(variants.map((v) => groups.map((g) => g.options.get(v.sku)?.code).join('|')));
  if (groups.length > 0 && combos.size === variants.length) return groups;
  return [
    { code: 'pim-sku', feature: null, name: 'SKU', options: new Map(variants.map((v) => [v.sku, optionOf(v.sku)])) },
  ];
}

function optionOf(name: string) {
  return { code: `${slugify(name).slice(0, 40) || 'o'}-${shortHash(name)}`, name };
}

/** The images of a node, in their order, per the mapping's purposes. */
export function imagesOf(node: Node, mapping: TargetMapping): MediaRef[] {
  const images = node.media.filter(
    (m) => mapping.imagePurposes.length === 0 || mapping.imagePurposes.includes(m.purpose),
  );
  return images.sort((a, b) => a.position - b.position);
}
