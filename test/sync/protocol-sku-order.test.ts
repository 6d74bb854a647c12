import { describe, expect, it } from 'vitest';
import { compareSkus } from '../../src/sync/protocol/sku-order';

/** The reference order: the UTF-8 bytes compared one by one (what SQLite's BINARY collation does). */
function byteOrder(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

describe('compareSkus', () => {
  it('orders plain ASCII SKUs like bytes, prefixes first', () => {
    expect(['B-2', 'A-10', 'A-1', 'a-1', 'A'].sort(compareSkus)).toEqual(['A', 'A-1', 'A-10', 'B-2', 'a-1']);
    expect(compareSkus('X', 'X')).toBe(0);
  });

  it('puts a supplementary-plane character after U+E000-U+FFFF, unlike the UTF-16 order of <', () => {
    const emoji = 'SKU-\u{1F600}';
    const privateUse = 'SKU-\uE000';
    const halfwidth = 'SKU-\uFF21';
    expect(emoji < privateUse).toBe(true); // the trap: UTF-16 code units
    expect(compareSkus(emoji, privateUse)).toBeGreaterThan(0);
    expect(compareSkus(emoji, halfwidth)).toBeGreaterThan(0);
    expect(compareSkus(privateUse, emoji)).toBeLessThan(0);
    expect([emoji, halfwidth, privateUse, 'SKU-\u00E9', 'SKU-z'].sort(compareSkus)).toEqual([
      'SKU-z',
      'SKU-\u00E9',
      privateUse,
      halfwidth,
      emoji,
    ]);
  });

  it('agrees with the UTF-8 byte order on a mixed sample', () => {
    const sample = [
      'a',
      'ä',
      'z',
      '\u07FF',
      '\u0800',
      '\uD7FF',
      '\uE000',
      '\uFFFF',
      '\u{10000}',
      '\u{10FFFF}',
      '\u{1F600}x',
      '\u{1F600}',
      '\u{1F601}',
      'A\u{20000}',
      'A\uFFFD',
      '',
    ];
    for (const a of sample) {
      for (const b of sample) expect(Math.sign(compareSkus(a, b)), `${a} vs ${b}`).toBe(Math.sign(byteOrder(a, b)));
    }
  });
});
