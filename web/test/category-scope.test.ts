import { describe, expect, it } from 'vitest';
import type { CategoryTreeNode } from '../src/api/models';
import { categoryOptions, placementsSave, treeNarrowed } from '../src/lib/category-scope';

const node = (categoryId: string, name: string, children: CategoryTreeNode[] = [], outsideScope?: true) =>
  ({
    categoryId,
    catalogId: 'k',
    parentId: null,
    name,
    description: null,
    sortOrder: 0,
    productCount: 0,
    subtreeProductCount: 0,
    children,
    ...(outsideScope ? { outsideScope } : {}),
  }) as CategoryTreeNode;

describe('the tree a scoped member is shown', () => {
  it('is narrowed for category scopes and for a catalog the scope does not name', () => {
    expect(treeNarrowed({ catalogIds: [], categoryIds: [] }, 'k')).toBe(false);
    expect(treeNarrowed({ catalogIds: [], categoryIds: ['c'] }, 'k')).toBe(true);
    expect(treeNarrowed({ catalogIds: ['k'], categoryIds: ['c'] }, 'k')).toBe(false);
    expect(treeNarrowed({ catalogIds: ['other'], categoryIds: [] }, 'k')).toBe(true);
  });

  it('offers the categories of their part with their paths, the path above it shown but not to be chosen', () => {
    const tree = [node('brand', 'Brand', [node('lines', 'Lines', [node('deep', 'Deep')])], true)];
    expect(categoryOptions(tree)).toEqual([
      { id: 'brand', label: 'Brand', disabled: true },
      { id: 'lines', label: 'Brand › Lines', disabled: false },
      { id: 'deep', label: 'Brand › Lines › Deep', disabled: false },
    ]);
  });
});

describe("the Categories tab's save", () => {
  // their part is "Lines" with "More" below it; "Brand" above is the path shown as context
  const tree = [node('brand', 'Brand', [node('lines', 'Lines', [node('more', 'More')])], true)];
  const scoped = { catalogIds: [], categoryIds: ['lines'] };

  it("sends a scoped member's choice in their part and counts the placements outside it as kept", () => {
    // placed in their "lines", in a category not listed to them and in the path above their part
    const product = { catalogId: 'k', categoryIds: ['lines', 'other', 'brand'] };
    const chosen = new Set(['lines', 'other', 'brand', 'more']);
    expect(placementsSave(scoped, product, chosen, tree)).toEqual({ categoryIds: ['lines', 'more'], kept: 2 });
    // every box of their part cleared: an empty list, the API keeps the two outside
    expect(placementsSave(scoped, product, new Set(['other', 'brand']), tree)).toEqual({ categoryIds: [], kept: 2 });
  });

  it('says nothing is kept for a product placed only in their part', () => {
    const product = { catalogId: 'k', categoryIds: ['lines'] };
    expect(placementsSave(scoped, product, new Set(['more']), tree)).toEqual({ categoryIds: ['more'], kept: 0 });
  });

  it('sends the whole choice for a member whose tree is not narrowed', () => {
    const product = { catalogId: 'k', categoryIds: ['lines', 'other'] };
    const chosen = new Set(['other', 'more']);
    for (const account of [
      { catalogIds: [], categoryIds: [] },
      { catalogIds: ['k'], categoryIds: ['brand'] },
    ])
      expect(placementsSave(account, product, chosen, tree)).toEqual({ categoryIds: ['other', 'more'], kept: 0 });
  });
});
