import type { CategoryTreeNode } from '../api/models';

/**
 * The category tree of a member limited to category subtrees (docs/teams.md, "The category tree
 * of a scoped member"): the API lists their subtrees and, marked `outsideScope`, the categories
 * above them, which the screens show as context and never offer for a choice.
 */

/** Whether `catalogId`'s tree is narrowed for the member: category scopes, and a scope not naming the catalog. */
export function treeNarrowed(
  account: { catalogIds: readonly string[]; categoryIds: readonly string[] },
  catalogId: string,
): boolean {
  return (account.categoryIds.length > 0 || account.catalogIds.length > 0) && !account.catalogIds.includes(catalogId);
}

/** One category of a picker: its path of names, and whether it may be chosen (a context category may not). */
export interface CategoryOption {
  id: string;
  label: string;
  disabled: boolean;
}

/** The tree as picker options, depth first, each labelled by its path ("Kabel › Installationskabel"). */
export function categoryOptions(nodes: readonly CategoryTreeNode[], prefix = ''): CategoryOption[] {
  return nodes.flatMap((n) => {
    const label = prefix ? `${prefix} › ${n.name ?? ''}` : (n.name ?? '');
    return [
      { id: n.categoryId, label, disabled: n.outsideScope === true },
      ...categoryOptions(n.children ?? [], label),
    ];
  });
}

/**
 * The placements among `categoryIds` that are not the member's to choose (not listed, or listed
 * as the path above their part): a scoped member's product placed also outside their part. UpdateProduct would name them again and is refused (403), so the
 * editor's Categories tab says so instead of offering a save that cannot pass.
 */
export function placementsOutside(categoryIds: readonly string[], nodes: readonly CategoryTreeNode[]): string[] {
  const theirs = new Set(
    categoryOptions(nodes)
      .filter((o) => !o.disabled)
      .map((o) => o.id),
  );
  return categoryIds.filter((id) => !theirs.has(id));
}
