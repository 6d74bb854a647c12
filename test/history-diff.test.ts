import { describe, expect, it } from 'vitest';
import { diffSnapshots } from '../src/records/history-record';
import type { Json, Snapshot } from '../src/records/snapshot';

/** The rule diffSnapshots keeps: two values are the same when their JSON is (a missing path is null). */
function byJson(before: Snapshot | null, after: Snapshot | null) {
  const b = before ?? {};
  const a = after ?? {};
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].sort().flatMap((path) => {
    const was = b[path] ?? null;
    const now = a[path] ?? null;
    return JSON.stringify(was) === JSON.stringify(now) ? [] : [{ path, before: was, after: now }];
  });
}

const VALUES: Json[] = [
  null,
  0,
  -0,
  1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  '',
  '1',
  'null',
  'a',
  true,
  false,
  'true',
  [],
  [1],
  ['1'],
  [null],
  {},
  { a: 1 },
  { a: null },
  [[1, 'x']],
];

describe('diffSnapshots', () => {
  it('finds a change exactly where the JSON of the two values differs, for every pair of kinds', () => {
    for (const x of VALUES)
      for (const y of VALUES) {
        // a fresh copy of containers: equal content in another object is no change
        const copy = (v: Json) => (v !== null && typeof v === 'object' ? (JSON.parse(JSON.stringify(v)) as Json) : v);
        const before = { p: x };
        const after = { p: copy(y) };
        expect(diffSnapshots(before, after), `${JSON.stringify(x)} → ${JSON.stringify(y)}`).toEqual(
          byJson(before, after),
        );
      }
  });

  it('records every path of a created element, none that is only null, in path order', () => {
    const after: Snapshot = {
      sku: 'A-1',
      prices: [{ type: 'net_list', amount: '1.00' }],
      categories: ['c2', 'c1'],
      'values.colour': 'red',
      empty: null,
      nan: Number.NaN,
      zero: 0,
    };
    const changes = diffSnapshots(null, after);
    expect(changes.map((c) => c.path)).toEqual(['categories', 'prices', 'sku', 'values.colour', 'zero']);
    expect(changes).toEqual(byJson(null, after));
    expect(diffSnapshots(after, null)).toEqual(byJson(after, null));
  });

  it('a value replaced by an equal copy is no change; a reordered list is', () => {
    expect(diffSnapshots({ c: ['a', 'b'], o: { x: 1 } }, { c: ['a', 'b'], o: { x: 1 } })).toEqual([]);
    expect(diffSnapshots({ c: ['a', 'b'] }, { c: ['b', 'a'] })).toEqual([
      { path: 'c', before: ['a', 'b'], after: ['b', 'a'] },
    ]);
  });
});
