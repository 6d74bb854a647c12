import { type RecordOutcome, TargetError, type TargetRecord, type WriteContext } from '../target-adapter';
import { type VendureClient, VendureRefusal } from './vendure-client';

/**
 * A product image's asset that nothing shows any more leaves Vendure's asset library (docs/shops.md
 * "Vendure", since issue 35's fifth round). Vendure shares one asset between every product with
 * the same bytes (tag `sha256:<hash>`) and its Admin API cannot list the products whose gallery
 * holds an asset (`deleteAssets` without `force` only refuses one that is a featured asset), so
 * the connector's mirror answers who shows it: an image a record showed (its mirror ids) and no
 * longer shows (its new ids, or none for a deleted product) is retired when no record of the
 * chunk shows it or may (a refused record: old and new images) and no other product of the
 * mirror does (`WriteContext.mediaShownElsewhere`, connector migration 0004). The asset is then
 * deleted unless it is a category picture's (`pim-url:` tag: a collection shows it or will find
 * it by its URL) or Vendure finds it featured somewhere (a merchant's product, a collection).
 *
 * Crash safety: the delete comes after the product's update and before the connector commits
 * the record's mirror row; a crash in between leaves the old ids in the mirror, the record goes
 * out again, and its next write drops the same image and retires it. A delete Vendure cannot
 * answer fails the records that dropped it, retryably, for the same reason.
 */
const IMAGE_ASSET = `query ImageAsset($id: ID!) { asset(id: $id) { id tags { value } } }`;
const DELETE_IMAGE_ASSETS = `mutation DeleteImageAssets($input: DeleteAssetsInput!) {
  deleteAssets(input: $input) { result message }
}`;

/**
 * Deletes the asset unless it is gone already, a category picture's, or featured somewhere
 * (Vendure answers NOT_DELETED then, and it stays).
 */
async function retireImageAsset(client: VendureClient, id: string): Promise<void> {
  const { asset } = await client.query<{ asset: { id: string; tags: { value: string }[] } | null }>(IMAGE_ASSET, {
    id,
  });
  if (!asset || asset.tags.some((t) => t.value.startsWith('pim-url:'))) return;
  await client.query(DELETE_IMAGE_ASSETS, { input: { assetIds: [id], force: false } });
}

/** The chunk's outcomes after its dropped images are retired (a failed delete fails its records). */
export async function retireProductImages(
  client: VendureClient,
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: Pick<WriteContext, 'mediaShownElsewhere'>,
): Promise<RecordOutcome[]> {
  if (!ctx.mediaShownElsewhere) return outcomes;
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  const shown = new Set<string>();
  const dropped = new Map<string, { assetId: string; owners: number[] }>();
  for (const target of targets) {
    const outcome = byIndex.get(target.index);
    const before = target.known?.media ?? {};
    const kept = outcome?.ok ? outcome.ids?.media : undefined;
    if (!outcome?.ok || (target.record.op === 'deactivate' && outcome.ids !== null)) {
      for (const sha of Object.keys(before)) shown.add(sha);
      if (target.record.op !== 'deactivate')
        for (const node of [target.record.product, ...target.record.product.variants])
          for (const ref of node.media ?? []) shown.add(ref.sha256);
      continue;
    }
    for (const sha of Object.keys(kept ?? {})) shown.add(sha);
    for (const [sha, assetId] of Object.entries(before)) {
      if (kept && sha in kept) continue;
      const entry = dropped.get(sha) ?? { assetId, owners: [] };
      entry.owners.push(target.index);
      dropped.set(sha, entry);
    }
  }
  for (const sha of shown) dropped.delete(sha);
  if (dropped.size === 0) return outcomes;
  const elsewhere = await ctx.mediaShownElsewhere(
    [...dropped.keys()],
    targets.map((t) => t.record.sku),
  );
  const failed = new Map<number, string>();
  for (const [sha, { assetId, owners }] of dropped) {
    if (elsewhere.has(sha)) continue;
    try {
      await retireImageAsset(client, assetId);
    } catch (err) {
      if (!(err instanceof VendureRefusal) && !(err instanceof TargetError && err.retryable)) throw err;
      for (const owner of owners) failed.set(owner, `the replaced image could not be deleted: ${err.message}`);
    }
  }
  return outcomes.map((o) =>
    failed.has(o.index)
      ? { index: o.index, ok: false, field: 'product.media', error: failed.get(o.index)!, retryable: true }
      : o,
  );
}
