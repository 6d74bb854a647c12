/**
 * Text handling for XML exports: every string that reaches a BMEcat file passes through here,
 * so the file is well-formed (escaped, no characters XML 1.0 forbids) and schema-valid
 * (lengths are counted the way XSD counts them: in Unicode code points, not UTF-16 units).
 */

/**
 * Characters that may not (or, for C1 controls and noncharacters, should not) appear in an
 * XML 1.0 document, plus lone surrogates. Tab, LF and CR stay.
 */
const ILLEGAL =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes characters that XML 1.0 cannot carry (control characters, lone surrogates). */
export function stripIllegalXmlChars(text: string): string {
  return text.replace(ILLEGAL, '');
}

/**
 * Escapes text content. `>` is escaped too (it must be inside `]]>`), and CR is written as a
 * character reference so a parser's line-end normalisation does not turn it into LF.
 */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>\r]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : '&#13;'));
}

/** Escapes an attribute value (double-quoted); tab and line breaks as references so they survive attribute normalisation. */
export function escapeXmlAttr(text: string): string {
  return escapeXmlText(text).replace(/["\t\n]/g, (ch) => (ch === '"' ? '&quot;' : ch === '\t' ? '&#9;' : '&#10;'));
}

/** Length as XSD's length facets count it: code points. */
export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    n++;
  }
  return n;
}

/** The first `max` code points (never splits a surrogate pair). */
export function sliceCodePoints(text: string, max: number): string {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    if (n === max) return text.slice(0, i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) i++;
    n++;
  }
  return text;
}

/** Outcome of fitting a value into a schema slot. */
interface FittedText {
  /** Clean text, or null when nothing printable is left (the element is then left out). */
  text: string | null;
  /** True when the value had to be cut to the limit. */
  truncated: boolean;
}

/**
 * Cleans and fits free text into an element with a maximum length: strips illegal characters,
 * trims, and cuts at `max` code points ending in an ellipsis so a reader sees the cut.
 */
export function fitText(
  value: string | null | undefined,
  max: number,
  options: { ellipsis?: boolean } = {},
): FittedText {
  if (value === null || value === undefined) return { text: null, truncated: false };
  const clean = stripIllegalXmlChars(value).trim();
  if (clean.length === 0) return { text: null, truncated: false };
  if (codePointLength(clean) <= max) return { text: clean, truncated: false };
  const ellipsis = options.ellipsis ?? true;
  const cut = sliceCodePoints(clean, ellipsis ? max - 1 : max).trimEnd();
  return { text: ellipsis ? `${cut}…` : cut, truncated: true };
}

/** 32-bit FNV-1a of the UTF-16 units, as 8 hex digits: a short, stable fingerprint of an identifier. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * Fits an identifier (e.g. a SKU into SUPPLIER_PID, at most 32 characters). Identifiers are
 * never cut silently: one that is too long or loses characters keeps a readable prefix and
 * gets a hash of the full value, so two different SKUs still give two different ids.
 */
export function fitIdentifier(value: string, max: number): { id: string; changed: boolean } {
  const clean = stripIllegalXmlChars(value).trim();
  if (clean === value && clean.length > 0 && codePointLength(clean) <= max) return { id: clean, changed: false };
  const prefix = sliceCodePoints(clean, max - 9);
  return { id: `${prefix}~${shortHash(value)}`, changed: true };
}

type Attrs = Record<string, string | number | null | undefined>;

function renderAttrs(attrs: Attrs | undefined): string {
  if (!attrs) return '';
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) out += ` ${name}="${escapeXmlAttr(String(value))}"`;
  }
  return out;
}

/** An element with already-clean text content (escaped here); nothing when the text is null or empty. */
export function textEl(name: string, text: string | number | null | undefined, attrs?: Attrs): string {
  if (text === null || text === undefined || text === '') return '';
  return `<${name}${renderAttrs(attrs)}>${escapeXmlText(String(text))}</${name}>\n`;
}

/** An element around rendered children; nothing when `required` is false and there are no children. */
export function el(name: string, children: string | string[], attrs?: Attrs, required = true): string {
  const inner = Array.isArray(children) ? children.join('') : children;
  if (!required && inner === '') return '';
  return `<${name}${renderAttrs(attrs)}>\n${inner}</${name}>\n`;
}
