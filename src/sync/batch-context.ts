import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { media } from '../db/schema';
import type { ProductAggregate } from '../catalog/product-aggregate';
import { sha256OfBytes } from '../media/media';
import { signedMediaUrl } from '../media/signed-url';

/**
 * Category names root..leaf for the categories a batch places products in. The ids not yet
 * known and all their ancestors are read in one recursive query (ids as one JSON parameter);
 * the cache lives for one slice, so its size is bounded by the catalog's category tree, never
 * by its products.
 */
export class CategoryPaths {
  private readonly nodes = new Map<string, { parentId: string | null; name: string }>();

  constructor(
    private readonly db: Database,
    private readonly companyId: string,
  ) {}

  async load(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.nodes.has(id));
    if (missing.length === 0) return;
    // UNION (not UNION ALL) stops at ids already reached, so even a (corrupt) cycle ends.
    const rows = await this.db.all<{ id: string; parentId: string | null; name: string }>(sql`
      WITH RECURSIVE up(id) AS (
        SELECT value FROM json_each(${JSON.stringify(missing)})
        UNION
        SELECT c.parent_id FROM categories c JOIN up ON c.id = up.id
        WHERE c.parent_id IS NOT NULL AND +c.company_id = ${this.companyId}
      )
      SELECT c.id AS id, c.parent_id AS parentId, c.name AS name
      FROM categories c WHERE c.id IN (SELECT id FROM up) AND +c.company_id = ${this.companyId}`);
    for (const row of rows) this.nodes.set(row.id, { parentId: row.parentId, name: row.name });
  }

  path(id: string): string[] | undefined {
    const names: string[] = [];
    let current: string | null = id;
    // The depth bound guards against a (corrupt) cycle in the tree.
    while (current && names.length < 50) {
      const node = this.nodes.get(current);
      if (!node) return names.length ? names.reverse() : undefined;
      names.push(node.name);
      current = node.parentId;
    }
    return names.reverse();
  }
}

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
