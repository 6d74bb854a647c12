import type { MediaLink, MediaRef } from '../../../../src/sync/protocol/wire';
import { unwrap, VendureRefusal, type VendureClient } from './vendure-client';

/**
 * Images as Vendure assets, deduplicated by content hash: an asset carries the tag
 * `sha256:<hash>`, so the same bytes are uploaded once whatever product uses them, and found
 * again after a lost mapping. Ids the mirror already has (`TargetIds.media`) are checked to
 * still exist before they are linked.
 */
const ASSETS_BY_ID = `query AssetsById($ids: [String!]) {
  assets(options: { filter: { id: { in: $ids } }, take: 100 }) { items { id } }
}`;
const ASSETS_BY_TAG = `query AssetsByTag($tags: [String!]) {
  assets(options: { tags: $tags, tagsOperator: OR, take: 100 }) { items { id tags { value } } }
}`;
const CREATE_ASSETS = `mutation CreateAssets($input: [CreateAssetInput!]!) {
  createAssets(input: $input) {
    ... on Asset { id }
    ... on ErrorResult { errorCode message }
  }
}`;

export const hashTag = (sha256: string) => `sha256:${sha256}`;
/**
 * An asset uploaded as a category picture that no product image has linked yet (a product image
 * of the same bytes finds it by its hash and takes the tag away): only such an asset is deleted
 * once it is replaced (`retireAsset`), as no product's gallery can show it.
 */
export const PICTURE_ONLY = 'pim-picture-only';

/**
 * The assets of a chunk's images by content hash, found by their tags once for the chunk
 * (`assetsByHash`) instead of once per record; the uploads of the chunk's records join it, so
 * a second record with the same new image finds the first one's upload.
 */
export interface ChunkAssets {
  /** Content hash -> asset id. */
  ids: Map<string, string>;
  /** The hashes asked for (found or not). */
  asked: Set<string>;
  /** Asset id -> its tags, for the assets found that carry PICTURE_ONLY. */
  pictureOnly: Map<string, string[]>;
}

/** The assets tagged with these content hashes, one query per 50 hashes. */
export async function assetsByHash(client: VendureClient, hashes: string[]): Promise<ChunkAssets> {
  const chunk: ChunkAssets = { ids: new Map(), asked: new Set(), pictureOnly: new Map() };
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 50) {
    const page = unique.slice(i, i + 50);
    const tagged = await client.query<{ assets: { items: { id: string; tags: { value: string }[] }[] } }>(
      ASSETS_BY_TAG,
      { tags: page.map(hashTag) },
    );
    addTagged(chunk.ids, tagged.assets.items, chunk.pictureOnly);
    for (const sha of page) chunk.asked.add(sha);
  }
  return chunk;
}

/** Adds the assets' content hashes to `ids`, and those still marked PICTURE_ONLY to `pictureOnly` (id -> tags). */
function addTagged(
  ids: Map<string, string>,
  assets: { id: string; tags: { value: string }[] }[],
  pictureOnly: Map<string, string[]>,
) {
  for (const asset of assets) {
    const values = asset.tags.map((t) => t.value);
    for (const tag of values) {
      const sha = tag.startsWith('sha256:') ? tag.slice(7) : null;
      if (sha && !ids.has(sha)) ids.set(sha, asset.id);
    }
    if (values.includes(PICTURE_ONLY)) pictureOnly.set(asset.id, values);
  }
}

