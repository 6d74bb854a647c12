import { type MediaRef, type Product, roundDecimal, type Variant } from '../../../../src/sync/protocol/wire';
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

/** The option a master gets when its variants differ in no feature (docs/shops.md). */
export const SKU_OPTION = 'SKU';

type Node = Product | Variant;
interface Feature {
  key: string;
  name: string;
  value: string;
  unit: string | null;
}

/** A handle Medusa accepts, derived from the SKU alone so a second run finds the same one. */
export function handleOf(sku: string): string {
  const slug = sku
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'pim-product';
}

function featuresOf(node: Node, mapping: TargetMapping): Feature[] {
  const out: Feature[] = [];
  if (mapping.features.classification) {
    for (const f of node.classification?.features ?? []) {
      out.push({ key: `${f.group}:${f.code}`, name: f.name ?? f.code, value: f.value, unit: f.unit });
    }
  }
  const wanted = mapping.features.values;
  for (const [code, value] of Object.entries(node.values)) {
    if (wanted === true || (Array.isArray(wanted) && wanted.includes(code))) {
      out.push({ key: `values:${code}`, name: code, value, unit: null });
    }
  }
  return out;
}

const shown = (f: Feature) => (f.unit ? `${f.value} ${f.unit}` : f.value);

/** Options from the features whose values differ between the variants; one `SKU` option otherwise. */
function optionsOf(product: Product, skus: string[], nodes: Node[], mapping: TargetMapping) {
  const perVariant = nodes.map((n) => new Map(featuresOf(n, mapping).map((f) => [f.key, f])));
  const keys = [...new Set(perVariant.flatMap((m) => [...m.keys()]))].sort();
  const defining = keys.filter(
    (k) => new Set(perVariant.map((m) => (m.get(k) ? shown(m.get(k) as Feature) : ''))).size > 1,
  );
  const titles = new Map<string, string>();
  for (const key of defining) {
    const name = perVariant.find((m) => m.has(key))?.get(key)?.name ?? key;
    titles.set(key, [...titles.values()].includes(name) ? `${name} (${key})` : name);
  }
  const combos = perVariant.map((m) =>
    Object.fromEntries(defining.map((k) => [titles.get(k) as string, m.get(k) ? shown(m.get(k) as Feature) : '-'])),
  );
  const unique = new Set(combos.map((c) => JSON.stringify(c))).size === combos.length;
  if (defining.length === 0 || !unique || product.variants.length === 0) {
    return {
      options: [{ title: SKU_OPTION, values: skus }],
      combos: skus.map((sku) => ({ [SKU_OPTION]: sku })),
    };
  }
  const options = defining.map((k) => {
    const title = titles.get(k) as string;
    return { title, values: [...new Set(combos.map((c) => c[title] as string))] };
  });
  return { options, combos };
}

/**
 * An amount to 6 decimals, half up: the PIM keeps up to 20 (`21.15701` per piece); Medusa keeps
 * numbers, and a computed amount (a factor, a gross price) would carry float noise
 * (docs/shops.md, "Amounts").
 */
function round(n: number): number {
  return Number(roundDecimal(n.toFixed(12), 6));
}

/** The shop prices of a node: the mapping's price type per currency, tiers by lower bound; the master's when the node has none. */
export function pricesOf(node: Node, master: Product, mapping: TargetMapping): MedusaPrice[] {
  const list = (node.prices?.length ? node.prices : master.prices) ?? [];
  const chosen = mapping.priceType ? list.filter((p) => p.type === mapping.priceType && p.amount !== null) : [];
  const out: MedusaPrice[] = [];
  const seen = new Set<string>();
  for (const p of chosen) {
    const currency = (p.currency ?? mapping.currency).toLowerCase();
    const min = p.lowerBound && Number(p.lowerBound) > 1 ? Number(p.lowerBound) : undefined;
    const key = `${currency}:${min ?? 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    let amount = Number(p.amount) * (p.factor ? Number(p.factor) : 1);
    if (mapping.pricesIncludeTax && p.tax) {
      const rate = Number(p.tax);
      amount *= 1 + (rate < 1 ? rate : rate / 100);
    }
    out.push({ currency_code: currency, amount: round(amount), ...(min ? { min_quantity: min } : {}) });
  }
  const single = node.price ?? master.price;
  if (out.length === 0 && single !== null)
    out.push({ currency_code: mapping.currency.toLowerCase(), amount: round(Number(single)) });
  return out;
}

function compact(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0)),
  );
}

function metadataOf(node: Node, mapping: TargetMapping): Record<string, unknown> {
  const blocks = (node.featureBlocks ?? []).filter((b) => mapping.features.featureBlocks.includes(b.system));
  return compact({
    pim_features: featuresOf(node, mapping).map(({ name, value, unit }) =>
      unit ? { name, value, unit } : { name, value },
    ),
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

function translationsOf(node: Node, mapping: TargetMapping, fields: Record<string, string>) {
  const out: Record<string, Record<string, string>> = {};
  for (const [language, locale] of Object.entries(mapping.languages)) {
    if (language === mapping.defaultLanguage) continue;
    const texts = node.translations?.[language];
    if (!texts) continue;
    const row: Record<string, string> = {};
    for (const [pim, medusa] of Object.entries(fields)) if (texts[pim]) row[medusa] = texts[pim];
    if (Object.keys(row).length > 0) out[locale] = row;
  }
  return out;
}

export function isImage(ref: MediaRef, mapping: TargetMapping): boolean {
  return mapping.imagePurposes.length > 0
    ? mapping.imagePurposes.includes(ref.purpose)
    : ref.contentType.startsWith('image/');
}

export function desiredProduct(sku: string, product: Product, mapping: TargetMapping): DesiredProduct {
  const nodes: Node[] = product.variants.length > 0 ? product.variants : [product];
  const skus = product.variants.length > 0 ? product.variants.map((v) => v.sku) : [sku];
  const { options, combos } = optionsOf(product, skus, nodes, mapping);
  const variants = nodes.map((node, i) => ({
    sku: skus[i] as string,
    title: node.name ?? (skus[i] as string),
    ean: node.gtin,
    options: combos[i] as Record<string, string>,
    prices: pricesOf(node, product, mapping),
    metadata: node === product ? {} : metadataOf(node, mapping),
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
    metadata: { pim_sku: sku, ...metadataOf(product, mapping) },
    translations: translationsOf(product, mapping, { name: 'title', description: 'description' }),
    images: product.media.filter((m) => isImage(m, mapping)).sort((a, b) => a.position - b.position),
    categories: product.categories,
  };
}
