import { describe, expect, it } from 'vitest';
import { decodeFeedCursor, encodeFeedCursor } from '../src/history/feed-cursor';
import { encodeJsonCursor } from '../src/kernel/pagination';

/** The feed's cursor (src/history/feed-cursor.ts): one per item, so encoded on a fast path. */
describe('GetChanges cursor encoding', () => {
  it('is the same text as the generic JSON cursor, for ASCII ids and for any other text', () => {
    for (const [c, s, v] of [
      ['0199a3c4-0000-7000-8000-000000000001', 1, '0199a3c4-1111-7000-8000-000000000002'],
      ['co', 987_654_321, 'evt_0123456789abcdef0123456789abcdef'],
      ['Müller "GmbH"\\', 5, 'ü'],
      ['co', 0, undefined],
    ] as const) {
      const cursor = encodeFeedCursor(c, s, v);
      expect(cursor).toBe(encodeJsonCursor(v === undefined ? { c, s } : { c, s, v }));
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeFeedCursor(c, cursor)).toEqual(v === undefined ? { seq: s } : { seq: s, versionId: v });
    }
  });

  it('refuses a cursor of another company and one whose row id is not a short string', () => {
    expect(() => decodeFeedCursor('b', encodeFeedCursor('a', 3, 'x'))).toThrow(/another company/);
    for (const v of [7, '', 'x'.repeat(65), null])
      expect(() => decodeFeedCursor('a', encodeJsonCursor({ c: 'a', s: 3, v }))).toThrow(/not a valid cursor/);
  });
});