/** The asset id of every image, uploading the ones the shop lacks; throws a refusal naming the image's index. */
export async function ensureAssets(
  client: VendureClient,
  refs: MediaRef[],
  known: Record<string, string>,
  bytes: (ref: MediaRef) => Promise<Blob>,
  /** The known ids already checked to exist (`aliveAssets`, read once per chunk); without it they are read here. */
  checked: Set<string> | null = null,
  /** The chunk's images found by hash (`assetsByHash`); hashes it asked for are not asked again. */
  chunk: ChunkAssets | null = null,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const unique = [...new Map(refs.map((r) => [r.sha256, r])).values()];
  if (unique.length === 0) return ids;

  const knownIds = unique.map((r) => known[r.sha256]).filter((id): id is string => Boolean(id));
  if (knownIds.length > 0) {
    const alive = checked ?? (await aliveAssets(client, knownIds));
    for (const r of unique) {
      const id = known[r.sha256];
      if (id && alive.has(id)) ids.set(r.sha256, id);
    }
  }

  for (const r of unique) {
    const id = chunk?.ids.get(r.sha256);
    if (id && !ids.has(r.sha256)) ids.set(r.sha256, id);
  }
  let missing = unique.filter((r) => !ids.has(r.sha256));
  const pictureOnly = chunk?.pictureOnly ?? new Map<string, string[]>();
  const ask = missing.filter((r) => !chunk?.asked.has(r.sha256));
  if (ask.length > 0) {
    const tagged = await client.query<{ assets: { items: { id: string; tags: { value: string }[] }[] } }>(
      ASSETS_BY_TAG,
      { tags: ask.map((r) => hashTag(r.sha256)) },
    );
    addTagged(ids, tagged.assets.items, pictureOnly);
    missing = missing.filter((r) => !ids.has(r.sha256));
  }
  // A category picture's asset becomes a product image too: never deleted as a replaced picture.
  for (const id of new Set(ids.values())) {
    const tags = pictureOnly.get(id);
    if (!tags) continue;
    await client.query(UPDATE_ASSET_TAGS, { input: { id, tags: tags.filter((v) => v !== PICTURE_ONLY) } });
    pictureOnly.delete(id);
  }

  for (const ref of missing) {
    const blob = await bytes(ref);
    const typed = blob.type ? blob : new Blob([blob], { type: ref.contentType });
    const created = await client.upload<{ createAssets: ({ id: string } | { errorCode: string; message: string })[] }>(
      CREATE_ASSETS,
      [{ file: null, tags: [hashTag(ref.sha256)] }],
      [{ blob: typed, fileName: ref.fileName }],
    );
    const result = created.createAssets[0];
    if (!result) throw new VendureRefusal(`Vendure stored no asset for ${ref.fileName}`);
    ids.set(ref.sha256, unwrap(result).id);
    chunk?.ids.set(ref.sha256, unwrap(result).id);
  }
  return ids;
}

/** Which of these asset ids the shop still has: one query per 100 ids. */
export async function aliveAssets(client: VendureClient, ids: string[]): Promise<Set<string>> {
  const alive = new Set<string>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    const found = await client.query<{ assets: { items: { id: string }[] } }>(ASSETS_BY_ID, {
      ids: unique.slice(i, i + 100),
    });
    for (const a of found.assets.items) alive.add(a.id);
  }
  return alive;
}

const UPDATE_ASSET_TAGS = `mutation TagAsset($input: UpdateAssetInput!) {
  updateAsset(input: $input) { id }
}`;

/** A category picture's asset, and whether it replaced the asset of older bytes behind the same URL. */
export interface LinkAsset {
  id: string;
  renewed: boolean;
}

type TaggedAssets = { assets: { items: { id: string; tags: { value: string }[] }[] } };

/**
 * A category picture's asset (common/category-image.ts), shared with product images where the
 * bytes are the same (docs/shops.md "Category images"). A link has no content hash, so its
 * asset carries the tag `pim-url:<sha256 of the URL>` and is found again by it without a
 * fetch, whatever category or run brings it. Only when no asset has that tag are the link's
 * bytes fetched (`WriteContext.linkBytes`, under the SSRF rule) and hashed: an asset with those
 * bytes already (a product image, tag `sha256:<hash>`) gets the URL's tag too and is the
 * picture; else the bytes are uploaded once, tagged with both, so a product image of the same
 * bytes later finds this asset by its hash (`ensureAssets`) instead of uploading a second one.
 *
 * New bytes behind the same URL (`changed`, `WriteContext.categoryPictureChanged`: the
 * connector's conditional request, media/picture-revalidation.ts): Vendure cannot replace an
 * asset's file, so the new bytes become an asset as above (or the one that has them already)
 * and the URL's tag moves to it from the old one, which stays in the library (a product image
 * may show those bytes) tagged `pim-was:<sha256 of the URL>` instead. `renewed` says so; the caller makes it the collection's
 * featured asset (which retires the old one where nothing else shows it, `retireAsset`) and then
 * reports it sent. A write that fails after the tag moved asks again
 * next time and finds the new asset by its hash: nothing is uploaded twice.
 */
