import { type RecordOutcome, TargetError, type TargetRecord, type WriteContext } from '../target-adapter';
import type { MedusaApi } from './medusa-api';
import { MedusaRefusal } from './medusa-api';
import { hashOfUrl } from './medusa-assets';

/**
 * The upload of a product image that nothing shows any more leaves Medusa's file storage
 * (docs/shops.md "Replaced product images"). An image is uploaded once per content hash
 * (`<sha256>.<ext>`) and shared by every product with those bytes, and Medusa cannot list the
 * products showing a file, so the connector's mirror answers: an image a record showed (its
 * mirror ids: hash -> URL) and no longer shows is retired when no record of the chunk shows it
 * or may (a refused record: its old and new images; a disabled product keeps its ids) and no
 * other product of the mirror does (`WriteContext.mediaShownElsewhere`). Only the PIM's uploads:
 * the URL's file name must carry the hash (file-local names the file `<timestamp>-<name>`, and
 * its file id is that name: `DELETE /admin/uploads/{id}`). The isolate's upload of that hash is
 * forgotten, so a later product with the same bytes uploads them again.
 *
 * Crash safety as for Vendure (vendure-retire.ts): the delete comes before the connector commits
 * the record's mirror row, and a delete Medusa refuses fails the records that dropped it,
 * retryably, so their next write finds it again.
 */
function fileIdOf(url: string, sha256: string): string | null {
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return hashOfUrl(url) === sha256 && name ? name : null;
}

/** The chunk's outcomes after its dropped images' uploads are deleted (a failed delete fails its records). */
export async function retireUploads(
  api: MedusaApi,
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: Pick<WriteContext, 'mediaShownElsewhere'>,
  uploads: Map<string, string>,
): Promise<RecordOutcome[]> {
  if (!ctx.mediaShownElsewhere) return outcomes;
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  const shown = new Set<string>();
  const dropped = new Map<string, { url: string; owners: number[] }>();
  for (const target of targets) {
    const outcome = byIndex.get(target.index);
    const before = target.known?.media ?? {};
    if (!outcome?.ok || (target.record.op === 'deactivate' && outcome.ids !== null)) {
      for (const sha of Object.keys(before)) shown.add(sha);
      if (target.record.op !== 'deactivate')
        for (const node of [target.record.product, ...target.record.product.variants])
          for (const ref of node.media ?? []) shown.add(ref.sha256);
      continue;
    }
    const kept = outcome.ids?.media ?? {};
    for (const sha of Object.keys(kept)) shown.add(sha);
    for (const [sha, url] of Object.entries(before)) {
      if (sha in kept) continue;
      const entry = dropped.get(sha) ?? { url, owners: [] };
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
  for (const [sha, { url, owners }] of dropped) {
    const id = fileIdOf(url, sha);
    if (elsewhere.has(sha) || !id) continue;
    try {
      await api.delete(`/admin/uploads/${encodeURIComponent(id)}`);
      uploads.delete(sha);
    } catch (err) {
      if (!(err instanceof MedusaRefusal) && !(err instanceof TargetError && err.retryable)) throw err;
      for (const owner of owners) failed.set(owner, `the replaced image could not be deleted: ${err.message}`);
    }
  }
  return outcomes.map((o) =>
    failed.has(o.index)
      ? { index: o.index, ok: false, field: 'product.media', error: failed.get(o.index)!, retryable: true }
      : o,
  );
}
