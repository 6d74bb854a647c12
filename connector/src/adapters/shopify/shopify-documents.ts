/**
 * Every GraphQL document the Shopify adapter sends, as constants: the contract test validates
 * each of them against the pinned Admin API schema (connector/contracts/shopify/), so a field
 * or argument the pinned version lacks fails a test instead of a shop. Documents take their
 * inputs as variables only; nothing is spliced into a document at run time.
 */

/** The PIM's marker on a product it created: `pim.sku` holds the master SKU (docs/shops.md). */
export const PIM_NAMESPACE = 'pim';

/**
 * Selections stay far below Shopify's single-query limit of 1000 points (a connection costs
 * about 2 plus `first` times its node's cost), so lookups fetch a product's variant ids in a
 * query of their own.
 */
const PRODUCT_MARKERS = /* GraphQL */ `
  fragment PimProductMarkers on Product {
    id
    handle
    pimSku: metafield(namespace: "pim", key: "sku") { value }
    pimMedia: metafield(namespace: "pim", key: "media") { value }
  }
`;

export const SHOP_PROBE = /* GraphQL */ `
  query PimShopProbe {
    shop {
      name
      myshopifyDomain
      currencyCode
      enabledPresentmentCurrencies
      plan { publicDisplayName shopifyPlus }
    }
    shopLocales { locale primary published }
  }
`;

/** Price lists exist on B2B / Plus shops only; elsewhere the query is refused and tiers are not sent. */
export const PRICE_LISTS = /* GraphQL */ `
  query PimPriceLists {
    priceLists(first: 50) { nodes { id name currency } }
  }
`;

export const QUANTITY_PRICING_UPDATE = /* GraphQL */ `
  mutation PimQuantityPricing($priceListId: ID!, $input: QuantityPricingByVariantUpdateInput!) {
    quantityPricingByVariantUpdate(priceListId: $priceListId, input: $input) {
      productVariants { id }
      userErrors { field message code }
    }
  }
`;

export const PRODUCT_VENDORS = /* GraphQL */ `
  query PimProductVendors($first: Int!) {
    productVendors(first: $first) { nodes }
  }
`;

export const VARIANTS_BY_SKU = /* GraphQL */ `
  query PimVariantsBySku($query: String!, $first: Int!) {
    productVariants(first: $first, query: $query) {
      nodes { sku product { ...PimProductMarkers } }
    }
  }
  ${PRODUCT_MARKERS}
`;

export const PRODUCTS_BY_HANDLE = /* GraphQL */ `
  query PimProductsByHandle($query: String!, $first: Int!) {
    products(first: $first, query: $query) { nodes { ...PimProductMarkers } }
  }
  ${PRODUCT_MARKERS}
`;

export const PRODUCT_VARIANT_IDS = /* GraphQL */ `
  query PimProductVariantIds($id: ID!) {
    product(id: $id) { id variants(first: 250) { nodes { id sku } } }
  }
`;

export const PRODUCT_SET = /* GraphQL */ `
  mutation PimProductSet($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
    productSet(identifier: $identifier, input: $input, synchronous: true) {
      product {
        id
        handle
        variants(first: 250) { nodes { id sku } }
        media(first: 100) { nodes { id } }
        metafields(namespace: "pim", first: 100) { nodes { key } }
        pimMedia: metafield(namespace: "pim", key: "media") { value }
        collections(first: 100) { nodes { id handle } }
      }
      userErrors { field message code }
    }
  }
`;

/**
 * Deletes files from the shop's Files library (and from wherever they are shown): only files
 * the PIM made for a product and no longer shows (shopify-files.ts).
 */
export const FILE_DELETE = /* GraphQL */ `
  mutation PimFileDelete($fileIds: [ID!]!) {
    fileDelete(fileIds: $fileIds) {
      deletedFileIds
      userErrors { field message code }
    }
  }
`;

/** Files by name (`filename:<name>*`, joined with OR): the ones an answer that was lost made (shopify-files.ts `strayFiles`). */
export const FILES_BY_NAME = /* GraphQL */ `
  query PimFilesByName($query: String!) {
    files(first: 50, query: $query) {
      nodes { id ... on MediaImage { image { url } } }
    }
  }
`;

export const PRODUCT_ARCHIVE = /* GraphQL */ `
  mutation PimProductStatus($product: ProductUpdateInput!) {
    productUpdate(product: $product) {
      product { id status }
      userErrors { field message }
    }
  }
`;

export const PRODUCT_DELETE = /* GraphQL */ `
  mutation PimProductDelete($input: ProductDeleteInput!) {
    productDelete(input: $input, synchronous: true) {
      deletedProductId
      userErrors { field message }
    }
  }
`;

export const METAFIELDS_SET = /* GraphQL */ `
  mutation PimMetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { key }
      userErrors { field message }
    }
  }
`;

export const METAFIELDS_DELETE = /* GraphQL */ `
  mutation PimMetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields { key ownerId }
      userErrors { field message }
    }
  }
`;

export const COLLECTION_BY_HANDLE = /* GraphQL */ `
  query PimCollectionByHandle($handle: String!) {
    collectionByIdentifier(identifier: { handle: $handle }) {
      id
      handle
      imageSource: metafield(namespace: "pim", key: "image_source") { value }
    }
  }
`;

