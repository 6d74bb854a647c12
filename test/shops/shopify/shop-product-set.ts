import type { ShopProduct, ShopState } from './shop-state';
import { productView } from './shop-views';

type Input = Record<string, unknown>;
type UserError = { field: string[]; message: string; code: string };

/**
 * Metafield upserts: a key keeps its type (Shopify refuses a value of another type on an
 * existing metafield); a `list.product_reference` is a JSON array of GIDs of products the shop
 * holds (`productExists`), at most 128 (https://shopify.dev/docs/apps/build/custom-data/metafields/list-of-data-types).
 */
export function metafieldErrors(
  existing: Map<string, { type: string; value: string }>,
  inputs: Input[],
  path: string[],
  productExists: (id: string) => boolean = () => false,
): UserError[] {
  return inputs.flatMap((field, i) => {
    const name = `${field.namespace ?? 'app'}.${field.key}`;
    const before = existing.get(name);
    if (before && field.type !== undefined && before.type !== field.type) {
      return [
        {
          field: [...path, String(i), 'type'],
          message: `Type '${field.type}' must be consistent with the existing metafield's type '${before.type}'`,
          code: 'INVALID_METAFIELD',
        },
      ];
    }
    if (field.type === 'list.product_reference') {
      let ids: unknown;
      try {
        ids = JSON.parse(String(field.value));
      } catch {
        ids = null;
      }
      const valid =
        Array.isArray(ids) &&
        ids.length > 0 &&
        ids.length <= 128 &&
        ids.every((id) => typeof id === 'string' && id.startsWith('gid://shopify/Product/') && productExists(id));
      if (!valid)
        return [
          {
            field: [...path, String(i), 'value'],
            message: 'Value must be a list of existing product references',
            code: 'INVALID_METAFIELD',
          },
        ];
    }
    if (field.type === 'number_decimal' && !/^-?\d+(\.\d+)?$/.test(String(field.value))) {
      return [
        { field: [...path, String(i), 'value'], message: 'Value must be a decimal number', code: 'INVALID_METAFIELD' },
      ];
    }
    return [];
  });
}

export function upsertMetafields(target: Map<string, { type: string; value: string }>, inputs: Input[]) {
  for (const field of inputs) {
    const name = `${field.namespace ?? 'app'}.${field.key}`;
    target.set(name, { type: String(field.type ?? target.get(name)?.type), value: String(field.value) });
  }
}

function validate(state: ShopState, product: ShopProduct | undefined, input: Input): UserError[] {
  const errors: UserError[] = [];
  const title = input.title as string | undefined;
  if (title !== undefined && title.length > 255) {
    errors.push({
      field: ['input', 'title'],
      message: 'Title is too long (maximum is 255 characters)',
      code: 'INVALID_PRODUCT',
    });
  }
  if (!product && !title)
    errors.push({ field: ['input', 'title'], message: "Title can't be blank", code: 'MISSING_FIELD_REQUIRED' });
  const options = input.productOptions as { name: string; values: { name: string }[] }[] | undefined;
  const variants = input.variants as Input[] | undefined;
  if (variants && !options) {
    errors.push({
      field: ['input', 'productOptions'],
      message: 'Product options input is required when updating variants',
      code: 'PRODUCT_OPTIONS_INPUT_MISSING',
    });
  }
  if (options && options.length > 3)
    errors.push({
      field: ['input', 'productOptions'],
      message: 'Can only specify a maximum of 3 options',
      code: 'OPTIONS_OVER_LIMIT',
    });
  const combos = new Set<string>();
  (variants ?? []).forEach((variant, i) => {
    const path = ['input', 'variants', String(i)];
    const id = variant.id as string | undefined;
    if (id && !product?.variants.some((v) => v.id === id)) {
      errors.push({
        field: [...path, 'id'],
        message: 'Product variant does not exist',
        code: 'PRODUCT_VARIANT_DOES_NOT_EXIST',
      });
    }
    const values = variant.optionValues as { optionName: string; name: string }[];
    for (const value of values) {
      const option = options?.find((o) => o.name === value.optionName);
      if (!option?.values.some((v) => v.name === value.name)) {
        errors.push({
          field: [...path, 'optionValues'],
          message: `Option value '${value.name}' does not exist`,
          code: 'OPTION_VALUE_DOES_NOT_EXIST',
        });
      }
    }
    const combo = JSON.stringify(values.map((v) => [v.optionName, v.name]));
    if (combos.has(combo))
      errors.push({
        field: [...path, 'optionValues'],
        message: 'The variant already exists',
        code: 'DUPLICATED_OPTION_VALUE',
      });
    combos.add(combo);
    if (variant.price !== undefined && !/^\d+(\.\d+)?$/.test(String(variant.price))) {
      errors.push({ field: [...path, 'price'], message: 'Price is invalid', code: 'INVALID_VARIANT' });
    }
    const existing = product?.variants.find((v) => v.id === id);
    errors.push(
      ...metafieldErrors(existing?.metafields ?? new Map(), (variant.metafields as Input[]) ?? [], [
        ...path,
        'metafields',
      ]),
    );
  });
  errors.push(
    ...metafieldErrors(
      product?.metafields ?? new Map(),
      (input.metafields as Input[]) ?? [],
      ['input', 'metafields'],
      (id) => state.products.has(id),
    ),
  );
  for (const [i, file] of ((input.files as Input[]) ?? []).entries()) {
    if (file.id && !state.media.has(String(file.id)))
      errors.push({
        field: ['input', 'files', String(i), 'id'],
        message: 'File does not exist',
        code: 'INVALID_INPUT',
      });
  }
  return errors;
}

