import { retireAsset } from './vendure-assets';
import { unwrap, type VendureClient } from './vendure-client';
import { shortHash, slugify } from '../common/slug';
import { categoryValue, type FacetValueRef } from './vendure-record';

/**
 * Facets, facet values and collections, found by their deterministic codes and created only
 * when missing, so that a second run reuses them. One `Catalog` lives for one `write` call and
 * remembers what it found (ids by code), so records of a batch that share a feature value ask
 * once.
 */
export interface Catalog {
  /** Facet value ids for the refs, created where missing; keyed `facetCode/code`. */
  facetValueIds(refs: FacetValueRef[], locales: string[]): Promise<Map<string, string>>;
  /** The collection of every category path (and its parents), each filtering on the path's facet value. */
  ensureCollections(paths: string[][], locales: string[]): Promise<void>;
  /**
   * Makes `assetId` the featured (and only) asset of the path's collection, or, with null,
   * removes a featured asset the PIM set (tagged `pim-url:` or `pim-was:`); a merchant's own asset is left
   * alone then. Writes only when the collection's featured asset differs. A replaced picture of
   * the PIM's is deleted where nothing else shows it (`retireAsset`).
   */
  collectionImage(path: string[], assetId: string | null, locales: string[]): Promise<void>;
}

export const refKey = (ref: { facetCode: string; code: string }) => `${ref.facetCode}/${ref.code}`;

const FACETS = `query Facets($codes: [String!]) {
  facets(options: { filter: { code: { in: $codes } }, take: 100 }) { items { id code } }
}`;
const FACET_VALUES = `query FacetValues($codes: [String!]) {
  facetValues(options: { filter: { code: { in: $codes } }, take: 1000 }) { items { id code facet { code } } }
}`;
const CREATE_FACET = `mutation CreateFacet($input: CreateFacetInput!) { createFacet(input: $input) { id code } }`;
const CREATE_VALUES = `mutation CreateFacetValues($input: [CreateFacetValueInput!]!) {
  createFacetValues(input: $input) { id code facet { code } }
}`;
const COLLECTIONS = `query Collections($slug: String!) {
  collections(options: { filter: { slug: { eq: $slug } }, take: 1 }) { items { id } }
}`;
const COLLECTION_IMAGE = `query CollectionImage($id: ID!) {
  collection(id: $id) { id featuredAsset { id tags { value } } }
}`;
const UPDATE_COLLECTION = `mutation UpdateCollection($input: UpdateCollectionInput!) { updateCollection(input: $input) { id } }`;
const CREATE_COLLECTION = `mutation CreateCollection($input: CreateCollectionInput!) { createCollection(input: $input) { id } }`;

