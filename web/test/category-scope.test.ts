import { describe, expect, it } from 'vitest';
import type { CategoryTreeNode } from '../src/api/models';
import { categoryOptions, placementsOutside, treeNarrowed } from '../src/lib/category-scope';

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

  it('finds the placements of a product that lie outside the tree they are shown', () => {
    const tree = [node('brand', 'Brand', [node('lines', 'Lines')], true)];
    expect(placementsOutside(['lines'], tree)).toEqual([]);
    expect(placementsOutside(['lines', 'other'], tree)).toEqual(['other']);
    // the path above their part is listed, but not theirs to place in
    expect(placementsOutside(['lines', 'brand'], tree)).toEqual(['brand']);
  });
});
