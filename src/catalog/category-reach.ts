import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { narrowingScope } from '../db/scope-counts';
import type { Caller } from '../kernel/caller';

/**
 * The categories of one catalog a member limited to category subtrees is shown (docs/teams.md,
 * "The category tree of a scoped member"): the categories of their subtrees (`inside`) and the
 * categories above each subtree's root (`context`), listed so the member sees where their part
 * of the tree hangs, marked `outsideScope` and never offered for a choice. Nothing else of the
 * catalog is listed: not the siblings of a context category, not another brand's subtree.
 */
export interface CategoryReach {
  inside: ReadonlySet<string>;
  context: ReadonlySet<string>;
}

/** What a listing adds to a context category: the member's products below it are listed, the category is not theirs. */
export const CONTEXT_MARK = { outsideScope: true } as const;

/**
 * The reach of `caller` in `catalogId`, or null when nothing is narrowed (no product scope, or
 * a scope naming the catalog: every category is the member's). A member limited to other
 * catalogs only reaches no category of this one. One statement: the subtrees along
 * `categories_parent_idx` and the parents above their roots by primary key; a catalog holds
 * thousands of categories at most.
 */
export async function categoryReach(
  db: Database,
  caller: Pick<Caller, 'companyId' | 'productScope'>,
  catalogId: string,
): Promise<CategoryReach | null> {
  const scope = narrowingScope(caller, catalogId);
  if (!scope) return null;
  if (!scope.categoryIds.length) return { inside: new Set(), context: new Set() };
  const roots = sql`SELECT id, parent_id FROM categories WHERE company_id = ${caller.companyId}
    AND catalog_id = ${catalogId} AND id IN (SELECT value FROM json_each(${JSON.stringify(scope.categoryIds)}))`;
  const rows = await db.all<{ id: string; inside: number }>(sql`
    WITH RECURSIVE down(id) AS (
      SELECT id FROM (${roots})
      UNION SELECT c.id FROM categories c JOIN down ON c.parent_id = down.id
    ), up(id, parent_id) AS (
      SELECT id, parent_id FROM (${roots})
      UNION SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
        WHERE c.company_id = ${caller.companyId}
    )
    SELECT id, 1 AS inside FROM down
    UNION ALL SELECT id, 0 FROM up WHERE id NOT IN (SELECT id FROM down)`);
  const inside = new Set<string>();
  const context = new Set<string>();
  for (const row of rows) (row.inside ? inside : context).add(row.id);
  return { inside, context };
}

/**
 * `categoryReach` made from the catalog's whole tree when the caller has read it already
 * (GetCategoryTree): the same sets, no statement. `tree` is every category of the catalog.
 */
export function categoryReachIn(
  caller: Pick<Caller, 'companyId' | 'productScope'>,
  catalogId: string,
  tree: readonly { id: string; parentId: string | null }[],
): CategoryReach | null {
  const scope = narrowingScope(caller, catalogId);
  if (!scope) return null;
  const parentOf = new Map(tree.map((c) => [c.id, c.parentId]));
  const children = new Map<string, string[]>();
  for (const c of tree) if (c.parentId) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c.id]);
  const roots = scope.categoryIds.filter((id) => parentOf.has(id));
  const inside = new Set<string>();
  for (const stack = [...roots]; stack.length > 0; ) {
    const id = stack.pop()!;
    if (inside.has(id)) continue;
    inside.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  const context = new Set<string>();
  for (const root of roots)
    for (let up = parentOf.get(root); up && !inside.has(up) && !context.has(up); up = parentOf.get(up)) context.add(up);
  return { inside, context };
}

/** Whether a listing shows the category to a member of `reach` (null: everyone sees every category). */
export const reaches = (reach: CategoryReach | null, categoryId: string) =>
  !reach || reach.inside.has(categoryId) || reach.context.has(categoryId);

/** The category's listing with the context mark when it is above the member's subtrees only. */
export function marked<T extends { categoryId: string }>(reach: CategoryReach | null, item: T) {
  return reach?.context.has(item.categoryId) ? { ...item, ...CONTEXT_MARK } : item;
}
