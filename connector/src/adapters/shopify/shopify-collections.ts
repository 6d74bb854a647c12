import type { Product } from '../../../../src/sync/protocol/wire';
import {
  COLLECTION_ADD_PRODUCTS,
  COLLECTION_BY_HANDLE,
  COLLECTION_CREATE,
  COLLECTION_REMOVE_PRODUCTS,
} from './shopify-documents';
import { failOn, RecordFailure, type UserErrors } from './shopify-failure';
import type { ShopifyGraphql } from './shopify-graphql';

/** Handles of the collections the PIM makes; only those are ever joined or left. */
export const CATEGORY_HANDLE_PREFIX = 'pim-cat-';

function categoryHandle(id: string): string {
  return `${CATEGORY_HANDLE_PREFIX}${id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')}`.slice(0, 255);
}

/**
 * The PIM's categories as manual collections, one per category (its handle from the category
 * id, its title the category's own name), found by handle or made once, cached for the
 * adapter's life. Membership goes through collectionAddProducts / collectionRemoveProducts
 * rather than productSet's `collections` list: that list replaces every membership, and would
 * take the product out of the collections the merchant put it in.
 */
export function createCollections(gql: ShopifyGraphql) {
  const ids = new Map<string, string>();

  async function collectionId(category: Product['categories'][number], field: string): Promise<string> {
    const handle = categoryHandle(category.id);
    const cached = ids.get(handle);
    if (cached) return cached;
    const found = await gql.request<{ collectionByIdentifier: { id: string } | null }>(COLLECTION_BY_HANDLE, {
      handle,
    });
    let id = found.data?.collectionByIdentifier?.id;
    if (!id) {
      const created = await gql.request<{
        collectionCreate: (UserErrors & { collection: { id: string } | null }) | null;
      }>(COLLECTION_CREATE, { collection: { title: category.path[category.path.length - 1] ?? category.id, handle } });
      const payload = created.data?.collectionCreate;
      failOn(field, created, payload);
      if (!payload.collection) throw new RecordFailure(field, 'the shop made no collection');
      id = payload.collection.id;
    }
    ids.set(handle, id);
    return id;
  }

  /** Joins the wanted collections and leaves the PIM's others; `current` is the product's memberships as Shopify answered them. */
  async function sync(productId: string, categories: Product['categories'], current: { id: string; handle: string }[]) {
    const wanted = new Set<string>();
    for (const [i, category] of categories.entries())
      wanted.add(await collectionId(category, `product.categories.${i}`));
    const have = new Set(current.map((collection) => collection.id));
    for (const id of wanted) {
      if (have.has(id)) continue;
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

  return { sync };
}
