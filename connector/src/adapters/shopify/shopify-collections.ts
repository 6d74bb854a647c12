import type { Product } from '../../../../src/sync/protocol/wire';
import { type CategoryImage, CategoryImageRefused, categoryImage } from '../common/category-image';
import { TargetError, type TargetMapping } from '../target-adapter';
import { OutcomeUnknown } from '../target-http';
import {
  COLLECTION_ADD_PRODUCTS,
  COLLECTION_BY_HANDLE,
  COLLECTION_CREATE,
  COLLECTION_REMOVE_PRODUCTS,
  COLLECTION_UPDATE,
  METAFIELDS_DELETE,
} from './shopify-documents';
import { failOn, isFatal, RecordFailure, type UserErrors } from './shopify-failure';
import type { GraphqlResult, ShopifyGraphql } from './shopify-graphql';

/** Handles of the collections the PIM makes; only those are ever joined or left. */
export const CATEGORY_HANDLE_PREFIX = 'pim-cat-';

/** The collection metafield holding the URL of the picture the PIM set (`pim.image_source`). */
const IMAGE_SOURCE = { namespace: 'pim', key: 'image_source' } as const;

function categoryHandle(id: string): string {
  return `${CATEGORY_HANDLE_PREFIX}${id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}`.slice(0, 255);
}

/** What collections need of the write: the mapping (image purposes) and the SSRF rule for picture links. */
export interface CollectionContext {
  mapping: TargetMapping;
  refusedUrl: (url: string) => string | null;
  /** `WriteContext.categoryPictureChanged` / `categoryPictureSent`: new bytes behind the same URL. */
  categoryPictureChanged?: (url: string) => Promise<boolean>;
  categoryPictureSent?: (url: string) => Promise<void>;
}

type Category = Product['categories'][number];

/** A category's picture; a refused URL is the record's failure on that link. */
function pictureOf(category: Category, index: number, ctx: CollectionContext): CategoryImage | null {
  try {
    return categoryImage(category, index, ctx.mapping, ctx.refusedUrl);
  } catch (err) {
    if (err instanceof CategoryImageRefused) throw new RecordFailure(err.field, err.message);
    throw err;
  }
}

/** Refuses a record with a category picture the SSRF rule refuses before anything of it is written. */
export function checkCategoryPictures(categories: Product['categories'], ctx: CollectionContext): void {
  for (const [i, category] of categories.entries()) pictureOf(category, i, ctx);
}

/** Products Shopify takes per collectionAddProducts call. */
const ADD_PAGE = 250;

/**
 * A write's collection joins gathered across its records (a round of many), then sent as one
 * collectionAddProducts per collection instead of one per product and collection.
 */
export class CollectionJoins {
  readonly byCollection = new Map<string, string[]>();

  add(collectionId: string, productId: string) {
    const products = this.byCollection.get(collectionId) ?? [];
    products.push(productId);
    this.byCollection.set(collectionId, products);
  }
}

const imageInput = (image: CategoryImage) => ({ src: image.link.url, altText: image.alt });
const sourceField = (url: string) => ({ ...IMAGE_SOURCE, type: 'url', value: url });

/**
 * The PIM's categories as manual collections, one per category (its handle from the category
 * id, its title the category's own name), found by handle or made once, cached for the
 * adapter's life. Membership goes through collectionAddProducts / collectionRemoveProducts
 * rather than productSet's `collections` list: that list replaces every membership, and would
 * take the product out of the collections the merchant put it in.
 *
 * A category's picture (common/category-image.ts) is the collection's image, fetched by Shopify
 * from the link's URL (`image.src`). The URL the PIM set is kept in the collection's metafield
 * `pim.image_source`, so the image is sent only when that URL changes or the connector finds new
 * bytes behind it (`categoryPictureChanged`, a conditional request), and removed (image null,
 * metafield deleted) when the category has no picture any more; an image the merchant set on a
 * collection without that metafield is left alone unless the category gets a picture.
 */