export function createCatalog(client: VendureClient): Catalog {
  const facets = new Map<string, string>();
  const values = new Map<string, string>();
  const collections = new Map<string, string>();

  async function facetIds(wanted: FacetValueRef[], locales: string[]) {
    const missing = [...new Set(wanted.map((r) => r.facetCode))].filter((c) => !facets.has(c));
    if (missing.length === 0) return;
    const found = await client.query<{ facets: { items: { id: string; code: string }[] } }>(FACETS, { codes: missing });
    for (const f of found.facets.items) facets.set(f.code, f.id);
    for (const code of missing) {
      if (facets.has(code)) continue;
      const name = wanted.find((r) => r.facetCode === code)?.facetName ?? code;
      const created = await client.query<{ createFacet: { id: string; code: string } }>(CREATE_FACET, {
        input: { code, isPrivate: false, translations: locales.map((languageCode) => ({ languageCode, name })) },
      });
      facets.set(code, unwrap(created.createFacet).id);
    }
  }

  async function facetValueIds(refs: FacetValueRef[], locales: string[]) {
    const unique = [...new Map(refs.map((r) => [refKey(r), r])).values()];
    const missing = unique.filter((r) => !values.has(refKey(r)));
    if (missing.length > 0) {
      await facetIds(missing, locales);
      const found = await client.query<{
        facetValues: { items: { id: string; code: string; facet: { code: string } }[] };
      }>(FACET_VALUES, { codes: missing.map((r) => r.code) });
      for (const v of found.facetValues.items) values.set(`${v.facet.code}/${v.code}`, v.id);
      const toCreate = missing.filter((r) => !values.has(refKey(r)));
      // One call per facet: Vendure's createFacetValues puts every value into the first input's facet.
      for (const facetCode of new Set(toCreate.map((r) => r.facetCode))) {
        const created = await client.query<{
          createFacetValues: { id: string; code: string; facet: { code: string } }[];
        }>(CREATE_VALUES, {
          input: toCreate
            .filter((r) => r.facetCode === facetCode)
            .map((r) => ({
              facetId: facets.get(r.facetCode),
              code: r.code,
              translations: locales.map((languageCode) => ({ languageCode, name: r.name })),
            })),
        });
        for (const v of created.createFacetValues) values.set(`${v.facet.code}/${v.code}`, v.id);
      }
    }
    return new Map(
      unique.flatMap((r) => (values.has(refKey(r)) ? [[refKey(r), values.get(refKey(r)) as string]] : [])),
    );
  }

  async function collectionFor(path: string[], locales: string[]): Promise<string> {
    const slug = `pim-${slugify(path.join(' ')).slice(0, 80)}-${shortHash(path.join('\u0000'))}`;
    const known = collections.get(slug);
    if (known) return known;
    const found = await client.query<{ collections: { items: { id: string }[] } }>(COLLECTIONS, { slug });
    let id = found.collections.items[0]?.id;
    if (!id) {
      const parentId = path.length > 1 ? await collectionFor(path.slice(0, -1), locales) : undefined;
      const value = categoryValue(path);
      const valueId = (await facetValueIds([value], locales)).get(refKey(value));
      const name = path.at(-1) ?? slug;
      const created = await client.query<{ createCollection: { id: string } }>(CREATE_COLLECTION, {
        input: {
          parentId,
          isPrivate: false,
          inheritFilters: false,
          filters: [
            {
              code: 'facet-value-filter',
              arguments: [
                { name: 'facetValueIds', value: JSON.stringify([valueId]) },
                { name: 'containsAny', value: 'true' },
                { name: 'combineWithAnd', value: 'true' },
              ],
            },
          ],
          translations: locales.map((languageCode) => ({ languageCode, name, slug, description: '' })),
        },
      });
      id = created.createCollection.id;
    }
    collections.set(slug, id);
    return id;
  }

  /** Collection id -> its featured asset as last read or written (null: none), for the write's life. */
  const featured = new Map<string, { id: string; pim: boolean } | null>();

  return {
    facetValueIds,
    async ensureCollections(paths, locales) {
      for (const path of paths) await collectionFor(path, locales);
    },
    async collectionImage(path, assetId, locales) {
      const id = await collectionFor(path, locales);
      if (!featured.has(id)) {
        const found = await client.query<{
          collection: { featuredAsset: { id: string; tags: { value: string }[] } | null } | null;
        }>(COLLECTION_IMAGE, { id });
        const asset = found.collection?.featuredAsset ?? null;
        // `pim-was:` marks a picture the PIM set whose URL has newer bytes since (vendure-assets.ts).
        const pim = asset?.tags.some((t) => t.value.startsWith('pim-url:') || t.value.startsWith('pim-was:'));
        featured.set(id, asset && { id: asset.id, pim: pim === true });
      }
      const current = featured.get(id) ?? null;
      if (assetId ? current?.id === assetId : !current?.pim) return;
      // An empty asset list (with no featured asset) is how Vendure takes a collection's image away.
      await client.query(UPDATE_COLLECTION, {
        input: assetId
          ? { id, featuredAssetId: assetId, assetIds: [assetId] }
          : { id, featuredAssetId: null, assetIds: [] },
      });
      featured.set(id, assetId ? { id: assetId, pim: true } : null);
      // A picture the PIM replaced goes from the library once nothing shows it (vendure-assets.ts).
      if (current?.pim && current.id !== assetId) await retireAsset(client, current.id);
    },
  };
}
