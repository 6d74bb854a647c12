/**
 * The one SKU order of the sync protocol: UTF-8 byte order, which is what SQLite's BINARY
 * collation gives D1's `ORDER BY sku`. JavaScript's `<` on strings compares UTF-16 code units,
 * which differs for characters above U+FFFF (surrogates 0xD800-0xDFFF sort before U+E000-U+FFFF
 * in UTF-16, after them in UTF-8). Comparing code points gives the UTF-8 byte order.
 */
export function compareSkus(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Equal prefixes end on a code-unit boundary, so surrogates here start a code point.
    const cx = x >= 0xd800 && x <= 0xdfff ? a.codePointAt(i)! : x;
    const cy = y >= 0xd800 && y <= 0xdfff ? b.codePointAt(i)! : y;
    return cx < cy ? -1 : cx > cy ? 1 : 0;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
