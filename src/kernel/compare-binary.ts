/**
 * SQLite's BINARY order of TEXT (memcmp over UTF-8), which ORDER BY uses in
 * loadProductAggregates. UTF-8 byte order is code point order; JavaScript's `<` compares
 * UTF-16 code units, which differs for characters above U+FFFF, so compare code points.
 */
export function compareBinary(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(j)!;
    if (x !== y) return x < y ? -1 : 1;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}
