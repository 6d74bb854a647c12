import { type RecordOutcome, TargetError, type TargetRecord, type WriteContext } from '../target-adapter';

/**
 * The images a chunk's records no longer show, deleted from a shop that shares one file or asset
 * between every product with the same bytes and cannot list who shows it (Vendure, Medusa;
 * docs/shops.md "Replaced product images"), so the connector's mirror answers: an image a record
 * showed (its mirror ids: hash -> the shop's handle of it) and no longer shows (its new ids, or
 * none for a deleted product) is retired when no record of the chunk shows it or may (a refused
 * record: its old and new images; a disabled product keeps its ids) and no other product of the
 * mirror does (`WriteContext.mediaShownElsewhere`, connector migration 0004).
 *
 * Crash safety: `remove` runs after the product's write and before the connector commits the
 * record's mirror row; a crash in between leaves the old ids in the mirror, the record goes out
 * again and its next write drops the same image. A delete the shop refuses (`isRefusal`) or
 * cannot answer fails the records that dropped it, retryably, for the same reason.
 */
export async function retireDroppedImages(
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: Pick<WriteContext, 'mediaShownElsewhere'>,
  remove: (sha256: string, handle: string) => Promise<void>,
  isRefusal: (err: unknown) => boolean,
): Promise<RecordOutcome[]> {
  if (!ctx.mediaShownElsewhere) return outcomes;
  const byIndex = new Map(outcomes.map((o) => [o.index, o]));
  const shown = new Set<string>();
  const dropped = new Map<string, { handle: string; owners: number[] }>();
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
    for (const [sha, handle] of Object.entries(before)) {
      if (sha in kept) continue;
      const entry = dropped.get(sha) ?? { handle, owners: [] };
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
  for (const [sha, { handle, owners }] of dropped) {
    if (elsewhere.has(sha)) continue;
    try {
      await remove(sha, handle);
    } catch (err) {
      if (!isRefusal(err) && !(err instanceof TargetError && err.retryable)) throw err;
      const message = (err as Error).message;
      for (const owner of owners) failed.set(owner, `the replaced image could not be deleted: ${message}`);
    }
  }
  return outcomes.map((o) =>
    failed.has(o.index)
      ? { index: o.index, ok: false, field: 'product.media', error: failed.get(o.index)!, retryable: true }
      : o,
  );
}
