import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { categories, productCategories, products } from '../db/schema';

/**
 * A category's media links as one text (url, content type, file name, purpose, description,
 * MIME code, in media order), or NULL when it has none: what the fingerprint covers of a
 * placement's `links` on the wire (docs/shops.md "Category images"). NULL keeps the records
 * of products in categories without links as they were before links reached the wire.
 */
function linksText(categoryId: SQL) {
  return sql<string | null>`(SELECT CASE WHEN count(*) = 0 THEN NULL ELSE json_group_array(json_array(
      l.url, l.content_type, l.file_name, l.purpose, l.description, l.mime_code)) END
    FROM (SELECT * FROM media m WHERE m.element_id = ${categoryId} AND m.url IS NOT NULL
      ORDER BY m.sort_order, m.id) l)`;
}

/**
 * Category names root..leaf for the categories products are placed in, and each category's
 * media links as text: what a sync record carries (and its fingerprint covers) for each
 * placement. The ids not yet known are read with
 * their ancestors in one recursive query; the cache lives as long as the instance (one slice, one
 * fingerprint refresh), so its size is bounded by the catalog's category tree, never by its
 * products.
 */
interface CategoryNode {
  parentId: string | null;
  name: string;
  links: string | null;
}

export class CategoryPaths {
  private readonly nodes = new Map<string, CategoryNode>();

  constructor(
    private readonly db: Database,
    private readonly companyId: string,
  ) {}

  async load(ids: Iterable<string>): Promise<void> {
    const missing = [...new Set(ids)].filter((id) => !this.nodes.has(id));
    if (missing.length === 0) return;
    // One recursive query for all ids and their ancestors (ids as one JSON parameter).
    // UNION (not UNION ALL) stops at ids already reached, so even a (corrupt) cycle ends.
    const rows = await this.db.all<CategoryNode & { id: string }>(sql`
      WITH RECURSIVE up(id) AS (
        SELECT value FROM json_each(${JSON.stringify(missing)})
        UNION
        SELECT c.parent_id FROM categories c JOIN up ON c.id = up.id
        WHERE c.parent_id IS NOT NULL AND +c.company_id = ${this.companyId}
      )
      SELECT c.id AS id, c.parent_id AS parentId, c.name AS name, ${linksText(sql`c.id`)} AS links
      FROM categories c WHERE c.id IN (SELECT id FROM up) AND +c.company_id = ${this.companyId}`);
    this.accept(rows);
  }

  /**
   * `load`'s read as a statement for a caller's own batch: the categories whose ids `seed`
   * (an SQL SELECT of one column) yields, with their ancestors. Hand its rows to `accept`.
   */
  static statement(db: Database, companyId: string, seed: SQL) {
    return db
      .select({
        id: categories.id,
        parentId: categories.parentId,
        name: categories.name,
        links: linksText(sql`${categories.id}`),
      })
      .from(categories)
      .where(
        and(
          sql`${categories.id} IN (
            WITH RECURSIVE up(id) AS (
              ${seed}
              UNION
              SELECT c.parent_id FROM categories c JOIN up ON c.id = up.id
              WHERE c.parent_id IS NOT NULL AND +c.company_id = ${companyId}
            ) SELECT id FROM up)`,
          sql`+${categories.companyId} = ${companyId}`,
        ),
      );
  }

  /** Takes the rows of `statement`. */
  accept(rows: (CategoryNode & { id: string })[]): this {
    for (const row of rows) this.nodes.set(row.id, { parentId: row.parentId, name: row.name, links: row.links });
    return this;
  }

  /** The category's own media links as text (see `linksText`); undefined when it has none or is not loaded. */
  links(id: string): string | undefined {
    return this.nodes.get(id)?.links ?? undefined;
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

/** Masters whose fingerprints a category rename or move recomputes at once; the rest wait for the sync. */
const RENAME_REFRESH_LIMIT = 450;

function placedIn(companyId: string, categoryId: string) {
  return sql`SELECT ${productCategories.productId} FROM ${productCategories}
    WHERE ${productCategories.categoryId} = (
      SELECT id FROM categories WHERE id = ${categoryId} AND company_id = ${companyId})`;
}

function placedInSubtree(companyId: string, categoryId: string) {
  return sql`SELECT ${productCategories.productId} FROM ${productCategories}
    WHERE ${productCategories.categoryId} IN (
      WITH RECURSIVE sub(id) AS (
        SELECT id FROM categories WHERE id = ${categoryId} AND company_id = ${companyId}
        UNION SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id
      ) SELECT id FROM sub)`;
}

/**
 * The statement that marks stale the sync records of every product placed in a category or
 * below it, for a write that changes the category's path of names (a rename or a move):
 * their revisions move past their fingerprints (docs/sync.md "Category names"). Put it in the
 * same batch as the change. One statement whatever the category's size: no product is read
 * into the Worker.
 */
export function categoryPathChanged(db: Database, companyId: string, categoryId: string) {
  return db
    .update(products)
    .set({ revision: sql`${products.revision} + 1` })
    .where(and(eq(products.companyId, companyId), sql`${products.id} IN (${placedInSubtree(companyId, categoryId)})`));
}

/**
 * The statement that marks stale the sync records of the products placed in the categories
 * themselves (not below them), for a write that changes the categories' media links: only a
 * placement in a category carries its `links` (docs/shops.md "Category images"). Put it in the
 * same batch as the change; `staleMastersIn(..., { subtree: false })` then names the masters to
 * refresh (an import leaves them to the next sync run). One statement for any number of
 * categories (an import's groups).
 */
export function categoryLinksChanged(db: Database, companyId: string, categoryIds: readonly string[]) {
  return db
    .update(products)
    .set({ revision: sql`${products.revision} + 1` })
    .where(
      and(
        eq(products.companyId, companyId),
        sql`${products.id} IN (SELECT ${productCategories.productId} FROM ${productCategories}
          WHERE ${productCategories.categoryId} IN (
            SELECT id FROM categories WHERE company_id = ${companyId}
              AND id IN (SELECT value FROM json_each(${JSON.stringify(categoryIds)}))))`,
      ),
    );
}

/**
 * Up to RENAME_REFRESH_LIMIT of the masters a category write made stale (placed in the category
 * or below it; only in it with `subtree: false`), for an immediate fingerprint refresh; the
 * others are repaired by the next sync run before it compares them.
 */
export async function staleMastersIn(
  db: Database,
  companyId: string,
  categoryId: string,
  options: { subtree: boolean } = { subtree: true },
): Promise<string[]> {
  const placed = options.subtree ? placedInSubtree(companyId, categoryId) : placedIn(companyId, categoryId);
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.companyId, companyId),
        sql`${products.parentId} IS NULL`,
        sql`${products.fingerprintRevision} < ${products.revision}`,
        sql`${products.id} IN (${placed})`,
      ),
    )
    .limit(RENAME_REFRESH_LIMIT);
  return rows.map((r) => r.id);
}