export async function ensureLinkAsset(
  client: VendureClient,
  link: MediaLink,
  bytes: (link: MediaLink) => Promise<Blob>,
  changed: (url: string) => Promise<boolean> = async () => false,
): Promise<LinkAsset> {
  const tag = `pim-url:${await sha256Hex(new TextEncoder().encode(link.url))}`;
  const tagged = await client.query<TaggedAssets>(ASSETS_BY_TAG, { tags: [tag] });
  const found = tagged.assets.items[0];
  if (found && !(await changed(link.url))) return { id: found.id, renewed: false };
  const id = await assetOfBytes(client, link, tag, await bytes(link));
  // The old asset keeps a mark that the PIM set it (`pim-was:`), so a collection still showing
  // it (not written since) can have it taken away like any picture the PIM set.
  const was = tag.replace(/^pim-url:/, 'pim-was:');
  for (const old of tagged.assets.items) {
    if (old.id === id) continue;
    const kept = old.tags.map((t) => t.value).filter((value) => value !== tag && value !== was);
    await client.query(UPDATE_ASSET_TAGS, { input: { id: old.id, tags: [...kept, was] } });
  }
  return { id, renewed: found !== undefined };
}

/** The asset of these bytes with the URL's tag: one with the bytes already (tagged too), else uploaded. */
async function assetOfBytes(client: VendureClient, link: MediaLink, tag: string, blob: Blob): Promise<string> {
  const contentTag = hashTag(await sha256Hex(new Uint8Array(await blob.arrayBuffer())));
  const same = await client.query<TaggedAssets>(ASSETS_BY_TAG, { tags: [contentTag] });
  const shared = same.assets.items[0];
  if (shared) {
    const tags = shared.tags.map((t) => t.value);
    if (!tags.includes(tag)) await client.query(UPDATE_ASSET_TAGS, { input: { id: shared.id, tags: [...tags, tag] } });
    return shared.id;
  }
  const typed = blob.type ? blob : new Blob([blob], { type: link.contentType });
  const created = await client.upload<{ createAssets: ({ id: string } | { errorCode: string; message: string })[] }>(
    CREATE_ASSETS,
    [{ file: null, tags: [tag, contentTag, PICTURE_ONLY] }],
    [{ blob: typed, fileName: link.fileName }],
  );
  const result = created.createAssets[0];
  if (!result) throw new VendureRefusal(`Vendure stored no asset for ${link.fileName}`);
  return unwrap(result).id;
}

const ASSET_TAGS = `query AssetTags($id: ID!) { asset(id: $id) { id tags { value } } }`;
const DELETE_ASSETS = `mutation DeleteAssets($input: DeleteAssetsInput!) {
  deleteAssets(input: $input) { result message }
}`;

/**
 * Deletes a category picture's asset that a collection no longer shows (docs/shops.md "Category
 * images"), when nothing else can: it was replaced by newer bytes behind its URL (`pim-was:`),
 * no URL's picture any more (no `pim-url:`), never a product image (`PICTURE_ONLY`), and Vendure
 * finds it featured nowhere (`deleteAssets` without `force` refuses an asset that is the featured
 * asset of a product, variant or collection: another collection of the same picture not written
 * since keeps it, and it is retired when that one is). True when deleted.
 */
export async function retireAsset(client: VendureClient, id: string): Promise<boolean> {
  const { asset } = await client.query<{ asset: { id: string; tags: { value: string }[] } | null }>(ASSET_TAGS, {
    id,
  });
  const tags = asset?.tags.map((t) => t.value) ?? [];
  const replaced = tags.some((t) => t.startsWith('pim-was:')) && !tags.some((t) => t.startsWith('pim-url:'));
  if (!asset || !replaced || !tags.includes(PICTURE_ONLY)) return false;
  const deleted = await client.query<{ deleteAssets: { result: string } }>(DELETE_ASSETS, {
    input: { assetIds: [id], force: false },
  });
  return deleted.deleteAssets.result === 'DELETED';
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
