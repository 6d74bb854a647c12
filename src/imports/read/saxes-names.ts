import type { SaxesParser } from 'saxes';

/** The ASCII characters XML allows in a name (letters, digits, `_`, `:`, `-`, `.`), by code. */
const ASCII_NAME_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  ASCII_NAME_CHAR[c] = /[A-Za-z0-9_:.-]/.test(ch) ? 1 : 0;
}

/** What of saxes' parser state its name scanning reads and moves (saxes 6, saxes.js `captureNameChars`). */
interface NameScanner {
  chunk: string;
  i: number;
  prevI: number;
  column: number;
  name: string;
  captureNameChars(): number;
}

/**
 * Makes `parser` scan element and attribute names faster, with the same result. saxes reads a
 * name one character at a time through `getCode` (position and line bookkeeping, surrogate and
 * newline handling) and a Unicode range check per character: in a BMEcat import's Worker
 * profile that was about 5 % of the import (docs/benchmarks.md, "Import throughput, part 8"),
 * BMEcat's element names being long (PRODUCT_FEATURES, FEATURE_VALUE ...) and every one read
 * twice (start and end tag). Here the run of ASCII name characters at the current position is
 * taken in one loop over a table, with the state saxes would have after reading them (`i`,
 * `prevI`, `column`: one column per character, as `getCode` counts an ASCII one; no line can
 * end inside a name), and saxes' own scan then continues from there: it reads the character
 * that ends the name (or a non-ASCII name character, or the end of the chunk) exactly as
 * before, so every error, position and name stays what it was.
 */
export function fastNameScanning(parser: SaxesParser): void {
  const scanner = parser as unknown as NameScanner;
  const own = scanner.captureNameChars;
  if (typeof own !== 'function') throw new Error('saxes: captureNameChars is not there (saxes changed?)');
  scanner.captureNameChars = function captureAsciiNameChars(this: NameScanner): number {
    const { chunk, i: start } = this;
    const end = chunk.length;
    let i = start;
    while (i < end) {
      const c = chunk.charCodeAt(i);
      if (c >= 128 || ASCII_NAME_CHAR[c] === 0) break;
      i++;
    }
    if (i > start) {
      this.name += chunk.slice(start, i);
      this.column += i - start;
      this.prevI = i - 1;
      this.i = i;
    }
    return own.call(this);
  };
}