export const COLLECTION_CREATE = /* GraphQL */ `
  mutation PimCollectionCreate($collection: CollectionCreateInput!) {
    collectionCreate(collection: $collection) {
      collection { id handle }
      userErrors { field message }
    }
  }
`;

export const COLLECTION_UPDATE = /* GraphQL */ `
  mutation PimCollectionUpdate($collection: CollectionUpdateInput!) {
    collectionUpdate(collection: $collection) {
      collection { id }
      userErrors { field message }
    }
  }
`;

export const COLLECTION_ADD_PRODUCTS = /* GraphQL */ `
  mutation PimCollectionAddProducts($id: ID!, $productIds: [ID!]!) {
    collectionAddProducts(id: $id, productIds: $productIds) {
      collection { id }
      userErrors { field message }
    }
  }
`;

export const COLLECTION_REMOVE_PRODUCTS = /* GraphQL */ `
  mutation PimCollectionRemoveProducts($id: ID!, $productIds: [ID!]!) {
    collectionRemoveProducts(id: $id, productIds: $productIds) {
      job { id }
      userErrors { field message }
    }
  }
`;

export const TRANSLATABLE_CONTENT = /* GraphQL */ `
  query PimTranslatableContent($resourceId: ID!) {
    translatableResource(resourceId: $resourceId) {
      resourceId
      translatableContent { key digest locale }
    }
  }
`;

export const TRANSLATIONS_REGISTER = /* GraphQL */ `
  mutation PimTranslationsRegister($resourceId: ID!, $translations: [TranslationInput!]!) {
    translationsRegister(resourceId: $resourceId, translations: $translations) {
      translations { key locale }
      userErrors { field message code }
    }
  }
`;

export const TRANSLATIONS_REMOVE = /* GraphQL */ `
  mutation PimTranslationsRemove($resourceId: ID!, $translationKeys: [String!]!, $locales: [String!]!) {
    translationsRemove(resourceId: $resourceId, translationKeys: $translationKeys, locales: $locales) {
      translations { key locale }
      userErrors { field message code }
    }
  }
`;

/** Several products' translatable content at once (the digests of a round's bulk translationsRegister). */
export const TRANSLATABLE_RESOURCES = /* GraphQL */ `
  query PimTranslatableResources($resourceIds: [ID!]!, $first: Int!) {
    translatableResourcesByIds(resourceIds: $resourceIds, first: $first) {
      nodes { resourceId translatableContent { key digest locale } }
    }
  }
`;

/** A staged upload target for a bulk operation's JSONL file of variables (shopify-bulk.ts). */
export const STAGED_UPLOADS_CREATE = /* GraphQL */ `
  mutation PimStagedUploadsCreate($input: [StagedUploadInput!]!) {
    stagedUploadsCreate(input: $input) {
      stagedTargets { url resourceUrl parameters { name value } }
      userErrors { field message }
    }
  }
`;

const BULK_OPERATION_FIELDS = 'id status errorCode url partialDataUrl';

export const BULK_RUN_MUTATION = /* GraphQL */ `
  mutation PimBulkRunMutation($mutation: String!, $stagedUploadPath: String!) {
    bulkOperationRunMutation(mutation: $mutation, stagedUploadPath: $stagedUploadPath) {
      bulkOperation { ${BULK_OPERATION_FIELDS} }
      userErrors { field message code }
    }
  }
`;

export const BULK_OPERATION = /* GraphQL */ `
  query PimBulkOperation($id: ID!) {
    bulkOperation(id: $id) { ${BULK_OPERATION_FIELDS} }
  }
`;

export const BULK_OPERATION_CANCEL = /* GraphQL */ `
  mutation PimBulkOperationCancel($id: ID!) {
    bulkOperationCancel(id: $id) {
      bulkOperation { id status }
      userErrors { field message }
    }
  }
`;

/** All documents, by name, for the contract test. */
export const SHOPIFY_DOCUMENTS: Record<string, string> = {
  SHOP_PROBE,
  PRICE_LISTS,
  QUANTITY_PRICING_UPDATE,
  PRODUCT_VENDORS,
  VARIANTS_BY_SKU,
  PRODUCTS_BY_HANDLE,
  PRODUCT_VARIANT_IDS,
  PRODUCT_SET,
  FILE_DELETE,
  FILES_BY_NAME,
  PRODUCT_ARCHIVE,
  PRODUCT_DELETE,
  METAFIELDS_SET,
  METAFIELDS_DELETE,
  COLLECTION_BY_HANDLE,
  COLLECTION_CREATE,
  COLLECTION_UPDATE,
  COLLECTION_ADD_PRODUCTS,
  COLLECTION_REMOVE_PRODUCTS,
  TRANSLATABLE_CONTENT,
  TRANSLATIONS_REGISTER,
  TRANSLATIONS_REMOVE,
  TRANSLATABLE_RESOURCES,
  STAGED_UPLOADS_CREATE,
  BULK_RUN_MUTATION,
  BULK_OPERATION,
  BULK_OPERATION_CANCEL,
};
