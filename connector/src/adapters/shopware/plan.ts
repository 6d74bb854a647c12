import type { MediaRef, Product, Variant } from '../../../../src/sync/protocol/wire';
import type { TargetMapping } from '../target-adapter';
import { type CategoryImage, CategoryImageRefused, categoryImage } from '../common/category-image';
import { imagesFor } from '../common/images';
import { priceTiers } from '../common/prices';
import { textIn } from '../common/texts';
import { configuratorOptions, type FeatureValue, shopwareFeatures } from './features';
import { shopwareId } from './ids';
import { planReferences } from './references';
import { orderFields } from './order-details';
import { OrderDetailRefused } from '../common/order-details';

/**
 * One record as Shopware Sync API items: the entities to upsert (product, child products,
 * properties, categories, media, advanced prices, configurator settings, the mapping rows that
 * link them) and, per entity the product owns, the keys it holds, so that what the previous
 * write held and this one does not is deleted (`removals`). Ids are derived (ids.ts), so the
 * plan of the previous product names exactly what the shop holds from it.
 */
export interface SyncItem {
  /** The Sync operation it goes into (entity and action; `product-cover` is a second product upsert). */
  op: OpName;
  payload: Record<string, unknown>;
  /** The record field a refusal of this item is reported on (`product`, `product.variants.2`). */
  field: string;
}

export type OpName =
  | 'media'
  | 'property_group'
  | 'property_group_option'
  | 'category'
  | 'product'
  | 'product_price'
  | 'product_media'
  | 'product_configurator_setting'
  | 'product_category'
  | 'product_property'
  | 'product_option'
  | 'product_translation'
  | 'product_cross_selling'
  | 'product_cross_selling_assigned_products'
  | 'product-cover';

/** Entities a product owns: removed from the shop when the record no longer carries them. */
export const OWNED = [
  'product',
  'product_price',
  'product_media',
  'product_configurator_setting',
  'product_category',
  'product_property',
  'product_option',
  'product_translation',
  'product_cross_selling',
  'product_cross_selling_assigned_products',
] as const;
export type OwnedEntity = (typeof OWNED)[number];

export interface PlanContext {
  mapping: TargetMapping;
  /** PIM language -> Shopware language id, for the mapped languages the shop has. */
  languageIds: Map<string, string>;
  /** The PIM language whose texts go into the shop's system language (top-level fields). */
  topLanguage: string;
  currencyId: string;
  taxRates: Map<string, number>;
  /** The rule advanced prices hang on; null until the first product with tiers needs it. */
  ruleId: () => Promise<string>;
  /** The shop's unit id of a UN/ECE Rec. 20 code (a content unit); undefined when it has none. */
  unitIdOf: (code: string) => Promise<string | undefined>;
  /** Product ids the shop already holds (stock is only set when a product is created). */
  exists: (productId: string) => boolean;
  /** The shop's product id of a referenced SKU in the mirror (references.ts); absent: derived. */
  referencedId?: (sku: string) => string | undefined;
  /** The connector's SSRF rule for category picture links (`WriteContext.refusedUrl`). */
  refusedUrl: (url: string) => string | null;
  /**
   * The content hash of a category picture's URL (read before planning, pictures.ts), or the
   * plain reason it could not be read. Absent: category pictures are left out of the plan (the
   * plan of a record's previous product, read only for what it owned).
   */
  pictureSha?: (url: string) => string | Error;
}

export interface RecordPlan {
  items: SyncItem[];
  /** Owned entity -> key -> the delete payload. */
  owned: Map<OwnedEntity, Map<string, Record<string, unknown>>>;
  productId: string;
  variants: Record<string, string>;
  /** Images: content hash -> media id, with the ref to upload from. */
  media: Map<string, { mediaId: string; ref: MediaRef; field: string }>;
  /** Category pictures: media id (from the bytes' hash) -> the picture and its hash. */
  categoryMedia: Map<string, CategoryImage & { sha256: string }>;
}

export class PlanError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** True when the same record may pass later (a picture that could not be read now). */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** An order detail Shopware cannot take (order-details.ts) fails the record on its field. */
function asPlanError(err: unknown): never {
  throw err instanceof OrderDetailRefused ? new PlanError(err.field, err.message) : err;
}

/**
 * The media of a category's picture (common/category-image.ts): its id derived from the hash of
 * the bytes behind the link's URL (read before planning, pictures.ts), as a product image's is
 * from its content hash, so every category and product showing those bytes shares one media
 * entity, uploaded once (media.ts). The category's alt text is the media's (a product image sets
 * none). Null when the category has no picture; undefined (left as it is) without `pictureSha`.
 */
