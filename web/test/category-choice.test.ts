import { describe, expect, it } from 'vitest';
import { chooseAt, currentChoice } from '../src/lib/category-choice';

describe("a requirement limit's category, chosen level by level", () => {
  const known = { catalogId: 'cat-1', chain: ['kabel', 'erdkabel'] };

  it("starts where the row's category is, or at the first catalog with none; null while it is read", () => {
    expect(currentChoice(null, 'erdkabel', known, 'cat-0')).toEqual(known);
    expect(currentChoice(null, undefined, known, 'cat-0')).toEqual({ catalogId: 'cat-0', chain: [] });
    expect(currentChoice(null, 'erdkabel', null, 'cat-0')).toBeNull();
    expect(currentChoice(null, undefined, null, undefined)).toEqual({ catalogId: '', chain: [] });
  });

  it("keeps the user's pick while it is the row's category, and drops one that is another row's", () => {
    const picked = { catalogId: 'cat-2', chain: ['leuchten'] };
    expect(currentChoice(picked, 'leuchten', known, 'cat-0')).toEqual(picked);
    // "any category" of another catalog picked: the row has no category.
    const anyOf2 = { catalogId: 'cat-2', chain: [] };
    expect(currentChoice(anyOf2, undefined, null, 'cat-0')).toEqual(anyOf2);
    // A row above was removed: this position now holds a requirement limited to erdkabel.
    expect(currentChoice(picked, 'erdkabel', known, 'cat-0')).toEqual(known);
    expect(currentChoice(anyOf2, 'erdkabel', null, 'cat-0')).toBeNull();
  });

  it('sets a level: deeper levels are dropped; the empty choice leaves the level above as the limit', () => {
    expect(chooseAt(known, 0, 'leuchten')).toEqual({ catalogId: 'cat-1', chain: ['leuchten'] });
    expect(chooseAt(known, 1, 'freileitung')).toEqual({ catalogId: 'cat-1', chain: ['kabel', 'freileitung'] });
    expect(chooseAt(known, 2, 'nyy')).toEqual({ catalogId: 'cat-1', chain: ['kabel', 'erdkabel', 'nyy'] });
    expect(chooseAt(known, 1, '')).toEqual({ catalogId: 'cat-1', chain: ['kabel'] });
    expect(chooseAt(known, 0, '')).toEqual({ catalogId: 'cat-1', chain: [] });
  });
});
