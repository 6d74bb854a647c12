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
