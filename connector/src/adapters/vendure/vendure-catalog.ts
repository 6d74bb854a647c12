import { retireAsset } from './vendure-assets';
import { unwrap, type VendureClient } from './vendure-client';
import { shortHash, slugify } from '../common/slug';
import { categoryValue, type FacetValueRef } from './vendure-record';

/**
 * Facets, facet values and collections, found by their deterministic codes and created only
 * when missing, so that a second run reuses them. One `Catalog` lives for one adapter (one
 * request: its chunks' `write` calls) and remembers what it found (ids by code), so records
 * and chunks that share a feature value or a category ask once. A chunk's values and
 * collections are asked for all its records at once (`facetValueIds` with every record's
 * refs, `findCollections` with every path) before its records are prepared one by one; what
 * is missing is created in one request per kind (facets, values: aliased fields of one
 * document, Vendure runs them one after the other).
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
  /**
   * Reads the collections of these paths and their parents, with their featured assets, in
   * one query per 100 slugs, so that `ensureCollections` and `collectionImage` ask nothing
   * more for them (a path not found is created by `ensureCollections`).
   */
  findCollections(paths: string[][]): Promise<void>;
}

export const refKey = (ref: { facetCode: string; code: string }) => `${ref.facetCode}/${ref.code}`;

const FACETS = `query Facets($codes: [String!]) {
  facets(options: { filter: { code: { in: $codes } }, take: 100 }) { items { id code } }
}`;
const FACET_VALUES = `query FacetValues($codes: [String!]) {
  facetValues(options: { filter: { code: { in: $codes } }, take: 1000 }) { items { id code facet { code } } }
}`;

/**
 * `count` calls of one mutation as aliased fields of one document (`a0`, `a1`, ...), the k-th
 * with the variable `$i<k>` as its input: Vendure runs them one after the other, each in its
 * own transaction, so one request does what `count` would.
 */
export function aliasedMutation(name: string, field: string, inputType: string, selection: string, count: number) {
  const declared = Array.from({ length: count }, (_, k) => `$i${k}: ${inputType}`).join(', ');
  const fields = Array.from({ length: count }, (_, k) => `a${k}: ${field}(input: $i${k}) { ${selection} }`);
  return `mutation ${name}(${declared}) {\n${fields.join('\n')}\n}`;
}

