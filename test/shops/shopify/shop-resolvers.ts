import { metafieldErrors, productSet, upsertMetafields } from './shop-product-set';
import { SHOP_LOCALES, type ShopState, shopifyError } from './shop-state';
import { connection, metafieldFields, productView, variantView } from './shop-views';

type Args = Record<string, unknown>;

/** `sku:"A" OR sku:"B"` -> the quoted values of one search field. */
function searchValues(query: string, field: string): string[] {
  const values: string[] = [];
  for (const match of query.matchAll(/(\w+):"((?:[^"\\]|\\.)*)"/g)) {
    if (match[1] === field) values.push(match[2]!.replace(/\\(.)/g, '$1'));
  }
  return values;
}

function ownerOf(state: ShopState, ownerId: string) {
  return (
    state.products.get(ownerId)?.metafields ??
    state.variantById(ownerId)?.variant.metafields ??
    state.collections.get(ownerId)?.metafields
  );
}

/** `ImageInput` as Shopify takes it: an http(s) `src` it can fetch (null: no image). */
function collectionImage(input: unknown, field: string[]) {
  if (input === null || input === undefined) return { image: null, errors: [] };
  const { src, altText } = input as { src?: string; altText?: string };
  if (!src || !/^https?:\/\//.test(src)) return { image: null, errors: [{ field, message: 'Image URL is invalid' }] };
  return { image: { src, altText: altText ?? null }, errors: [] };
}

/** The root fields (queries and mutations) the adapter uses, over the shop's state. */
export function shopResolvers(state: ShopState) {
  const translatable = (resourceId: string) => {
    const product = state.products.get(resourceId);
    if (!product) return null;
    return {
      resourceId: product.id,
      translatableContent: () => state.translatableContent(product),
      translations: ({ locale }: Args) =>
        [...(product.translations.get(String(locale)) ?? [])].map(([key, value]) => ({
          key,
          value,
          locale,
          outdated: false,
        })),
    };
  };
  const collectionView = (id: string) => {
    const collection = state.collections.get(id);
    return collection
      ? {
          __typename: 'Collection',
          id: collection.id,
          handle: collection.handle,
          title: collection.title,
          image: collection.image
            ? {
                __typename: 'Image',
                id: `${collection.id}/image`,
                url: collection.image.src,
                altText: collection.image.altText,
              }
            : null,
          ...metafieldFields(collection.id, collection.metafields),
        }
      : null;
  };
  return {
    shop: () => ({
      name: 'PIM Contract Shop',
      myshopifyDomain: 'pim-contract.myshopify.com',
      currencyCode: 'EUR',
      enabledPresentmentCurrencies: ['EUR', 'CHF'],
      plan: state.priceList
        ? { publicDisplayName: 'Shopify Plus', shopifyPlus: true }
        : { publicDisplayName: 'Basic', shopifyPlus: false },
    }),
    shopLocales: () => SHOP_LOCALES.map((locale) => ({ ...locale, name: locale.locale, marketWebPresences: [] })),
    priceLists: ({ first }: Args) => {
      const list = state.priceList;
      if (!list)
        throw shopifyError('Access denied for priceLists field. Required access: B2B (Shopify Plus).', 'ACCESS_DENIED');
      return connection([{ id: list.id, name: list.name, currency: list.currency }], first as number);
    },
    quantityPricingByVariantUpdate: ({ priceListId, input }: Args) => {
      const list = state.priceList;
      if (!list || list.id !== priceListId) {
        return {
          productVariants: null,
          userErrors: [{ field: ['priceListId'], message: 'Price list does not exist', code: 'PRICE_LIST_NOT_FOUND' }],
        };
      }
      type Money = { amount: string; currencyCode: string };
      const change = input as {
        pricesToAdd: { variantId: string; price: Money }[];
        pricesToDeleteByVariantId: string[];
        quantityPriceBreaksToAdd: { variantId: string; minimumQuantity: number; price: Money }[];
        quantityPriceBreaksToDeleteByVariantId?: string[];
      };
      const errors = [
        ...change.quantityPriceBreaksToAdd
          .filter((b) => !change.pricesToAdd.some((p) => p.variantId === b.variantId) && !list.fixed.has(b.variantId))
          .map((b) => ({
            field: ['input', 'quantityPriceBreaksToAdd'],
            message: `Variant ${b.variantId} needs a fixed price on the price list`,
            code: 'QUANTITY_PRICE_BREAK_ADD_PRICE_LIST_PRICE_NOT_FOUND',
          })),
        ...[...change.pricesToAdd, ...change.quantityPriceBreaksToAdd]
          .filter((p) => p.price.currencyCode !== list.currency)
          .map(() => ({
            field: ['input'],
            message: 'Currency does not match the price list',
            code: 'PRICE_ADD_CURRENCY_MISMATCH',
          })),
      ];
      if (errors.length > 0) return { productVariants: null, userErrors: errors };
      for (const id of change.quantityPriceBreaksToDeleteByVariantId ?? []) list.breaks.delete(id);
      for (const id of change.pricesToDeleteByVariantId) {
        list.fixed.delete(id);
        list.breaks.delete(id);
      }
      for (const p of change.pricesToAdd) list.fixed.set(p.variantId, p.price.amount);
      for (const b of change.quantityPriceBreaksToAdd) {
        list.breaks.set(b.variantId, [
          ...(list.breaks.get(b.variantId) ?? []),
          { minimumQuantity: b.minimumQuantity, price: b.price.amount },
        ]);
      }
      return { productVariants: [], userErrors: [] };
    },
    productVendors: ({ first }: Args) =>
      connection([...new Set([...state.products.values()].map((p) => p.vendor).filter(Boolean))], first as number),
    productVariants: ({ first, query }: Args) => {
      const skus = searchValues(String(query ?? ''), 'sku');
      const nodes = [...state.products.values()].flatMap((product) =>
        product.variants
          .filter((v) => v.sku !== null && skus.includes(v.sku))
          .map((v) => variantView(state, product, v)),
      );
      return connection(nodes, first as number);
    },
    products: ({ first, query }: Args) => {
      const handles = searchValues(String(query ?? ''), 'handle');
      const nodes = [...state.products.values()]
        .filter((p) => handles.includes(p.handle))
        .map((p) => productView(state, p));
      return connection(nodes, first as number);
    },
    files: ({ first, query }: Args) =>
      connection(
        state.filesNamed(String(query ?? '')).map((media) => ({
          __typename: 'MediaImage',
          id: media.id,
          image: {
            url: `https://cdn.shopify.com/s/files/1/0000/0001/files/${encodeURIComponent(media.filename ?? '')}?v=1`,
          },
        })),
        first as number,
      ),
    product: ({ id }: Args) => {
      const product = state.products.get(String(id));
      return product ? productView(state, product) : null;
    },
    collectionByIdentifier: ({ identifier }: Args) => {
      const { id, handle } = identifier as { id?: string; handle?: string };
      const found = [...state.collections.values()].find((c) => c.id === id || c.handle === handle);
      return found ? collectionView(found.id) : null;
    },
    translatableResource: ({ resourceId }: Args) => translatable(String(resourceId)),
    translatableResourcesByIds: ({ resourceIds, first }: Args) =>
      connection(
        (resourceIds as string[]).flatMap((id) => translatable(id) ?? []),
        first as number | undefined,
      ),

    productSet: (args: Args) => productSet(state, args as Parameters<typeof productSet>[1]),
    productUpdate: ({ product: input }: Args) => {
      const { id, status } = input as { id: string; status?: string };
      const product = state.products.get(id);
      if (!product) return { product: null, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      if (status) product.status = status;
      return { product: productView(state, product), userErrors: [] };
    },
    productDelete: ({ input }: Args) => {
      const { id } = input as { id: string };
      const product = state.products.get(id);
      if (!product) {
        return { deletedProductId: null, shop: {}, userErrors: [{ field: ['id'], message: 'Product does not exist' }] };
      }
      state.products.delete(id);
      for (const collection of state.collections.values()) collection.productIds.delete(id);
      // The schema's productDelete: "Product media (images, videos) that are not referenced by other products" go too.
      for (const media of product.media) if (!state.mediaShown(media.id)) state.media.delete(media.id);
      return { deletedProductId: id, shop: {}, userErrors: [] };
    },
    fileDelete: ({ fileIds }: Args) => {
      const ids = fileIds as string[];
      // Refused as a whole when one file does not exist (nothing is deleted then).
      const missing = ids.findIndex((id) => !state.media.has(id));
      if (missing >= 0)
        return {
          deletedFileIds: null,
          userErrors: [
            { field: ['fileIds', String(missing)], message: 'File does not exist', code: 'FILE_DOES_NOT_EXIST' },
          ],
        };
      for (const id of ids) {
        state.media.delete(id);
        // "the mutation automatically removes those references" (the schema's fileDelete).
        for (const product of state.products.values()) product.media = product.media.filter((m) => m.id !== id);
      }
      state.deletedFiles.push(...ids);
      return { deletedFileIds: ids, userErrors: [] };
    },
    metafieldsSet: ({ metafields }: Args) => {
      const inputs = metafields as Args[];
      if (inputs.length > 25)
        return {
          metafields: null,
          userErrors: [{ field: ['metafields'], message: 'Exceeded the maximum metafields input limit of 25.' }],
        };
      const errors = inputs.flatMap((field, i) => {
        const owner = ownerOf(state, String(field.ownerId));
        if (!owner) return [{ field: ['metafields', String(i), 'ownerId'], message: 'Owner does not exist' }];
        return metafieldErrors(owner, [field], ['metafields'], (id) => state.products.has(id));
      });
      if (errors.length > 0) return { metafields: null, userErrors: errors };
      for (const field of inputs) upsertMetafields(ownerOf(state, String(field.ownerId))!, [field]);
      return { metafields: inputs.map((field) => ({ ...field, id: 'gid://shopify/Metafield/1' })), userErrors: [] };
    },
    metafieldsDelete: ({ metafields }: Args) => ({
      deletedMetafields: (metafields as { ownerId: string; namespace: string; key: string }[]).map((field) =>
        ownerOf(state, field.ownerId)?.delete(`${field.namespace}.${field.key}`) ? field : null,
      ),
      userErrors: [],
    }),
    collectionCreate: ({ collection }: Args) => {
      const input = collection as { title: string; handle?: string; image?: unknown; metafields?: Args[] };
      const { image, errors } = collectionImage(input.image, ['collection', 'image']);
      if (errors.length > 0) return { collection: null, userErrors: errors };
      let unique = input.handle ?? input.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      while ([...state.collections.values()].some((c) => c.handle === unique)) unique = `${unique}-1`;
      const made = {
        id: state.id('Collection'),
        handle: unique,
        title: input.title,
        productIds: new Set<string>(),
        image,
        metafields: new Map<string, { type: string; value: string }>(),
      };
      upsertMetafields(made.metafields, input.metafields ?? []);
      state.made.collectionImages += image ? 1 : 0;
      state.collections.set(made.id, made);
      state.made.collections++;
      return { collection: collectionView(made.id), userErrors: [] };
    },
    collectionUpdate: ({ collection }: Args) => {
      const input = collection as { id: string; image?: unknown; metafields?: Args[] };
      const target = state.collections.get(String(input.id));
      if (!target)
        return {
          collection: null,
          userErrors: [{ field: ['collection', 'id'], message: 'Collection does not exist' }],
        };
      if ('image' in input) {
        const { image, errors } = collectionImage(input.image, ['collection', 'image']);
        if (errors.length > 0) return { collection: null, userErrors: errors };
        target.image = image;
        state.made.collectionImages += image ? 1 : 0;
      }
      upsertMetafields(target.metafields, input.metafields ?? []);
      return { collection: collectionView(target.id), userErrors: [] };
    },
    collectionAddProducts: ({ id, productIds }: Args) => {
      const collection = state.collections.get(String(id));
      if (!collection)
        return { collection: null, userErrors: [{ field: ['id'], message: 'Collection does not exist' }] };
      for (const productId of productIds as string[]) collection.productIds.add(productId);
      return { collection: collectionView(collection.id), userErrors: [] };
    },
    collectionRemoveProducts: ({ id, productIds }: Args) => {
      const collection = state.collections.get(String(id));
      if (!collection) return { job: null, userErrors: [{ field: ['id'], message: 'Collection does not exist' }] };
      for (const productId of productIds as string[]) collection.productIds.delete(productId);
      return { job: { id: state.id('Job'), done: true }, userErrors: [] };
    },
    translationsRegister: ({ resourceId, translations }: Args) => {
      const product = state.products.get(String(resourceId));
      if (!product)
        return {
          translations: null,
          userErrors: [{ field: ['resourceId'], message: 'Resource does not exist', code: 'RESOURCE_NOT_FOUND' }],
        };
      const content = new Map(state.translatableContent(product).map((entry) => [entry.key, entry.digest]));
      const inputs = translations as {
        locale: string;
        key: string;
        value: string;
        translatableContentDigest: string;
      }[];
      const errors = inputs.flatMap((t, i) => {
        const path = ['translations', String(i)];
        if (!SHOP_LOCALES.some((l) => l.locale === t.locale && !l.primary))
          return [
            {
              field: [...path, 'locale'],
              message: `Locale ${t.locale} is not enabled on the shop`,
              code: 'INVALID_LOCALE_FOR_SHOP',
            },
          ];
        if (!content.has(t.key))
          return [
            { field: [...path, 'key'], message: `Key ${t.key} is not translatable`, code: 'INVALID_KEY_FOR_MODEL' },
          ];
        if (content.get(t.key) !== t.translatableContentDigest)
          return [
            {
              field: [...path, 'translatableContentDigest'],
              message: 'Translatable content hash is invalid',
              code: 'INVALID_TRANSLATABLE_CONTENT',
            },
          ];
        return [];
      });
      if (errors.length > 0) return { translations: null, userErrors: errors };
      for (const t of inputs) {
        const texts = product.translations.get(t.locale) ?? new Map<string, string>();
        texts.set(t.key, t.value);
        product.translations.set(t.locale, texts);
      }
      return {
        translations: inputs.map((t) => ({ key: t.key, locale: t.locale, value: t.value, outdated: false })),
        userErrors: [],
      };
    },
    translationsRemove: ({ resourceId, translationKeys, locales }: Args) => {
      const product = state.products.get(String(resourceId));
      if (!product)
        return {
          translations: null,
          userErrors: [{ field: ['resourceId'], message: 'Resource does not exist', code: 'RESOURCE_NOT_FOUND' }],
        };
      const removed: { key: string; locale: string; outdated: boolean }[] = [];
      for (const locale of locales as string[]) {
        for (const key of translationKeys as string[]) {
          if (product.translations.get(locale)?.delete(key)) removed.push({ key, locale, outdated: false });
        }
      }
      return { translations: removed, userErrors: [] };
    },
  };
}
