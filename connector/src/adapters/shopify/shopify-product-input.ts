import type { Product } from '../../../../src/sync/protocol/wire';
import type { TargetIds, TargetMapping } from '../target-adapter';
import { imagesFor } from '../common/images';
import { skuSlug } from '../common/slug';
import { featureMetafields, type PimMetafield, shopifyOptions, shopifyPrice } from './shopify-features';
import { orderMetafields } from './shopify-order-details';

/** What one productSet sends and how its answer maps back onto the record. */
export interface ProductSetPlan {
  /** The `ProductSetInput`. */
  input: Record<string, unknown>;
  /** The product's files in order: their content hash, name (`fileNameOf`) and, for an image already in the shop, its id. */
  files: { sha256: string; id: string | null; name: string }[];
  /** The product-level `pim` metafield keys the product should carry (others are deleted). */
  metafieldKeys: Set<string>;
  /** Per variant SKU, the `pim` metafield keys it should carry. */
  variantMetafieldKeys: Map<string, Set<string>>;
  /** The index of the first reference list in the input's metafields (a user error there is `product.references`). */
  referencesFrom: number;
  /** The record's field of each Shopify variant (`product.variants.2`, or `product` for a master without variants). */
  variantFields: string[];
}

const STATUS: Record<Product['status'], 'ACTIVE' | 'DRAFT' | 'ARCHIVED'> = {
  active: 'ACTIVE',
  draft: 'DRAFT',
  discontinued: 'ARCHIVED',
};

/**
 * The product's handle, from its SKU (`pim-` and adapters/common/slug.ts `skuSlug`): stable,
 * so productSet's `identifier: { handle }` upserts and a create retried after a lost answer (a
 * timeout) finds the product it made instead of making a second one; `A.1` and `A-1` differ.
 */
export function handleOf(sku: string): string {
  return `pim-${skuSlug(sku)}`;
}

/**
 * The name of the file a product's image is made as in the Files library: the product's
 * handle, the image's sha256 and the extension of the PIM's file name (`pim-ls-b16-<64 hex>.jpg`).
 * It is the PIM's key of the file, for this product and image, where Shopify's answer was lost
 * (docs/shops-shopify.md "Files": `strayFiles` finds a file by it).
 */
export function fileNameOf(sku: string, sha256: string, original: string): string {
  const extension = /\.[a-z0-9]{1,5}$/i.exec(original)?.[0].toLowerCase() ?? '';
  return `${handleOf(sku)}-${sha256}${extension}`;
}

function metafieldInputs(fields: PimMetafield[]) {
  return fields.map((field) => ({ namespace: 'pim', key: field.key, type: field.type, value: field.value }));
}

/**
 * The productSet input for a master: variants, options, metafields (with the reference lists
 * of shopify-references.ts), files; collections are
 * left to their own mutations. `handle` only on a create: an update keeps the handle the
 * merchant may have changed.
 */
export function productSetPlan(
  sku: string,
  product: Product,
  known: TargetIds | null,
  handle: string | null,
  mapping: TargetMapping,
  references: PimMetafield[] = [],
): ProductSetPlan {
  const options = shopifyOptions(product, mapping);
  const nodes = product.variants.length === 0 ? [{ ...product, sku }] : product.variants;
  const variantMetafieldKeys = new Map<string, Set<string>>();
  const variants = nodes.map((node, i) => {
    const metafields =
      product.variants.length === 0
        ? []
        : [...featureMetafields(node, mapping), ...orderMetafields(node, product, `product.variants.${i}`)];
    variantMetafieldKeys.set(node.sku, new Set(metafields.map((field) => field.key)));
    const id = known?.variants[node.sku];
    const price = shopifyPrice(node, mapping) ?? shopifyPrice(product, mapping);
    return {
      ...(id ? { id } : {}),
      sku: node.sku,
      position: i + 1,
      barcode: node.gtin ?? product.gtin ?? null,
      ...(price === null ? {} : { price }),
      taxable: (node.taxId ?? product.taxId) !== 'exempt',
      optionValues: options.names.map((optionName, o) => ({ optionName, name: options.values[i]![o]! })),
      metafields: metafieldInputs(metafields),
    };
  });
  const productOptions = options.names.map((name, o) => ({
    name,
    position: o + 1,
    values: [...new Set(options.values.map((row) => row[o]!))].map((value) => ({ name: value })),
  }));

  const images = imagesFor(product, mapping);
  const files = images.map((ref) => ({
    sha256: ref.sha256,
    id: known?.media?.[ref.sha256] ?? null,
    name: fileNameOf(sku, ref.sha256, ref.fileName),
  }));
  // `pim.media` is left as the shop holds it: productSet's answer reads it, and shopify-files.ts writes it after.
  const marker: PimMetafield[] = [{ key: 'sku', type: 'single_line_text_field', value: sku }];
  const features = [...featureMetafields(product, mapping), ...orderMetafields(product, product, 'product')];
  const keywords = (product.keywords ?? '')
    .split(/[,;]/)
    .map((word) => word.trim())
    .filter((word) => word !== '' && word.length <= 255);

  const input = {
    ...(handle === null ? {} : { handle }),
    title: product.name ?? sku,
    descriptionHtml: product.description ?? '',
    vendor: product.manufacturerId ?? '',
    status: STATUS[product.status],
    tags: [...new Set(keywords)],
    productOptions,
    variants,
    metafields: metafieldInputs([...marker, ...features, ...references]),
    files: images.map((ref, i) =>
      files[i]!.id
        ? { id: files[i]!.id }
        : {
            originalSource: ref.url,
            contentType: 'IMAGE',
            filename: files[i]!.name,
            alt: product.name ?? '',
          },
    ),
  };
  return {
    input,
    files,
    metafieldKeys: new Set(['media', ...[...marker, ...features, ...references].map((field) => field.key)]),
    referencesFrom: marker.length + features.length,
    variantMetafieldKeys,
    variantFields:
      product.variants.length === 0 ? ['product'] : product.variants.map((_, i) => `product.variants.${i}`),
  };
}

const FIELD_NAMES: Record<string, string> = {
  title: 'name',
  descriptionHtml: 'description',
  vendor: 'manufacturerId',
  barcode: 'gtin',
  price: 'price',
  sku: 'sku',
  tags: 'keywords',
  files: 'media',
  metafields: 'values',
  status: 'status',
};

/** A productSet user error's `field` (`["input","variants","1","price"]`) as the record's field (`product.variants.1.price`). */
export function recordField(field: string[] | null | undefined, plan: ProductSetPlan): string {
  const path = (field ?? []).filter((part) => part !== 'input');
  if (path[0] === 'variants' && path[1] !== undefined) {
    const base = plan.variantFields[Number(path[1])] ?? 'product.variants';
    const leaf = path[2] === undefined ? undefined : FIELD_NAMES[path[2]];
    return leaf ? `${base}.${leaf}` : base;
  }
  if (path[0] === 'metafields' && Number(path[1]) >= plan.referencesFrom) return 'product.references';
  const leaf = path[0] === undefined ? undefined : FIELD_NAMES[path[0]];
  return leaf ? `product.${leaf}` : 'record';
}
