import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../db/client';
import { media } from '../db/schema';
import type { ProductAggregate } from '../model/product-aggregate';
import { sha256OfBytes } from '../media/media';
import { signedMediaUrl } from '../media/signed-url';

export { CategoryPaths } from '../records/category-paths';

/**
 * sha256 and signed URL of every media file of a batch. Rows uploaded before hashes existed
 * get theirs here, read once from R2 and stored (unless `store` is false, as in dry runs):
 * the lazy backfill of docs/sync.md "Media hashes".
 */
export async function mediaRefs(
  deps: { db: Database; files: R2Bucket; mediaUrlKey: string | undefined },
  aggregates: ProductAggregate[],
  options: { baseUrl: string; expires: number; store: boolean },
): Promise<Map<string, { sha256: string; url: string }>> {
  const all = aggregates.flatMap((a) => [...a.media, ...a.variants.flatMap((v) => v.media)]);
  const refs = new Map<string, { sha256: string; url: string }>();
  for (const m of all) {
    // A link has no object to hash or sign: the record carries its own URL (wire-record.ts).
    if (m.url) continue;
    let sha256 = m.sha256;
    if (!sha256) {
      const object = await deps.files.get(m.storageKey);
      if (!object) continue;
      sha256 = await sha256OfBytes(await object.arrayBuffer());
      if (options.store)
        await deps.db
          .update(media)
          .set({ sha256 })
          .where(and(eq(media.id, m.mediaId), isNull(media.sha256)));
    }
    refs.set(m.mediaId, {
      sha256,
      url: await signedMediaUrl(deps.mediaUrlKey, options.baseUrl, m.mediaId, options.expires),
    });
  }
  return refs;
}