export function createCollections(gql: ShopifyGraphql) {
  /** handle -> the collection's id and the picture URL the PIM set there (null: none). */
  const known = new Map<string, { id: string; source: string | null }>();

  async function byHandle(handle: string) {
    const found = await gql.request<{
      collectionByIdentifier: { id: string; imageSource: { value: string } | null } | null;
    }>(COLLECTION_BY_HANDLE, { handle });
    const hit = found.data?.collectionByIdentifier;
    return hit ? { id: hit.id, source: hit.imageSource?.value ?? null } : null;
  }

  /**
   * Makes the category's collection. Shopify takes a handle already in use by adding `-1`, so a
   * create whose answer was lost is not sent again: the collection is looked up by its handle,
   * and when Shopify has not made it the record is retried later (`OutcomeUnknown`, retryable).
   */
  async function create(category: Category, handle: string, image: CategoryImage | null, field: string) {
    let created: GraphqlResult<{ collectionCreate: (UserErrors & { collection: { id: string } | null }) | null }>;
    try {
      created = await gql.request(
        COLLECTION_CREATE,
        {
          collection: {
            title: category.path[category.path.length - 1] ?? category.id,
            handle,
            ...(image ? { image: imageInput(image), metafields: [sourceField(image.link.url)] } : {}),
          },
        },
        { once: true },
      );
    } catch (err) {
      if (!(err instanceof OutcomeUnknown)) throw err;
      const made = await byHandle(handle);
      if (!made) throw err;
      return made;
    }
    const payload = created.data?.collectionCreate;
    failOn(image?.field ?? field, created, payload);
    if (!payload.collection) throw new RecordFailure(field, 'the shop made no collection');
    return { id: payload.collection.id, source: image?.link.url ?? null };
  }

  async function setImage(
    collection: { id: string; source: string | null },
    image: CategoryImage | null,
    field: string,
  ) {
    const updated = await gql.request<{ collectionUpdate: UserErrors | null }>(COLLECTION_UPDATE, {
      collection: image
        ? { id: collection.id, image: imageInput(image), metafields: [sourceField(image.link.url)] }
        : { id: collection.id, image: null },
    });
    failOn(image?.field ?? field, updated, updated.data?.collectionUpdate ?? null);
    if (!image) {
      const removed = await gql.request<{ metafieldsDelete: UserErrors | null }>(METAFIELDS_DELETE, {
        metafields: [{ ownerId: collection.id, ...IMAGE_SOURCE }],
      });
      failOn(field, removed, removed.data?.metafieldsDelete ?? null);
    }
    collection.source = image?.link.url ?? null;
  }

  async function collectionId(category: Category, index: number, ctx: CollectionContext): Promise<string> {
    const field = `product.categories.${index}`;
    const image = pictureOf(category, index, ctx);
    const handle = categoryHandle(category.id);
    let collection = known.get(handle);
    if (!collection) {
      collection = (await byHandle(handle)) ?? (await create(category, handle, image, field));
      known.set(handle, collection);
    }
    if (collection.source !== (image?.link.url ?? null)) await setImage(collection, image, field);
    else if (image && (await ctx.categoryPictureChanged?.(image.link.url))) {
      // The same URL with new bytes: Shopify fetches `src` again when the image is set again.
      await setImage(collection, image, field);
      await ctx.categoryPictureSent?.(image.link.url);
    }
    return collection.id;
  }

  /**
   * Joins the wanted collections (their pictures brought up to date) and leaves the PIM's others;
   * `current` is the product's memberships as Shopify answered them. With `joins`, the joins are
   * gathered for `join` instead of sent.
   */
  async function sync(
    productId: string,
    categories: Product['categories'],
    current: { id: string; handle: string }[],
    ctx: CollectionContext,
    joins?: CollectionJoins,
  ) {
    const wanted = new Set<string>();
    for (const [i, category] of categories.entries()) wanted.add(await collectionId(category, i, ctx));
    const have = new Set(current.map((collection) => collection.id));
    for (const id of wanted) {
      if (have.has(id)) continue;
      if (joins) {
        joins.add(id, productId);
        continue;
      }
      const added = await gql.request<{ collectionAddProducts: UserErrors | null }>(COLLECTION_ADD_PRODUCTS, {
        id,
        productIds: [productId],
      });
      failOn('product.categories', added, added.data?.collectionAddProducts ?? null);
    }
    for (const collection of current) {
      if (wanted.has(collection.id) || !collection.handle.startsWith(CATEGORY_HANDLE_PREFIX)) continue;
      const removed = await gql.request<{ collectionRemoveProducts: UserErrors | null }>(COLLECTION_REMOVE_PRODUCTS, {
        id: collection.id,
        productIds: [productId],
      });
      failOn('product.categories', removed, removed.data?.collectionRemoveProducts ?? null);
    }
  }

  /**
   * For a record whose placements and links are as last written (sync is skipped then): the
   * pictures whose bytes changed behind the same URL are set again (collectionId does it).
   */
  async function refreshPictures(categories: Product['categories'], ctx: CollectionContext) {
    if (!ctx.categoryPictureChanged) return;
    for (const [i, category] of categories.entries()) {
      const image = pictureOf(category, i, ctx);
      if (image && (await ctx.categoryPictureChanged(image.link.url))) await collectionId(category, i, ctx);
    }
  }

  /** Sends gathered joins, a collection's products 250 a call; answers the failure per product id. */
  async function join(joins: CollectionJoins): Promise<Map<string, RecordFailure | TargetError>> {
    const failures = new Map<string, RecordFailure | TargetError>();
    for (const [id, products] of joins.byCollection) {
      for (let i = 0; i < products.length; i += ADD_PAGE) {
        const page = products.slice(i, i + ADD_PAGE);
        try {
          const added = await gql.request<{ collectionAddProducts: UserErrors | null }>(COLLECTION_ADD_PRODUCTS, {
            id,
            productIds: page,
          });
          failOn('product.categories', added, added.data?.collectionAddProducts ?? null);
        } catch (error) {
          if (!(error instanceof RecordFailure || error instanceof TargetError) || isFatal(error)) throw error;
          for (const product of page) failures.set(product, error);
        }
      }
    }
    return failures;
  }

  return { sync, refreshPictures, join };
}