/** The variables of `aliasedMutation`: `i0`, `i1`, ... */
export const aliasedInputs = (inputs: unknown[]) => Object.fromEntries(inputs.map((input, k) => [`i${k}`, input]));
const COLLECTIONS = `query Collections($slug: String!) {
  collections(options: { filter: { slug: { eq: $slug } }, take: 1 }) { items { id } }
}`;
const COLLECTIONS_BY_SLUG = `query CollectionsBySlug($slugs: [String!]) {
  collections(options: { filter: { slug: { in: $slugs } }, take: 100 }) { items { id slug featuredAsset { id tags { value } } } }
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
  /** Slugs `findCollections` found no collection for (until made). */
  const absent = new Set<string>();
  /** Collection id -> its featured asset as last read or written (null: none), for the catalog's life. */
  const featured = new Map<string, { id: string; pim: boolean } | null>();
  const featuredOf = (asset: { id: string; tags: { value: string }[] } | null) => {
    // `pim-was:` marks a picture the PIM set whose URL has newer bytes since (vendure-assets.ts).
    const pim = asset?.tags.some((t) => t.value.startsWith('pim-url:') || t.value.startsWith('pim-was:'));
    return asset && { id: asset.id, pim: pim === true };
  };

  async function facetIds(wanted: FacetValueRef[], locales: string[]) {
    const missing = [...new Set(wanted.map((r) => r.facetCode))].filter((c) => !facets.has(c));
    if (missing.length === 0) return;
    const found = await client.query<{ facets: { items: { id: string; code: string }[] } }>(FACETS, { codes: missing });
    for (const f of found.facets.items) facets.set(f.code, f.id);
    const toCreate = missing.filter((code) => !facets.has(code));
    if (toCreate.length === 0) return;
    const inputs = toCreate.map((code) => {
      const name = wanted.find((r) => r.facetCode === code)?.facetName ?? code;
      return { code, isPrivate: false, translations: locales.map((languageCode) => ({ languageCode, name })) };
    });
    const created = await client.create<Record<string, { id: string } | { errorCode: string; message: string }>>(
      aliasedMutation('CreateFacets', 'createFacet', 'CreateFacetInput!', 'id code', inputs.length),
      aliasedInputs(inputs),
    );
    for (const [i, code] of toCreate.entries()) facets.set(code, unwrap(created[`a${i}`] as { id: string }).id);
  }

  async function facetValueIds(refs: FacetValueRef[], locales: string[]) {
    const unique = [...new Map(refs.map((r) => [refKey(r), r])).values()];
    const missing = unique.filter((r) => !values.has(refKey(r)));
    if (missing.length > 0) {
      await facetIds(missing, locales);
      const codes = [...new Set(missing.map((r) => r.code))];
      for (let i = 0; i < codes.length; i += 200) {
        const found = await client.query<{
          facetValues: { items: { id: string; code: string; facet: { code: string } }[] };
        }>(FACET_VALUES, { codes: codes.slice(i, i + 200) });
        for (const v of found.facetValues.items) values.set(`${v.facet.code}/${v.code}`, v.id);
      }
      const toCreate = missing.filter((r) => !values.has(refKey(r)));
      // One list per facet (Vendure's createFacetValues puts every value into the first input's
      // facet), all facets' lists as aliased fields of one document.
      const byFacet = [...new Set(toCreate.map((r) => r.facetCode))].map((facetCode) =>
        toCreate
          .filter((r) => r.facetCode === facetCode)
          .map((r) => ({
            facetId: facets.get(r.facetCode),
            code: r.code,
            translations: locales.map((languageCode) => ({ languageCode, name: r.name })),
          })),
      );
      if (byFacet.length > 0) {
        const created = await client.create<Record<string, { id: string; code: string; facet: { code: string } }[]>>(
          aliasedMutation(
            'CreateFacetValues',
            'createFacetValues',
            '[CreateFacetValueInput!]!',
            'id code facet { code }',
            byFacet.length,
          ),
          aliasedInputs(byFacet),
        );
        for (const list of Object.values(created)) for (const v of list) values.set(`${v.facet.code}/${v.code}`, v.id);
      }
    }
    return new Map(
      unique.flatMap((r) => (values.has(refKey(r)) ? [[refKey(r), values.get(refKey(r)) as string]] : [])),
    );
  }

  async function collectionFor(path: string[], locales: string[]): Promise<string> {
    const slug = slugOf(path);
    const known = collections.get(slug);
    if (known) return known;
    // A slug `findCollections` asked for and did not find needs no second look.
    let id = absent.has(slug)
      ? undefined
      : (await client.query<{ collections: { items: { id: string }[] } }>(COLLECTIONS, { slug })).collections.items[0]
          ?.id;
    if (!id) {
      const parentId = path.length > 1 ? await collectionFor(path.slice(0, -1), locales) : undefined;
      const value = categoryValue(path);
      const valueId = (await facetValueIds([value], locales)).get(refKey(value));
      const name = path.at(-1) ?? slug;
      const created = await client.create<{ createCollection: { id: string } }>(CREATE_COLLECTION, {
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
      // Made without assets: `collectionImage` needs no read to know it has none.
      featured.set(id, null);
      absent.delete(slug);
    }
    collections.set(slug, id);
    return id;
  }

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
        featured.set(id, featuredOf(found.collection?.featuredAsset ?? null));
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
    async findCollections(paths) {
      const wanted = new Set<string>();
      for (const path of paths) for (let n = 1; n <= path.length; n++) wanted.add(slugOf(path.slice(0, n)));
      const slugs = [...wanted].filter((slug) => !collections.has(slug));
      for (let i = 0; i < slugs.length; i += 100) {
        const found = await client.query<{
          collections: {
            items: { id: string; slug: string; featuredAsset: { id: string; tags: { value: string }[] } | null }[];
          };
        }>(COLLECTIONS_BY_SLUG, { slugs: slugs.slice(i, i + 100) });
        for (const c of found.collections.items) {
          collections.set(c.slug, c.id);
          featured.set(c.id, featuredOf(c.featuredAsset));
        }
        for (const slug of slugs.slice(i, i + 100)) if (!collections.has(slug)) absent.add(slug);
      }
    },
  };
}

/** A category path's collection slug: readable, and unique by the path's hash. */
function slugOf(path: string[]): string {
  return `pim-${slugify(path.join(' ')).slice(0, 80)}-${shortHash(path.join('\u0000'))}`;
}
