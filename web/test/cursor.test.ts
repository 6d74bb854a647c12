import { describe, expect, it } from 'vitest';
import { canonical, flattenPages, nextCursorOf, queryFromSearch, shouldLoadMore } from '../src/lib/cursor';
import { keys } from '../src/api/keys';
import { mergeOrder, moveItem } from '../src/lib/order';

const CAT = '0190a000-0000-7000-8000-000000000099';

describe('list keys and cursors', () => {
  it('gives equal filters the same key, whatever the order of missing fields', () => {
    expect(keys.productList({ catalogId: CAT, missing: ['price', 'gtin'] })).toEqual(
      keys.productList({ catalogId: CAT, missing: ['gtin', 'price'], q: '  ' }),
    );
  });
  it('gives a different sort a different key, so a cursor never crosses sorts', () => {
    expect(keys.productList({ catalogId: CAT, sort: 'name' })).not.toEqual(
      keys.productList({ catalogId: CAT, sort: 'sku' }),
    );
    expect(keys.productList({ catalogId: CAT, sort: 'name', order: 'desc' })).not.toEqual(
      keys.productList({ catalogId: CAT, sort: 'name', order: 'asc' }),
    );
  });
  it('sends subtree only together with a category', () => {
    expect(canonical({ catalogId: CAT, subtree: true })).toEqual({});
    expect(canonical({ catalogId: CAT, categoryId: 'c1', subtree: false })).toEqual({
      categoryId: 'c1',
      subtree: 'false',
    });
  });
  it('upper-cases class codes and trims the search', () => {
    expect(canonical({ catalogId: CAT, q: ' nym ', classCode: 'ec000042' })).toEqual({
      q: 'nym',
      classCode: 'EC000042',
    });
  });
  it('ends the list when the server sends no next cursor', () => {
    expect(nextCursorOf({ items: [], nextCursor: null })).toBeUndefined();
    expect(nextCursorOf({ items: [], nextCursor: 'abc' })).toBe('abc');
  });
  it('shows a row once even if it moved to the next page between two loads', () => {
    const rows = flattenPages(
      [
        { items: [{ id: 'a' }, { id: 'b' }], nextCursor: 'x' },
        { items: [{ id: 'b' }, { id: 'c' }], nextCursor: null },
      ],
      (r) => r.id,
    );
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c']);
  });
  it('loads the next page only near the end, once, and only if there is one', () => {
    expect(shouldLoadMore(85, 100, true, false)).toBe(true);
    expect(shouldLoadMore(50, 100, true, false)).toBe(false);
    expect(shouldLoadMore(95, 100, true, true)).toBe(false);
    expect(shouldLoadMore(99, 100, false, false)).toBe(false);
  });
  it('reads the grid state back from the address bar, ignoring unknown sorts', () => {
    const q = queryFromSearch(
      new URLSearchParams('q=nym&sort=price&order=desc&missing=gtin,price&categoryId=c1&subtree=false'),
      CAT,
    );
    expect(q).toMatchObject({
      catalogId: CAT,
      q: 'nym',
      sort: undefined,
      order: 'desc',
      missing: ['gtin', 'price'],
      categoryId: 'c1',
      subtree: false,
    });
  });
});

describe('the classification release filter (products still on an old release)', () => {
  it('reads it from the address bar and keys the list by it, so its cursor is never reused for another release', () => {
    const query = queryFromSearch(new URLSearchParams('classificationRelease=ETIM-9.0'), 'c1');
    expect(query.classificationRelease).toBe('ETIM-9.0');
    expect(canonical(query)).toEqual({ classificationRelease: 'ETIM-9.0' });
    expect(keys.productList(query)).not.toEqual(keys.productList({ ...query, classificationRelease: 'ETIM-10.0' }));
    expect(canonical({ catalogId: 'c1', classificationRelease: '' })).toEqual({});
  });
});

describe('moveItem', () => {
  it('moves an item forward and back', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
  it('leaves the list alone for an index outside it', () => {
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });
});

describe('mergeOrder', () => {
  it('puts the picked kind in its new order into the slots that kind held; the others keep theirs', () => {
    const all = ['file1', 'link1', 'file2', 'link2', 'link3'];
    const isLink = (x: string) => x.startsWith('link');
    expect(mergeOrder(all, ['link3', 'link1', 'link2'], isLink)).toEqual(['file1', 'link3', 'file2', 'link1', 'link2']);
    expect(mergeOrder(all, ['file2', 'file1'], (x) => !isLink(x))).toEqual([
      'file2',
      'link1',
      'file1',
      'link2',
      'link3',
    ]);
  });
});

describe('the completeness choice in the list query', () => {
  it('keeps "only with incomplete variants", with the language and the requirement it is judged by', () => {
    const query = queryFromSearch(
      new URLSearchParams(
        'completenessChannel=ch1&channelLanguage=eng&incompleteVariantsFor=ch1&missingRequirement=gtin',
      ),
      CAT,
    );
    expect(canonical(query)).toEqual({
      completenessChannel: 'ch1',
      channelLanguage: 'eng',
      incompleteVariantsFor: 'ch1',
      missingRequirement: 'gtin',
    });
    expect(keys.productList(query)).not.toEqual(keys.productList({ ...query, incompleteVariantsFor: undefined }));
    // without either filter the requirement means nothing
    expect(canonical({ ...query, incompleteVariantsFor: undefined })).toEqual({
      completenessChannel: 'ch1',
      channelLanguage: 'eng',
    });
  });

  it('keeps the completeness choice: channel, language, incomplete-for and missing requirement', () => {
    const params = new URLSearchParams(
      'sort=completeness&completenessChannel=ch1&channelLanguage=eng&incompleteFor=ch1&missingRequirement=gtin',
    );
    const query = queryFromSearch(params, CAT);
    expect(canonical(query)).toEqual({
      sort: 'completeness',
      completenessChannel: 'ch1',
      channelLanguage: 'eng',
      incompleteFor: 'ch1',
      missingRequirement: 'gtin',
    });
    expect(keys.productList(query)).not.toEqual(keys.productList({ ...query, channelLanguage: 'deu' }));
    // without a channel the score sort, the language and the requirement mean nothing: left out
    expect(
      canonical({ catalogId: CAT, sort: 'completeness', channelLanguage: 'eng', missingRequirement: 'gtin' }),
    ).toEqual({});
    expect(canonical({ catalogId: CAT, completenessChannel: 'ch1', missingRequirement: 'gtin' })).toEqual({
      completenessChannel: 'ch1',
    });
  });
});