async function planCategoryImage(
  plan: RecordPlan,
  ref: Product['categories'][number],
  index: number,
  ctx: PlanContext,
): Promise<string | null | undefined> {
  let image: CategoryImage | null;
  try {
    image = categoryImage(ref, index, ctx.mapping, ctx.refusedUrl);
  } catch (err) {
    if (err instanceof CategoryImageRefused) throw new PlanError(err.field, err.message);
    throw err;
  }
  if (!image) return null;
  if (!ctx.pictureSha) return undefined;
  const sha256 = ctx.pictureSha(image.link.url);
  if (sha256 instanceof Error) throw new PlanError(image.field, sha256.message, true);
  const mediaId = await shopwareId('media', sha256);
  plan.items.push({ op: 'media', field: image.field, payload: { id: mediaId, alt: image.alt } });
  plan.categoryMedia.set(mediaId, { ...image, sha256 });
  return mediaId;
}

export async function planProduct(sku: string, product: Product, ctx: PlanContext): Promise<RecordPlan> {
  const plan: RecordPlan = {
    items: [],
    owned: new Map(OWNED.map((e) => [e, new Map()])),
    productId: await shopwareId('product', sku),
    variants: {},
    media: new Map(),
    categoryMedia: new Map(),
  };
  const own = (entity: OwnedEntity, key: string, payload: Record<string, unknown>) =>
    plan.owned.get(entity)?.set(key, payload);
  const taxId = product.taxId;
  if (!taxId)
    throw new PlanError('product.taxId', 'Shopware needs a tax for every product; the product has none mapped');
  const masterTiers = tiers(product, ctx.mapping);
  if (masterTiers.length === 0) throw new PlanError('product.price', 'Shopware needs a price; the product has none');

  await addNode(plan, ctx, {
    sku,
    node: product,
    master: product,
    field: 'product',
    parentId: null,
    taxId,
    tiers: masterTiers,
  });
  for (const [i, ref] of product.categories.entries()) {
    let parentId: string | null = null;
    for (let depth = 1; depth <= ref.path.length; depth++) {
      const id = await shopwareId('category', ...ref.path.slice(0, depth));
      // The placement's own category carries its picture (or none: unset); its parents' are left as they are.
      const mediaId = depth === ref.path.length ? await planCategoryImage(plan, ref, i, ctx) : undefined;
      const media = mediaId === undefined ? {} : { mediaId };
      plan.items.push({
        op: 'category',
        field: 'product.categories',
        payload: { id, ...(parentId ? { parentId } : {}), name: ref.path[depth - 1] as string, ...media },
      });
      parentId = id;
    }
    if (parentId) {
      const link = { productId: plan.productId, categoryId: parentId };
      plan.items.push({ op: 'product_category', field: 'product.categories', payload: link });
      own('product_category', `${link.productId}:${link.categoryId}`, link);
    }
  }

  if (ctx.mapping.references && product.references?.length) {
    const idOf = ctx.referencedId ?? (() => undefined);
    for (const item of await planReferences(sku, plan.productId, product.references, idOf)) {
      plan.items.push({ ...item, field: 'product.references' });
      own(item.op, item.payload.id as string, { id: item.payload.id });
    }
  }

  const options = configuratorOptions(product, ctx.mapping);
  const configured = new Set<string>();
  for (const [i, variant] of product.variants.entries()) {
    const field = `product.variants.${i}`;
    const childId = await addNode(plan, ctx, {
      sku: variant.sku,
      node: variant,
      master: product,
      field,
      parentId: plan.productId,
      taxId: variant.taxId ?? taxId,
      tiers: tiers(variant, ctx.mapping),
      fallbackTiers: masterTiers,
    });
    plan.variants[variant.sku] = childId;
    own('product', childId, { id: childId });
    for (const option of options.get(variant.sku) ?? []) {
      const optionId = await addOption(plan, option, field);
      const link = { productId: childId, optionId };
      plan.items.push({ op: 'product_option', field, payload: link });
      own('product_option', `${childId}:${optionId}`, link);
      if (!configured.has(optionId)) {
        configured.add(optionId);
        const id = await shopwareId('product_configurator_setting', sku, optionId);
        const setting = { id, productId: plan.productId, optionId, position: configured.size };
        plan.items.push({ op: 'product_configurator_setting', field, payload: setting });
        own('product_configurator_setting', id, { id });
      }
    }
  }
  return plan;
}

interface NodeInput {
  sku: string;
  node: Product | Variant;
  master: Product;
  field: string;
  parentId: string | null;
  taxId: string;
  tiers: Tier[];
  fallbackTiers?: Tier[];
}

