import { createHash, randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';

/**
 * The in-memory shop behind the Shopify contract server: products with variants, options,
 * metafields, media and translations, manual collections, and the resolvers of the queries and
 * mutations the adapter uses, answering in the shapes the pinned schema defines (graphql-js
 * executes them against it, so a field of the wrong type or a null where the schema says
 * non-null fails the request). Behaviour follows Shopify's documentation of each mutation:
 * productSet replaces list fields it is given (variants, options, files) and leaves those it is
 * not given (collections); metafields are upserted; translations need the digest of the
 * content they translate.
 */
export interface ShopVariant {
  id: string;
  sku: string | null;
  price: string;
  barcode: string | null;
  taxable: boolean;
  options: { optionName: string; name: string }[];
  metafields: Map<string, { type: string; value: string }>;
}

export interface ShopProduct {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  vendor: string;
  status: string;
  tags: string[];
  options: { name: string; values: string[] }[];
  variants: ShopVariant[];
  metafields: Map<string, { type: string; value: string }>;
  media: { id: string; originalSource: string }[];
  translations: Map<string, Map<string, string>>;
}

export interface ShopCollection {
  id: string;
  handle: string;
  title: string;
  productIds: Set<string>;
  /** The collection's image as Shopify keeps it after fetching `src`. */
  image: { src: string; altText: string | null } | null;
  metafields: Map<string, { type: string; value: string }>;
}

export const SHOP_LOCALES = [
  { locale: 'de', primary: true, published: true },
  { locale: 'en', primary: false, published: true },
  { locale: 'fr', primary: false, published: true },
];

export const digestOf = (value: string) => createHash('sha256').update(value).digest('hex');

export class ShopState {
  products = new Map<string, ShopProduct>();
  collections = new Map<string, ShopCollection>();
  /** Every file (media) in the shop by id; a product's media point into it. */
  media = new Map<string, { id: string; originalSource: string; filename?: string }>();
  /** A Plus shop's B2B price list (null on other plans): fixed prices and quantity price breaks per variant. */
  priceList: {
    id: string;
    name: string;
    currency: string;
    fixed: Map<string, string>;
    breaks: Map<string, { minimumQuantity: number; price: string }[]>;
  } | null = null;
  /** The files `fileDelete` deleted, in order. */
  deletedFiles: string[] = [];
  /** Everything ever made, for "a second run makes nothing". */
  made = { products: 0, variants: 0, media: 0, collections: 0, collectionImages: 0 };
  private nextId = 1000;

  id(type: string): string {
    return `gid://shopify/${type}/${this.nextId++}`;
  }

  /** A product the merchant made in the shop itself: no `pim.sku` marker. */
  addShopOwnedProduct(sku: string, title: string): ShopProduct {
    const product: ShopProduct = {
      id: this.id('Product'),
      handle: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      title,
      descriptionHtml: '',
      vendor: 'Shop',
      status: 'ACTIVE',
      tags: [],
      options: [{ name: 'Title', values: ['Default Title'] }],
      variants: [],
      metafields: new Map(),
      media: [],
      translations: new Map(),
    };
    product.variants.push(
      this.variant({ sku, price: '25.00', optionValues: [{ optionName: 'Title', name: 'Default Title' }] }),
    );
    this.products.set(product.id, product);
    return product;
  }

  variant(input: Record<string, unknown>): ShopVariant {
    this.made.variants++;
    return {
      id: this.id('ProductVariant'),
      sku: (input.sku as string | undefined) ?? null,
      price: (input.price as string | undefined) ?? '0.00',
      barcode: (input.barcode as string | null | undefined) ?? null,
      taxable: (input.taxable as boolean | undefined) ?? true,
      options: (input.optionValues as { optionName: string; name: string }[]).map((o) => ({ ...o })),
      metafields: new Map(),
    };
  }

  /**
   * The name a new file gets: `FileSetInput.filename` as given, or, when a file of that name
   * exists, with a UUID appended (the schema's default `duplicateResolutionMode: APPEND_UUID`).
   */
  freeFilename(wanted: string): string {
    const taken = [...this.media.values()].some((media) => media.filename === wanted);
    if (!taken) return wanted;
    const dot = wanted.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, ''];
    return `${stem}_${randomUUID()}${extension}`;
  }

  /**
   * The files `files(query:)` answers for `filename:<name>` terms joined with OR (a trailing
   * `*` matches names beginning so, as in Shopify's search syntax), oldest first.
   */
  filesNamed(query: string) {
    const terms = [...query.matchAll(/filename:("?)([^\s"]+)\1/g)].map((match) => match[2]!);
    return [...this.media.values()].filter(({ filename }) =>
      terms.some((term) =>
        filename === undefined
          ? false
          : term.endsWith('*')
            ? filename.startsWith(term.slice(0, -1))
            : filename === term,
      ),
    );
  }

  /** Whether a product shows the file. */
  mediaShown(id: string): boolean {
    return [...this.products.values()].some((product) => product.media.some((media) => media.id === id));
  }

  /** Files in the library that no product shows. */
  unshownMedia(): string[] {
    return [...this.media.keys()].filter((id) => !this.mediaShown(id));
  }

  productByHandle(handle: string): ShopProduct | undefined {
    return [...this.products.values()].find((product) => product.handle === handle);
  }

  variantById(id: string): { product: ShopProduct; variant: ShopVariant } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.id === id);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  /** The translatable content of a product, as `translatableResource` answers it. */
  translatableContent(product: ShopProduct) {
    return [
      {
        key: 'title',
        value: product.title,
        digest: digestOf(product.title),
        locale: 'de',
        type: 'SINGLE_LINE_TEXT_FIELD',
      },
      {
        key: 'body_html',
        value: product.descriptionHtml,
        digest: digestOf(product.descriptionHtml),
        locale: 'de',
        type: 'HTML',
      },
    ];
  }
}

/** A GraphQL error as Shopify shapes them (`extensions.code`). */
export function shopifyError(message: string, code: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}
