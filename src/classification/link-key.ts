import { type SQL, sql } from 'drizzle-orm';

/**
 * A link's classes and features reference `classification_links.id`, the link row's integer
 * key, not its public 36-character `linkId` (migration 0010, docs/search.md "Storage"): four
 * bytes instead of 37 in every feature row. `linkKey(linkId)` is that key as SQL, for writes
 * and deletes addressed by the public id (the unique index on `link_id` answers it). Callers
 * have checked the link's tenant (or created the link in the same batch) before.
 */
export const linkKey = (linkId: string | SQL): SQL =>
  sql`(SELECT "id" FROM "classification_links" WHERE "link_id" = ${linkId})`;
