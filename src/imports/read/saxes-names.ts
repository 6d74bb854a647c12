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

/** What of saxes' parser state its text scanning reads and moves (saxes.js `handleTextInRoot`). */
interface TextScanner {
  chunk: string;
  chunkPosition: number;
  i: number;
  prevI: number;
  line: number;
  column: number;
  positionAtNewLine: number;
  /** saxes' FORBIDDEN_START (0): no `]` seen just before (the `]]>` check). */
  forbiddenState: number;
  text: string;
  textHandler: ((text: string) => void) | undefined;
  handleTextInRoot(): void;
}

const TAB = 0x09;
const NL = 0x0a;
const AMP = 0x26;
const LESS = 0x3c;
const GREATER = 0x3e;
const CLOSE_BRACKET = 0x5d;
const FORBIDDEN_START = 0;

/**
 * The same for character data inside the root element (descriptions, values, the indentation
 * between elements): saxes reads it one character at a time through `getCode`. Here the run of
 * characters saxes does nothing with but count (printable ASCII except `<`, `&`, `]` and `>`,
 * tab, and line feed, which moves the line as `getCode` does) is taken in one loop, the text
 * kept as saxes keeps it, and saxes' own scan continues at the first other character (markup,
 * an entity, `]]>`'s parts, a carriage return, anything non-ASCII or not allowed), so the text
 * handed on, the positions and the errors are what they were.
 */
export function fastTextScanning(parser: SaxesParser): void {
  const scanner = parser as unknown as TextScanner;
  const own = scanner.handleTextInRoot;
  if (typeof own !== 'function') throw new Error('saxes: handleTextInRoot is not there (saxes changed?)');
  scanner.handleTextInRoot = function handleAsciiTextInRoot(this: TextScanner): void {
    const { chunk, i: start } = this;
    const end = chunk.length;
    let i = start;
    let line = this.line;
    let column = this.column;
    let lineStart = this.positionAtNewLine;
    while (i < end) {
      const c = chunk.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f) {
        if (c === LESS || c === AMP || c === CLOSE_BRACKET || c === GREATER) break;
        column++;
      } else if (c === NL) {
        line++;
        column = 0;
        lineStart = this.chunkPosition + i + 1;
      } else if (c === TAB) column++;
      else break;
      i++;
    }
    if (i > start) {
      if (this.textHandler !== undefined) this.text += chunk.slice(start, i);
      this.line = line;
      this.column = column;
      this.positionAtNewLine = lineStart;
      this.forbiddenState = FORBIDDEN_START;
      this.prevI = i - 1;
      this.i = i;
    }
    own.call(this);
  };
}
