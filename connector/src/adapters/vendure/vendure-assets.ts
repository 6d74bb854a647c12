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

/** The asset id of every image, uploading the ones the shop lacks; throws a refusal naming the image's index. */
export async function ensureAssets(
  client: VendureClient,
  refs: MediaRef[],
  known: Record<string, string>,
  bytes: (ref: MediaRef) => Promise<Blob>,
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const unique = [...new Map(refs.map((r) => [r.sha256, r])).values()];
  if (unique.length === 0) return ids;

  const knownIds = unique.map((r) => known[r.sha256]).filter((id): id is string => Boolean(id));
  if (knownIds.length > 0) {
    const found = await client.query<{ assets: { items: { id: string }[] } }>(ASSETS_BY_ID, { ids: knownIds });
    const alive = new Set(found.assets.items.map((a) => a.id));
    for (const r of unique) {
      const id = known[r.sha256];
      if (id && alive.has(id)) ids.set(r.sha256, id);
    }
  }

  let missing = unique.filter((r) => !ids.has(r.sha256));
  if (missing.length > 0) {
    const tagged = await client.query<{ assets: { items: { id: string; tags: { value: string }[] }[] } }>(
      ASSETS_BY_TAG,
      {
        tags: missing.map((r) => hashTag(r.sha256)),
      },
    );
    for (const asset of tagged.assets.items) {
      for (const tag of asset.tags) {
        const sha = tag.value.startsWith('sha256:') ? tag.value.slice(7) : null;
        if (sha && !ids.has(sha)) ids.set(sha, asset.id);
      }
    }
    missing = missing.filter((r) => !ids.has(r.sha256));
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
  }
  return ids;
}

/**
 * A category picture's asset (common/category-image.ts): a link has no content hash, so its
 * asset carries the tag `pim-url:<sha256 of the URL>`, is found again by it and uploaded only
 * when the shop has none, whatever category or run brings it. `bytes` fetches the link under
 * the SSRF rule (`WriteContext.linkBytes`).
 */
export async function ensureLinkAsset(
  client: VendureClient,
  link: MediaLink,
  bytes: (link: MediaLink) => Promise<Blob>,
): Promise<string> {
  const tag = `pim-url:${await sha256Hex(link.url)}`;
  const tagged = await client.query<{ assets: { items: { id: string }[] } }>(ASSETS_BY_TAG, { tags: [tag] });
  const found = tagged.assets.items[0];
  if (found) return found.id;
  const blob = await bytes(link);
  const typed = blob.type ? blob : new Blob([blob], { type: link.contentType });
  const created = await client.upload<{ createAssets: ({ id: string } | { errorCode: string; message: string })[] }>(
    CREATE_ASSETS,
    [{ file: null, tags: [tag] }],
    [{ blob: typed, fileName: link.fileName }],
  );
  const result = created.createAssets[0];
  if (!result) throw new VendureRefusal(`Vendure stored no asset for ${link.fileName}`);
  return unwrap(result).id;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
