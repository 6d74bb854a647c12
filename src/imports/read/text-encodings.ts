/**
 * The text encodings an import file may be in, and how each maps bytes to characters. Every
 * encoding read here either has one character per byte (ISO-8859-1, windows-1252), one UTF-16
 * unit per two bytes (UTF-16 LE/BE), or is UTF-8, so a reader can turn a position inside a
 * decoded chunk back into the exact byte offset a resumed import continues from.
 */
export type TextEncodingName = 'utf-8' | 'latin1' | 'windows-1252' | 'utf-16le' | 'utf-16be';

/**
 * windows-1252's characters for the bytes 0x80-0x9F (the rest is ISO-8859-1). Files that
 * declare ISO-8859-1 are read the same way, as browsers do (WHATWG Encoding): writers that
 * declare ISO-8859-1 put the euro sign and typographic quotes there, and the C1 control
 * characters those bytes would otherwise be have no place in a catalog. The five bytes
 * windows-1252 leaves undefined keep their ISO-8859-1 code point.
 */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d,
  0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d,
  0x017e, 0x0178,
];

function singleByte(bytes: Uint8Array): string {
  const codes = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    codes[i] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80]! : b;
  }
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.subarray(i, i + 8192));
  return out;
}

function utf16(bytes: Uint8Array, littleEndian: boolean): string {
  const units = new Uint16Array(bytes.length >> 1);
  for (let i = 0; i < units.length; i++)
    units[i] = littleEndian ? bytes[2 * i]! | (bytes[2 * i + 1]! << 8) : (bytes[2 * i]! << 8) | bytes[2 * i + 1]!;
  let out = '';
  for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192));
  return out;
}

/** Where the last complete UTF-8 character of `bytes` ends. */
function utf8Boundary(bytes: Uint8Array): number {
  let i = bytes.length;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return back + 1 >= need ? bytes.length : i - 1;
}

/** Where the last complete UTF-16 character ends: an even length, never between the halves of a surrogate pair. */
function utf16Boundary(bytes: Uint8Array, littleEndian: boolean): number {
  let end = bytes.length & ~1;
  if (end >= 2) {
    const last = littleEndian ? bytes[end - 2]! | (bytes[end - 1]! << 8) : (bytes[end - 2]! << 8) | bytes[end - 1]!;
    if (last >= 0xd800 && last <= 0xdbff) end -= 2;
  }
  return end;
}

/** Where a chunk of `bytes` can be cut so that it ends with a whole character. */
export function characterBoundary(bytes: Uint8Array, encoding: TextEncodingName): number {
  if (encoding === 'utf-8') return utf8Boundary(bytes);
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return utf16Boundary(bytes, encoding === 'utf-16le');
  return bytes.length;
}

/** Length of a byte-order mark at the start of `bytes` in `encoding` (0 when there is none). */
export function bomLength(bytes: Uint8Array, encoding: TextEncodingName): number {
  if (encoding === 'utf-8') return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  if (encoding === 'utf-16le') return bytes[0] === 0xff && bytes[1] === 0xfe ? 2 : 0;
  if (encoding === 'utf-16be') return bytes[0] === 0xfe && bytes[1] === 0xff ? 2 : 0;
  return 0;
}

/** Bytes per UTF-16 unit of decoded text, for the encodings whose width is fixed (null: UTF-8). */
export function bytesPerUnit(encoding: TextEncodingName): number | null {
  if (encoding === 'utf-8') return null;
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 1;
}

/** A decoder for whole characters (cut with characterBoundary); UTF-8 throws on invalid bytes. */
export function decoderFor(encoding: TextEncodingName): (bytes: Uint8Array) => string {
  if (encoding === 'utf-8') {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    return (bytes) => decoder.decode(bytes, { stream: true });
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return (bytes) => utf16(bytes, encoding === 'utf-16le');
  return singleByte;
}

/**
 * The encoding a file's first bytes show without reading its declaration: a byte-order mark,
 * or the `<?` of an XML declaration in UTF-16 without one. Null: an ASCII-compatible encoding,
 * named by the XML declaration (UTF-8 when there is none).
 */
export function sniffEncoding(bytes: Uint8Array): TextEncodingName | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) return 'utf-16le';
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) return 'utf-16be';
  return null;
}

/** Decodes the first bytes of a file for format detection (leniently: the head may end mid-character). */
export function decodeHead(bytes: Uint8Array): { text: string; sniffed: TextEncodingName | null } {
  const sniffed = sniffEncoding(bytes);
  if (sniffed === 'utf-16le' || sniffed === 'utf-16be') {
    const cut = bytes.subarray(0, characterBoundary(bytes, sniffed));
    return { text: decoderFor(sniffed)(cut).replace(/^\uFEFF/, ''), sniffed };
  }
  return { text: new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''), sniffed };
}

/** The encoding an XML declaration names, in either case; undefined when it names one this service does not read. */
export function declaredEncoding(name: string): TextEncodingName | 'utf-16' | undefined {
  const n = name.toLowerCase();
  if (n === 'utf-8' || n === 'utf8') return 'utf-8';
  if (['iso-8859-1', 'iso8859-1', 'iso_8859-1', 'latin1', 'latin-1', 'l1', 'us-ascii', 'ascii'].includes(n))
    return 'latin1';
  if (['windows-1252', 'cp1252', 'x-cp1252'].includes(n)) return 'windows-1252';
  if (n === 'utf-16' || n === 'utf-16le' || n === 'utf-16be' || n === 'ucs-2') return 'utf-16';
  return undefined;
}