/**
 * productSet, synchronous: upsert by `identifier` (id: update, handle: update or create), then
 * the list fields it is given replace what the product had (variants matched by id, options,
 * files: an `id` keeps a file, an `originalSource` makes a new one); metafields are upserted.
 */
export function productSet(state: ShopState, args: { identifier?: Input | null; input: Input }) {
  const { identifier, input } = args;
  let product = identifier?.id
    ? state.products.get(String(identifier.id))
    : identifier?.handle
      ? state.productByHandle(String(identifier.handle))
      : undefined;
  if (identifier?.id && !product) {
    return {
      product: null,
      userErrors: [{ field: ['identifier', 'id'], message: 'Product does not exist', code: 'PRODUCT_DOES_NOT_EXIST' }],
    };
  }
  const errors = validate(state, product, input);
  if (errors.length > 0) return { product: null, userErrors: errors };

  if (!product) {
    state.made.products++;
    let handle = String(
      input.handle ??
        identifier?.handle ??
        String(input.title)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
    );
    while (state.productByHandle(handle)) handle = `${handle}-1`;
    product = {
      id: state.id('Product'),
      handle,
      title: '',
      descriptionHtml: '',
      vendor: '',
      status: 'ACTIVE',
      tags: [],
      options: [],
      variants: [],
      metafields: new Map(),
      media: [],
      translations: new Map(),
    };
    state.products.set(product.id, product);
  }
  const target = product;
  for (const key of ['title', 'descriptionHtml', 'vendor', 'status', 'tags', 'handle'] as const) {
    if (input[key] !== undefined) (target as unknown as Input)[key] = input[key];
  }
  const options = input.productOptions as { name: string; values: { name: string }[] }[] | undefined;
  if (options) target.options = options.map((o) => ({ name: o.name, values: o.values.map((v) => v.name) }));
  if (input.variants) {
    target.variants = (input.variants as Input[]).map((variantInput) => {
      const existing = target.variants.find((v) => v.id === variantInput.id);
      const variant = existing ?? state.variant(variantInput);
      variant.sku = (variantInput.sku as string | undefined) ?? variant.sku;
      variant.price = (variantInput.price as string | undefined) ?? variant.price;
      variant.barcode = (variantInput.barcode as string | null | undefined) ?? variant.barcode;
      variant.taxable = (variantInput.taxable as boolean | undefined) ?? variant.taxable;
      variant.options = (variantInput.optionValues as { optionName: string; name: string }[]).map((o) => ({
        optionName: o.optionName,
        name: o.name,
      }));
      upsertMetafields(variant.metafields, (variantInput.metafields as Input[]) ?? []);
      return variant;
    });
  }
  upsertMetafields(target.metafields, (input.metafields as Input[]) ?? []);
  if (input.files) {
    target.media = (input.files as Input[]).map((file) => {
      if (file.id) return state.media.get(String(file.id))!;
      state.made.media++;
      const source = String(file.originalSource);
      const media = {
        id: state.id('MediaImage'),
        originalSource: source,
        filename: state.freeFilename(file.filename ? String(file.filename) : (source.split('/').pop() ?? 'file')),
      };
      state.media.set(media.id, media);
      return media;
    });
  }
  if (input.collections) {
    for (const collection of state.collections.values()) {
      if ((input.collections as string[]).includes(collection.id)) collection.productIds.add(target.id);
      else collection.productIds.delete(target.id);
    }
  }
  return { product: productView(state, target), productSetOperation: null, userErrors: [] };
}
