import { retireDroppedImages } from '../common/retire-images';
import type { RecordOutcome, TargetRecord, WriteContext } from '../target-adapter';
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
 * Which images are dropped, and crash safety: common/retire-images.ts.
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
export function retireProductImages(
  client: VendureClient,
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: Pick<WriteContext, 'mediaShownElsewhere'>,
): Promise<RecordOutcome[]> {
  return retireDroppedImages(
    targets,
    outcomes,
    ctx,
    (_sha, assetId) => retireImageAsset(client, assetId),
    (err) => err instanceof VendureRefusal,
  );
}