async function addNode(plan: RecordPlan, ctx: PlanContext, input: NodeInput): Promise<string> {
  const { node, master, field } = input;
  const id = input.parentId ? await shopwareId('product', input.sku) : plan.productId;
  const own = (entity: OwnedEntity, key: string, payload: Record<string, unknown>) =>
    plan.owned.get(entity)?.set(key, payload);
  const rate = ctx.taxRates.get(input.taxId) ?? 0;
  const price = (net: number) => [
    { currencyId: ctx.currencyId, net: round(net), gross: round(net * (1 + rate / 100)), linked: true },
  ];
  const baseTiers = input.tiers.length > 0 ? input.tiers : (input.fallbackTiers ?? []);
  const top = texts(node, master, ctx.topLanguage, ctx.mapping);

  const translations: Record<string, Record<string, string | null>> = {};
  for (const [pimLanguage, languageId] of ctx.languageIds) {
    if (pimLanguage === ctx.topLanguage) continue;
    const t = texts(node, master, pimLanguage, ctx.mapping);
    if (t.name === null && t.description === null && t.keywords === null) continue;
    translations[languageId] = t;
    own('product_translation', `${id}:${languageId}`, { productId: id, languageId });
  }

  const payload: Record<string, unknown> = {
    id,
    ...(input.parentId ? { parentId: input.parentId } : {}),
    productNumber: input.sku,
    name: top.name ?? input.sku,
    description: top.description,
    keywords: top.keywords,
    ean: node.gtin,
    manufacturerNumber: node.manufacturerPid,
    manufacturerId: node.manufacturerId ?? (input.parentId ? master.manufacturerId : null),
    unitId: node.unitId ?? (input.parentId ? master.unitId : null),
    ...(await orderFields(node, master, field, ctx.unitIdOf).catch(asPlanError)),
    taxId: input.taxId,
    price: price((baseTiers[0] as Tier).net),
    active: node.status === 'active',
    customFields: { pim_sku: input.sku },
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...(ctx.exists(id) ? {} : { stock: 0 }),
  };
  plan.items.push({ op: 'product', field, payload });

  if (input.tiers.length > 1) {
    const ruleId = await ctx.ruleId();
    for (const [i, tier] of input.tiers.entries()) {
      const next = input.tiers[i + 1];
      const priceId = await shopwareId('product_price', input.sku, String(tier.start));
      const row = {
        id: priceId,
        productId: id,
        ruleId,
        quantityStart: tier.start,
        ...(next ? { quantityEnd: next.start - 1 } : {}),
        price: price(tier.net),
      };
      plan.items.push({ op: 'product_price', field: `${field}.prices`, payload: row });
      own('product_price', priceId, { id: priceId });
    }
  }

  const images = imagesFor(node, ctx.mapping);
  let coverId: string | null = null;
  for (const [i, image] of images.entries()) {
    const mediaId = await shopwareId('media', image.sha256);
    const productMediaId = await shopwareId('product_media', input.sku, image.sha256);
    plan.media.set(image.sha256, { mediaId, ref: image, field: `${field}.media.${i}` });
    plan.items.push({ op: 'media', field: `${field}.media.${i}`, payload: { id: mediaId } });
    plan.items.push({
      op: 'product_media',
      field: `${field}.media.${i}`,
      payload: { id: productMediaId, productId: id, mediaId, position: i },
    });
    own('product_media', productMediaId, { id: productMediaId });
    coverId ??= productMediaId;
  }
  if (coverId) plan.items.push({ op: 'product-cover', field: `${field}.media`, payload: { id, coverId } });

  const variantGroups = new Set(
    input.parentId ? (configuratorOptions(master, ctx.mapping).get(input.sku) ?? []).map((o) => o.groupKey) : [],
  );
  for (const feature of shopwareFeatures(node, ctx.mapping)) {
    if (variantGroups.has(feature.groupKey)) continue;
    const optionId = await addOption(plan, feature, `${field}.classification`);
    const link = { productId: id, optionId };
    plan.items.push({ op: 'product_property', field: `${field}.classification`, payload: link });
    own('product_property', `${id}:${optionId}`, link);
  }
  return id;
}

async function addOption(plan: RecordPlan, feature: FeatureValue, field: string): Promise<string> {
  const groupId = await shopwareId('property_group', feature.groupKey);
  const optionId = await shopwareId('property_group_option', feature.groupKey, feature.optionKey);
  plan.items.push({ op: 'property_group', field, payload: { id: groupId, name: feature.groupName } });
  plan.items.push({ op: 'property_group_option', field, payload: { id: optionId, groupId, name: feature.optionName } });
  return optionId;
}

interface Tier {
  start: number;
  net: number;
}

/** The shop price and its tiers (adapters/common/prices.ts), net: Shopware keeps net and gross itself. */
function tiers(node: Product | Variant, mapping: TargetMapping): Tier[] {
  return priceTiers(node, mapping, { net: true }).map((tier) => ({ start: tier.minQuantity, net: tier.amount }));
}

function texts(node: Product | Variant, master: Product, language: string, mapping: TargetMapping) {
  const pick = (n: Product | Variant, field: 'name' | 'description' | 'keywords') =>
    textIn(n, field, language, mapping);
  return {
    name: pick(node, 'name') ?? (node !== master ? pick(master, 'name') : null),
    description: pick(node, 'description'),
    keywords: pick(node, 'keywords'),
  };
}

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}
