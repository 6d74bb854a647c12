import type { AggregateMedia, ProductAggregate, ProductNode } from '../../model/product-aggregate';
import type { ExportWarnings } from '../export-warnings';
import { featureBlocks, type FeatureBlock } from './feature-blocks';
import type { BmecatPlan } from './plan';
import { fitIdentifier } from './xml-text';
import type { ProductStatus } from '../../kernel/product-status';
import { isDefaultRow, type PriceOut, priceList, type StoredPrice } from '../../model/price-list';
import { planLanguages, textIn } from './localized-out';

/**
 * A node's own price list for export, or null when it has none. A `price` set by SetValue on a
 * list that has no default row (all prices on request) is written first with the template's
 * price type, so the default net price is never lost.
 */
function ownPrices(price: string | null, rows: StoredPrice[], plan: BmecatPlan): PriceOut[] | null {
  if (rows.length === 0) return null;
  const list = priceList(rows, price);
  if (price && !rows.some(isDefaultRow))
    list.unshift({
      type: plan.priceType,
      amount: price,
      currency: plan.currency,
      tax: null,
      factor: null,
      lowerBound: null,
      territory: [],
      validFrom: null,
      validTo: null,
      daily: false,
      base: null,
    });
  return list;
}
import type { StoredFeatureBlock } from '../../model/feature-block-types';

/** SUPPLIER_PID / SUPPLIER_AID are at most 32 characters in every BMEcat schema. */
const PID_MAX = 32;

/** One PRODUCT (or ARTICLE) as every BMEcat dialect writes it: fields after inheritance, ids fitted. */
export interface ProductView {
  pid: string;
  /** SUPPLIER_PID of the master, for a variant. */
  masterPid: string | null;
  /** Label for warnings: the SKU as stored, else the product id. */
  subject: string;
  /** Texts in the file's default language (`texts[0]`: what one-language dialects write). */
  name: string | null;
  description: string | null;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerPid: string | null;
  unit: string | null;
  price: string | null;
  /** The currency `price` is in when its price-list row names one (an import's foreign currency), else null: the catalog's. */
  priceCurrency: string | null;
  priceQuantity: number | null;
  /** Order details beyond the unit (docs/data-model.md "Order details"); null: BMEcat's default. */
  contentUnit: string | null;
  contentPerUnit: string | null;
  quantityMin: string | null;
  quantityInterval: string | null;
  keywords: string | null;
  deliveryTimeDays: number | null;
  status: ProductStatus;
  blocks: FeatureBlock[];
  media: AggregateMedia[];
  categoryIds: string[];
  /** The price list (a variant without a list and without a price inherits its master's when the template says so); empty: `price` only. */
  prices: PriceOut[];
  /**
   * Outgoing references in order, the target as SUPPLIER_PID (its SKU fitted like any PID); a
   * reference by manufacturer number (`mpn`, as written) gives the SKU of the product it resolved
   * to, or the number itself while pending.
   */
  references: {
    type: string;
    pid: string;
    mpn?: string;
    quantity: number | null;
    descr?: string;
    targetCatalog?: string;
    targetCatalogVersion?: string;
  }[];
  /** BMEcat 2005: the formulas its prices name that the file's FORMULAS define (set per page by the exporter). */
  definedFormulas?: ReadonlySet<string>;
  /** The product's kept USER_DEFINED_EXTENSIONS (verbatim XML); null when none or the template drops them. */
  udx: string | null;
  /** Feature blocks of other systems, the node's own (a variant does not inherit them). */
  otherBlocks: StoredFeatureBlock[];
  /** Name, description and keywords in each language of the file, its default first (localized-out.ts). */
  texts: ViewTexts[];
  /**
   * Where the node's other translated texts are looked up (feature details): its own
   * translations, then its master's when it inherits.
   */
  translationSources: (ProductNode['translations'] | undefined)[];
}

export interface ViewTexts {
  language: string;
  name: string | null;
  description: string | null;
  keywords: string | null;
}

/**
 * The SUPPLIER_PID of a product: its SKU when that fits; a product without SKU gets its id
 * without dashes (exactly 32 hex digits); a longer SKU keeps a prefix plus a hash (reported).
 */
export function supplierPid(product: { id: string; sku: string | null }): { pid: string; changed: boolean } {
  if (!product.sku || product.sku.trim() === '') return { pid: product.id.replace(/-/g, ''), changed: false };
  const { id, changed } = fitIdentifier(product.sku, PID_MAX);
  return { pid: id, changed };
}

