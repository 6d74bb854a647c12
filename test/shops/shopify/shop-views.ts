import type { ShopProduct, ShopState, ShopVariant } from './shop-state';

/**
 * The shop's records as the schema's output objects: plain fields, and functions for fields
 * with arguments (graphql-js calls them with the field's arguments). `__typename` picks the
 * object type of an interface (Media, File, Node).
 */
export function connection<T>(items: T[], first: number | undefined) {
  const nodes = items.slice(0, first ?? items.length);
  return {
    nodes,
    edges: nodes.map((node, i) => ({ node, cursor: String(i) })),
    pageInfo: { hasNextPage: nodes.length < items.length, hasPreviousPage: false, startCursor: null, endCursor: null },
  };
}

type Metafields = Map<string, { type: string; value: string }>;

function metafieldView(
  ownerId: string,
  id: string,
  namespace: string,
  key: string,
  field: { type: string; value: string },
) {
  return { __typename: 'Metafield', id: `gid://shopify/Metafield/${id}`, ownerId, namespace, key, ...field };
}

export function metafieldFields(ownerId: string, metafields: Metafields) {
  const of = (namespace: string | undefined) =>
    [...metafields]
      .filter(([name]) => namespace === undefined || name.startsWith(`${namespace}.`))
      .map(([name, field]) => {
        const [ns, key] = name.split('.') as [string, string];
        return metafieldView(ownerId, `${ownerId.split('/').pop()}-${name}`, ns, key, field);
      });
  return {
    metafield: ({ namespace, key }: { namespace?: string; key: string }) =>
      of(namespace).find((field) => field.key === key) ?? null,
    metafields: ({ namespace, first }: { namespace?: string; first?: number }) => connection(of(namespace), first),
  };
}

export function variantView(state: ShopState, product: ShopProduct, variant: ShopVariant) {
  return {
    __typename: 'ProductVariant',
    id: variant.id,
    sku: variant.sku,
    price: variant.price,
    barcode: variant.barcode,
    taxable: variant.taxable,
    selectedOptions: variant.options.map((option) => ({ name: option.optionName, value: option.name })),
    product: () => productView(state, product),
    ...metafieldFields(variant.id, variant.metafields),
  };
}

export function productView(state: ShopState, product: ShopProduct) {
  return {
    __typename: 'Product',
    id: product.id,
    handle: product.handle,
    title: product.title,
    descriptionHtml: product.descriptionHtml,
    vendor: product.vendor,
    status: product.status,
    tags: product.tags,
    variants: ({ first }: { first?: number }) =>
      connection(
        product.variants.map((variant) => variantView(state, product, variant)),
        first,
      ),
    media: ({ first }: { first?: number }) =>
      connection(
        product.media.map((media) => ({ __typename: 'MediaImage', id: media.id, alt: null })),
        first,
      ),
    collections: ({ first }: { first?: number }) =>
      connection(
        [...state.collections.values()]
          .filter((collection) => collection.productIds.has(product.id))
          .map((collection) => ({ __typename: 'Collection', id: collection.id, handle: collection.handle })),
        first,
      ),
    ...metafieldFields(product.id, product.metafields),
  };
}
