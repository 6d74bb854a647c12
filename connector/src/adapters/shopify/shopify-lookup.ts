import type { TargetIds } from '../target-adapter';
import { PRODUCT_VARIANT_IDS, PRODUCTS_BY_HANDLE, VARIANTS_BY_SKU } from './shopify-documents';
import { mediaMarker } from './shopify-files';
import { graphqlErrorText, type ShopifyGraphql } from './shopify-graphql';
import { handleOf } from './shopify-product-input';
import { TargetError } from '../target-adapter';

interface ProductIdsNode {
  id: string;
  handle: string;
  pimSku: { value: string } | null;
  pimMedia: { value: string } | null;
}

/** What the shop holds for a SKU: our product (its ids) or one the shop owns, which is never written. */
export type Found = { owner: 'pim'; ids: TargetIds } | { owner: 'shop'; reason: string };

/** Shopify's search syntax quotes a value with double quotes and escapes `\` and `"`. */
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

function idsOf(product: ProductIdsNode): TargetIds {
  // A hand-edited marker counts as none: images are matched again from scratch.
  return {
    product: product.id,
    variants: {},
    media: mediaMarker(product.pimMedia?.value),
    extra: { handle: product.handle },
  };
}

function judge(sku: string, product: ProductIdsNode): Found {
  if (product.pimSku?.value === sku) return { owner: 'pim', ids: idsOf(product) };
  if (product.pimSku)
    return { owner: 'shop', reason: `the SKU belongs to another PIM product (${product.pimSku.value})` };
  return { owner: 'shop', reason: 'the SKU belongs to a product the shop owns' };
}

/**
 * Finds masters by SKU: first as a variant SKU (a master without variants is its own
 * variant), then by the handle the adapter gives a master (a master with variants). A found
 * product is ours only when its `pim.sku` marker names the same SKU. Search is eventually
 * consistent in Shopify; a product made a moment ago and not yet found is still not made twice,
 * because productSet upserts by that handle.
 */
export async function lookupBySku(gql: ShopifyGraphql, skus: string[]): Promise<Map<string, Found>> {
  return withVariantIds(gql, await lookupMarkers(gql, skus));
}

async function lookupMarkers(gql: ShopifyGraphql, skus: string[]): Promise<Map<string, Found>> {
  const found = new Map<string, Found>();
  if (skus.length === 0) return found;
  const bySku = await gql.request<{ productVariants: { nodes: { sku: string | null; product: ProductIdsNode }[] } }>(
    VARIANTS_BY_SKU,
    { query: skus.map((sku) => `sku:${quoted(sku)}`).join(' OR '), first: Math.min(50, skus.length * 4) },
  );
  if (!bySku.data) throw new TargetError(`the shop refused the SKU lookup: ${graphqlErrorText(bySku.errors)}`, false);
  for (const variant of bySku.data.productVariants.nodes) {
    if (variant.sku && skus.includes(variant.sku) && !found.has(variant.sku)) {
      found.set(variant.sku, judge(variant.sku, variant.product));
    }
  }
  const rest = skus.filter((sku) => !found.has(sku));
  if (rest.length === 0) return found;
  const handles = new Map<string, string>();
  for (const sku of rest) handles.set(handleOf(sku), sku);
  const byHandle = await gql.request<{ products: { nodes: ProductIdsNode[] } }>(PRODUCTS_BY_HANDLE, {
    query: [...handles.keys()].map((handle) => `handle:${quoted(handle)}`).join(' OR '),
    first: Math.min(50, handles.size),
  });
  if (!byHandle.data)
    throw new TargetError(`the shop refused the handle lookup: ${graphqlErrorText(byHandle.errors)}`, false);
  for (const product of byHandle.data.products.nodes) {
    const sku = handles.get(product.handle);
    if (sku !== undefined) found.set(sku, judge(sku, product));
  }
  return found;
}

/** The variant ids of products found by SKU (a lost mapping), so productSet updates those variants instead of replacing them. */
async function withVariantIds(gql: ShopifyGraphql, found: Map<string, Found>): Promise<Map<string, Found>> {
  for (const entry of found.values()) {
    if (entry.owner !== 'pim') continue;
    const result = await gql.request<{ product: { variants: { nodes: { id: string; sku: string | null }[] } } | null }>(
      PRODUCT_VARIANT_IDS,
      { id: entry.ids.product },
    );
    if (!result.data)
      throw new TargetError(`the shop refused the variant lookup: ${graphqlErrorText(result.errors)}`, false);
    for (const variant of result.data.product?.variants.nodes ?? []) {
      if (variant.sku) entry.ids.variants[variant.sku] = variant.id;
    }
  }
  return found;
}