function view(
  node: ProductNode,
  master: ProductView | null,
  aggregate: ProductAggregate,
  plan: BmecatPlan,
  warnings: ExportWarnings,
): ProductView {
  const p = node.product;
  const subject = p.sku ?? p.id;
  const { pid, changed } = supplierPid(p);
  if (changed)
    warnings.add(
      `SKU longer than ${PID_MAX} characters or with control characters: SUPPLIER_PID shortened with a hash suffix`,
      subject,
    );
  const inherit = master !== null && plan.inheritFromMaster;
  const pick = <T>(own: T | null, fromMaster: T | null): T | null =>
    own !== null && own !== '' ? own : inherit ? fromMaster : own;
  const m = master;
  // Each language inherits from the master's text in the same language, never from another.
  const texts: ViewTexts[] = planLanguages(plan).map((language, i) => {
    const from = m?.texts[i];
    const own = (column: string | null, field: string) => textIn(plan, language, column, node.translations, field);
    return {
      language,
      name: pick(own(p.name, 'name'), from?.name ?? null),
      description: pick(own(p.description, 'description'), from?.description ?? null),
      keywords: pick(own(p.keywords, 'keywords'), from?.keywords ?? null),
    };
  });
  return {
    pid,
    masterPid: m?.pid ?? null,
    subject,
    texts,
    name: texts[0]!.name,
    description: texts[0]!.description,
    gtin: p.gtin,
    manufacturerName: pick(p.manufacturerName, m?.manufacturerName ?? null),
    manufacturerPid: p.manufacturerPid,
    unit: pick(p.unit, m?.unit ?? null),
    price: pick(p.price, m?.price ?? null),
    priceCurrency: p.price
      ? ((node.prices ?? []).find(isDefaultRow)?.currency ?? null)
      : inherit
        ? (m?.priceCurrency ?? null)
        : null,
    priceQuantity: pick(p.priceQuantity, m?.priceQuantity ?? null),
    contentUnit: pick(p.contentUnit, m?.contentUnit ?? null),
    contentPerUnit: pick(p.contentPerUnit, m?.contentPerUnit ?? null),
    quantityMin: pick(p.quantityMin, m?.quantityMin ?? null),
    quantityInterval: pick(p.quantityInterval, m?.quantityInterval ?? null),
    keywords: texts[0]!.keywords,
    deliveryTimeDays: pick(p.deliveryTimeDays, m?.deliveryTimeDays ?? null),
    status: p.status,
    blocks: featureBlocks(node, inherit ? aggregate : null, plan, subject, warnings),
    media: node.media.length > 0 || !inherit ? node.media : aggregate.media,
    categoryIds: aggregate.categoryIds,
    // A variant with a price of its own writes it (as its one price when it has no list): the
    // master's list is inherited only by a variant that leaves its price empty.
    prices: ownPrices(p.price, node.prices ?? [], plan) ?? (inherit && m && !p.price ? m.prices : []),
    references: node.references.map((r) => ({
      type: r.type,
      pid: supplierPid({ id: '', sku: r.targetKind === 'mpn' ? (r.resolvedSku ?? r.targetSku) : r.targetSku }).pid,
      ...(r.targetKind === 'mpn' ? { mpn: r.targetSku } : {}),
      quantity: r.quantity,
      descr: r.descr,
      targetCatalog: r.targetCatalog,
      targetCatalogVersion: r.targetCatalogVersion,
    })),
    udx: plan.dropUdx ? null : (node.udx ?? null),
    otherBlocks: node.featureBlocks ?? [],
    translationSources: inherit ? [node.translations, aggregate.translations] : [node.translations],
  };
}

/** Whether the template writes a variant of a written master: its status, and created before the export started. */
export const variantWritten = (variant: ProductNode, plan: BmecatPlan) =>
  plan.statuses.includes(variant.product.status) && variant.product.createdAt <= plan.snapshot;

/**
 * The PRODUCTs one master writes: the master, then its variants (ordered by SKU). A master
 * whose status the template leaves out takes its variants with it, so no variant points to a
 * base product that is not in the file. Variants created after the export started are left
 * out, like products, so the file is one consistent cut of the catalog.
 */
export function productViews(aggregate: ProductAggregate, plan: BmecatPlan, warnings: ExportWarnings): ProductView[] {
  if (!plan.statuses.includes(aggregate.product.status)) return [];
  const master = view(aggregate, null, aggregate, plan, warnings);
  const out = [master];
  for (const variant of aggregate.variants) {
    if (!variantWritten(variant, plan)) continue;
    out.push(view(variant, master, aggregate, plan, warnings));
  }
  return out;
}
