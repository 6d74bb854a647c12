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

/** The categories of `nodes` the member may choose (a context category above their part may not). */
const choosable = (nodes: readonly CategoryTreeNode[]) =>
  new Set(
    categoryOptions(nodes)
      .filter((o) => !o.disabled)
      .map((o) => o.id),
  );

/** What the editor's Categories tab sends as `categoryIds`, and what it says of the rest. */
export interface PlacementsSave {
  categoryIds: string[];
  /** The product's placements outside the member's part, which the API keeps: counted in a note, never named. */
  kept: number;
}

/**
 * The Categories tab's save (docs/teams.md, "Placements outside a member's reach"). For a member
 * whose tree of `catalogId` is narrowed, `categoryIds` are the chosen categories of their part
 * (one outside would be refused, 403) and the product's other placements are `kept` by the API
 * as they are. For anyone else the choice is the whole set, as the API reads it.
 */
export function placementsSave(
  account: { catalogIds: readonly string[]; categoryIds: readonly string[] },
  product: { catalogId: string; categoryIds: readonly string[] },
  chosen: Iterable<string>,
  nodes: readonly CategoryTreeNode[],
): PlacementsSave {
  if (!treeNarrowed(account, product.catalogId)) return { categoryIds: [...chosen], kept: 0 };
  const theirs = choosable(nodes);
  return {
    categoryIds: [...chosen].filter((id) => theirs.has(id)),
    kept: product.categoryIds.filter((id) => !theirs.has(id)).length,
  };
}
