import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/**
 * Sums of the maintained counters over each root's subtree: walks categories only (thousands
 * at most), never product rows, so it costs the same for 100 or 1,000,000 products.
 */
export async function subtreeSums(db: Database, rootIds: string[]): Promise<Map<string, number>> {
  const sums = new Map<string, number>();
  for (let i = 0; i < rootIds.length; i += 90) {
    const chunk = rootIds.slice(i, i + 90);
    const rows = await db.all<{ root: string; n: number }>(sql`
      WITH RECURSIVE sub(root, id) AS (
        SELECT id, id FROM categories WHERE id IN (${sql.join(
          chunk.map((id) => sql`${id}`),
          sql`, `,
        )})
        UNION ALL SELECT sub.root, c.id FROM categories c JOIN sub ON c.parent_id = sub.id
      ) SELECT sub.root AS root, sum(c.product_count) AS n FROM sub JOIN categories c ON c.id = sub.id GROUP BY sub.root`);
    for (const row of rows) sums.set(row.root, row.n);
  }
  return sums;
}
