import type { ProductAggregate, ProductNode } from '../model/product-aggregate';
import type { MediaLink, Mappings, Product, Variant } from './protocol/wire';
import { productSchema } from './protocol/wire';
import { syncPriceList } from '../model/price-records';
import { orderDetailsRecord, withTranslations } from '../records/sync-record';

/** The attribute whose value on a product (or its master) names its tax code in the shop's /mappings. */
const TAX_CODE_ATTRIBUTE = 'tax_code';

/** Lookups built once per slice from the connector's /mappings (SYNC-PROTOCOL "GET /mappings"). */
export interface MappingIndex {
  manufacturerByName: Map<string, string>;
  unitByCode: Map<string, string>;
  taxByCode: Map<string, string>;
}

export function indexMappings(mappings: Mappings): MappingIndex {
  return {
    manufacturerByName: new Map(mappings.manufacturers.map((m) => [normaliseName(m.name), m.id])),
    unitByCode: new Map(mappings.units.map((u) => [u.code, u.id])),
    taxByCode: new Map(mappings.taxes.map((t) => [t.code, t.id])),
  };
}

function normaliseName(name: string): string {
  return name.trim().toLowerCase();
}

/** What a record needs besides the aggregate: mappings, tax default, category paths, media URLs. */
interface WireContext {
  index: MappingIndex;
  defaultTaxCode: string | undefined;
  categoryPath(categoryId: string): string[] | undefined;
  /** The category's media links for the wire (category-links.ts); none when omitted. */
  categoryLinks?(categoryId: string): MediaLink[] | undefined;
  /** sha256 and signed URL of a media file, or undefined when its bytes are missing. */
  mediaRef(mediaId: string): { sha256: string; url: string } | undefined;
}

/** A record that cannot be sent: the reason goes into the run's quarantine. */
export class Unsendable extends Error {}

function mapped(map: Map<string, string>, key: string | null, what: string): string | null {
  if (key === null || key.trim() === '') return null;
  const id = map.get(key);
  if (id === undefined) throw new Unsendable(`${what} "${key}" has no mapping in the shop`);
  return id;
}

function wireNode(node: ProductNode, ctx: WireContext, inheritedTax: string | null, published: readonly string[]) {
  const p = node.product;
  const values = Object.fromEntries(node.values.map((v) => [v.code, v.value]));
  const taxCode = values[TAX_CODE_ATTRIBUTE] ?? inheritedTax;
  return {
    taxCode,
    fields: {
      name: p.name,
      description: p.description,
      gtin: p.gtin,
      manufacturerId: p.manufacturerName
        ? mapped(ctx.index.manufacturerByName, normaliseName(p.manufacturerName), 'manufacturer')
        : null,
      manufacturerPid: p.manufacturerPid,
      unitId: mapped(ctx.index.unitByCode, p.unit, 'unit'),
      taxId: mapped(ctx.index.taxByCode, taxCode, 'tax code'),
      price: p.price,
      priceQuantity: p.priceQuantity,
      // Only the ones set, as the sync record (whose fingerprint covers them) carries them.
      ...orderDetailsRecord(p),
      keywords: p.keywords,
      deliveryTimeDays: p.deliveryTimeDays,
      status: p.status,
      values,
      classification: node.classification
        ? {
            classes: node.classification.classes.map((c) => ({ group: c.group, system: c.system, code: c.code })),
            features: node.classification.features.map((f) => ({
              group: f.group,
              code: f.code,
              value: f.value,
              unit: f.unit,
            })),
          }
        : null,
      media: node.media.flatMap((m, position) => {
        if (m.url) return [];
        const ref = ctx.mediaRef(m.mediaId);
        if (!ref) throw new Unsendable(`media file "${m.fileName}" is missing in storage`);
        return [
          {
            sha256: ref.sha256,
            url: ref.url,
            contentType: m.contentType,
            fileName: m.fileName,
            purpose: m.purpose,
            position,
          },
        ];
      }),
      ...(node.prices?.length ? { prices: syncPriceList(node.prices, p.price) } : {}),
      ...(node.featureBlocks?.length ? { featureBlocks: node.featureBlocks } : {}),
      ...withTranslations(node.translations, published),
      links: node.media.flatMap((m, position) =>
        m.url
          ? [
              {
                url: m.url,
                contentType: m.contentType,
                fileName: m.fileName,
                purpose: m.purpose,
                description: m.description,
                mimeCode: m.mimeCode ?? null,
                position,
              },
            ]
          : [],
      ),
    },
  };
}

/**
 * The connector's `product` for one master: the PIM aggregate mapped through the shop's
 * mappings. Throws `Unsendable` (with the reason) when a manufacturer, unit or tax code has no
 * mapping, a variant has no SKU, or the result breaks the wire schema: such a record is
 * quarantined before it is sent, so it never fails a whole batch.
 */
export function wireProduct(aggregate: ProductAggregate, ctx: WireContext): Product {
  const master = wireNode(aggregate, ctx, ctx.defaultTaxCode ?? null, aggregate.publishedLanguages);
  const variants: Variant[] = aggregate.variants.map((variant) => {
    if (!variant.product.sku)
      throw new Unsendable(`a variant ("${variant.product.name ?? variant.product.id}") has no SKU`);
    return {
      sku: variant.product.sku,
      ...wireNode(variant, ctx, master.taxCode, aggregate.publishedLanguages).fields,
    };
  });
  const categories = aggregate.categoryIds.flatMap((id) => {
    const path = ctx.categoryPath(id);
    const links = ctx.categoryLinks?.(id);
    return path ? [{ id, path, ...(links?.length ? { links } : {}) }] : [];
  });
  // By target SKU, as the shop knows products; only a non-empty list, like the sync record
  // (records/sync-record.ts), whose fingerprint covers the same list. Variants' references stay
  // in the fingerprint but not on the wire, which carries them on the master only.
  // A reference by manufacturer number names the number in `sku`, with targetKind 'mpn' (docs/sync.md).
  const references = aggregate.references.map((r) => ({
    type: r.type,
    sku: r.targetSku,
    quantity: r.quantity,
    ...(r.targetKind === 'mpn' ? { targetKind: 'mpn' as const } : {}),
  }));
  const product = { ...master.fields, categories, variants, ...(references.length ? { references } : {}) };
  const checked = productSchema.safeParse(product);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new Unsendable(`${issue.path.join('.') || 'product'}: ${issue.message}`);
  }
  return product;
}
