/**
 * A streaming XML reader for the subset import files use, in place of saxes on the import's
 * hot path: elements, attributes, text, CDATA, comments, processing instructions, the XML
 * declaration, a DOCTYPE (its text is handed on whole; xml-entities.ts reads its declarations),
 * the five predefined entities, character references and declared entities. Names keep their
 * prefixes as written (no namespace processing, as saxes without `xmlns`).
 *
 * saxes looks at every character in JavaScript (`getCode` per character was about 12 % of a
 * BMEcat import's Worker profile: docs/benchmarks.md "Import throughput, part 8"). This reader
 * finds the next `<` with `indexOf` and reads a whole tag with one sticky regex match, so the
 * per-character work is native. It makes the checks an import needs of a well-formed file
 * (XML 1.0 characters, names, matching end tags, unescaped `<` and `&`, quoted attribute values
 * without duplicates, `]]>` in text, one root element, a DOCTYPE only before it) and reports the
 * same events, stream positions and lines as saxes: test/xml-scanner.test.ts compares both on
 * every BMEcat fixture cut into pieces of 1 to 4,096 characters.
 *
 * A token cut by the end of a piece is kept and read again with the next piece; `position` is
 * the stream offset (UTF-16 units of everything written) just after the last token read, which
 * the BMEcat reader turns into the byte offset an import resumes from.
 */

/** A start tag as the reader reports it (the shape of saxes' `SaxesTagPlain` the import uses). */
export interface XmlTag {
  name: string;
  attributes: Record<string, string>;
  isSelfClosing: boolean;
}

export interface XmlHandlers {
  doctype?(text: string): void;
  /** `attributes` is null for a tag without any. */
  opentag(name: string, attributes: Record<string, string> | null, isSelfClosing: boolean): void;
  /** Character data inside the root element (entities resolved, line ends normalised), CDATA included. */
  text(text: string): void;
  closetag(): void;
  /** Called before a declared (not predefined) entity is resolved; may throw (the expansion budget). */
  entity?(name: string): void;
}

/** A file that is not well-formed XML: `line` is where the reader found it. */
export class XmlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${line}: ${reason}`);
  }
}

const NAME_START =
  ':A-Z_a-z\\xC0-\\xD6\\xD8-\\xF6\\xF8-\\u02FF\\u0370-\\u037D\\u037F-\\u1FFF\\u200C\\u200D\\u2070-\\u218F\\u2C00-\\u2FEF\\u3001-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFFD\\u{10000}-\\u{EFFFF}';
const NAME_REST = `${NAME_START}\\-.0-9\\xB7\\u0300-\\u036F\\u203F\\u2040`;
const NAME = `[${NAME_START}][${NAME_REST}]*`;
const S = '[ \\t\\r\\n]';

/** A whole start tag: name, the attributes' text, and `/` of an empty-element tag. */
const START_TAG = new RegExp(`<(${NAME})((?:${S}+${NAME}${S}*=${S}*(?:"[^<"]*"|'[^<']*'))*)${S}*(/?)>`, 'uy');
/** What the start of a start tag cut by the end of a piece may look like (anything else is an error). */
const START_TAG_PREFIX = new RegExp(
  `<(?:${NAME}(?:${S}+${NAME}${S}*=${S}*(?:"[^<"]*"|'[^<']*'))*${S}*(?:${NAME}${S}*(?:=${S}*(?:"[^<"]*|'[^<']*)?)?)?/?)?$`,
  'uy',
);
const ATTRIBUTE = new RegExp(`(${NAME})${S}*=${S}*(?:"([^<"]*)"|'([^<']*)')`, 'gu');
const TAG_NAME = new RegExp(NAME, 'uy');
const END_TAG = new RegExp(`</(${NAME})${S}*>`, 'uy');
const END_TAG_PREFIX = new RegExp(`</(?:${NAME}${S}*)?$`, 'uy');
const PI_TARGET = new RegExp(`<\\?(${NAME})(?:${S}|\\?>)`, 'uy');
const XML_DECLARATION = new RegExp(
  `<\\?xml${S}+version${S}*=${S}*(?:"1\\.[0-9]+"|'1\\.[0-9]+')(?:${S}+encoding${S}*=${S}*(?:"[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?(?:${S}+standalone${S}*=${S}*(?:"(?:yes|no)"|'(?:yes|no)'))?${S}*\\?>`,
  'y',
);
const REFERENCE = new RegExp(`&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(${NAME}));`, 'uy');
/** A character XML 1.0 does not allow (lone surrogates included). */
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
/** What NOT_XML_CHAR may match, without the Unicode mode's cost: most pieces have none of it. */
const MAYBE_NOT_XML_CHAR = /[\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
const NOT_WHITESPACE = /[^ \t\r\n]/;
const LINE_END = /\r\n?/g;
const ATTRIBUTE_SPACE = /\r\n|[\t\n\r]/g;

const DECLARATIONS = ['<!--', '<![CDATA[', '<!DOCTYPE'];
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const isXmlChar = (code: number) =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

export class XmlScanner {
  /** Declared entities (name → replacement text), as saxes' `ENTITIES`; the predefined five always apply. */
  readonly entities: Record<string, string> = {};
  /** The text not read yet: a token cut by the end of the last piece. */
  private buffer = '';
  /** Stream offset of `buffer[0]`. */
  private bufferStart = 0;
  /** Stream offset just after the last token read. */
  private end = 0;
  /** Lines counted up to stream offset `counted`. */
  private lines = 1;
  private counted = 0;
  /** Index in `buffer` of the next CR at or after `counted` (-1: none; -2: not looked for). */
  private nextCr = -2;
  private readonly open: string[] = [];
  private sawRoot = false;
  private closedRoot = false;
  private sawDoctype = false;
  /** A high surrogate that ended the last piece: its pair is checked with the next one. */
  private pendingHigh = '';

  constructor(private readonly on: XmlHandlers) {}

  /** Stream offset just after the last token read (saxes' `position` at its events). */
  get position(): number {
    return this.end;
  }

  /** The line at `position`, counted as saxes does (CR LF, CR and LF each end one line). */
  get line(): number {
    return this.lineAt(this.end);
  }

  write(piece: string): void {
    const start = this.bufferStart + this.buffer.length;
    this.buffer = this.buffer.length > 0 ? this.buffer + piece : piece;
    this.nextCr = -2;
    this.checkCharacters(piece, start);
    this.scan(false);
  }

  /** The end of the file: everything must be read and every element closed. */
  close(): void {
    if (this.pendingHigh) this.fail(this.bufferStart + this.buffer.length, 'disallowed character.');
    this.scan(true);
    if (this.buffer.length > 0) this.fail(this.bufferStart + this.buffer.length, 'unexpected end.');
    if (!this.sawRoot) this.fail(this.end, 'document must contain a root element.');
    if (this.open.length > 0) this.fail(this.end, `unclosed tag: ${this.open.at(-1)}`);
  }

  /** One native scan per piece for characters XML does not allow; a surrogate pair cut by the piece's end is checked whole. */
  private checkCharacters(piece: string, start: number): void {
    if (!this.pendingHigh && !MAYBE_NOT_XML_CHAR.test(piece)) return;
    const carried = this.pendingHigh.length;
    let text = carried > 0 ? this.pendingHigh + piece : piece;
    const last = text.charCodeAt(text.length - 1);
    this.pendingHigh = last >= 0xd800 && last <= 0xdbff ? text[text.length - 1]! : '';
    if (this.pendingHigh) text = text.slice(0, -1);
    const bad = NOT_XML_CHAR.exec(text);
    if (bad) this.fail(start + bad.index - carried, 'disallowed character.');
  }

  private lineAt(offset: number): number {
    if (offset < this.counted) return this.lines;
    const text = this.buffer;
    let i = this.counted - this.bufferStart;
    const to = offset - this.bufferStart;
    let lines = this.lines;
    // The next CR is looked for again only once passed: most files have none, and looking for it
    // at every line would scan the rest of the buffer each time.
    let cr = this.nextCr;
    for (;;) {
      const nl = text.indexOf('\n', i);
      if (cr !== -1 && cr < i) cr = text.indexOf('\r', i);
      const next = nl < 0 ? cr : cr < 0 ? nl : Math.min(nl, cr);
      if (next < 0 || next >= to) break;
      lines++;
      i = text.charCodeAt(next) === 13 && text.charCodeAt(next + 1) === 10 ? next + 2 : next + 1;
    }
    this.lines = lines;
    this.counted = offset;
    this.nextCr = cr;
    return lines;
  }

  private fail(offset: number, reason: string): never {
    throw new XmlSyntaxError(this.lineAt(Math.max(offset, this.counted)), reason);
  }

  /** Reads the tokens complete in the buffer; at `final`, a cut token is an error. */
  private scan(final: boolean): void {
    const text = this.buffer;
    const base = this.bufferStart;
    let i = 0;
    while (i < text.length) {
      const lt = text.indexOf('<', i);
      if (lt !== i) {
        // Character data up to the next tag (held until that tag is here: entities and CR LF stay whole).
        if (lt < 0 && !final) break;
        this.characters(text.slice(i, lt < 0 ? text.length : lt), base + i);
        i = lt < 0 ? text.length : lt;
        this.end = base + i;
        continue;
      }
      const next = this.markup(text, i, base, final);
      if (next < 0) break;
      i = next;
      this.end = base + i;
    }
    // Count the lines of what is dropped, then keep the rest for the next piece.
    this.lineAt(base + i);
    this.buffer = text.slice(i);
    this.bufferStart = base + i;
    this.nextCr = -2;
  }

  /** Reads the markup at `i` (text[i] is `<`); returns where it ends, or -1 when it is cut by the end of the piece. */
  private markup(text: string, i: number, base: number, final: boolean): number {
    const c = text.charCodeAt(i + 1);
    if (c === 47 /* / */) return this.endTag(text, i, base, final);
    if (c === 33 /* ! */) return this.declaration(text, i, base, final);
    if (c === 63 /* ? */) return this.instruction(text, i, base, final);
    // Most start tags are a name and `>`: matched without the whole tag's regex and its captures.
    TAG_NAME.lastIndex = i + 1;
    let name: string | undefined;
    let attributes: Record<string, string> | null = null;
    let close = -1;
    let selfClosing = false;
    if (TAG_NAME.test(text)) {
      const after = TAG_NAME.lastIndex;
      const next = text.charCodeAt(after);
      if (next === 62 /* > */) close = after;
      else if (next === 47 /* / */ && text.charCodeAt(after + 1) === 62) {
        close = after + 1;
        selfClosing = true;
      }
      if (close >= 0) name = text.slice(i + 1, after);
    }
    if (name === undefined) {
      START_TAG.lastIndex = i;
      const m = START_TAG.exec(text);
      if (!m) {
        START_TAG_PREFIX.lastIndex = i;
        if (!final && START_TAG_PREFIX.test(text)) return -1;
        this.fail(base + i, Number.isNaN(c) ? 'unexpected end.' : 'malformed start tag.');
      }
      name = m[1]!;
      selfClosing = m[3] === '/';
      close = i + m[0].length - 1;
      if (m[2]) attributes = this.attributes(m[2], base + i);
    }
    if (this.closedRoot || (this.open.length === 0 && this.sawRoot))
      this.fail(base + i, 'documents may contain only one root.');
    this.sawRoot = true;
    this.end = base + close + 1;
    this.on.opentag(name, attributes, selfClosing);
    if (selfClosing) {
      if (this.open.length === 0) this.closedRoot = true;
      this.on.closetag();
    } else this.open.push(name);
    return close + 1;
  }

  private attributes(text: string, at: number): Record<string, string> {
    const out: Record<string, string> = {};
    ATTRIBUTE.lastIndex = 0;
    for (let m = ATTRIBUTE.exec(text); m; m = ATTRIBUTE.exec(text)) {
      const name = m[1]!;
      if (Object.hasOwn(out, name)) this.fail(at, `duplicate attribute: ${name}.`);
      let value = m[2] ?? m[3]!;
      if (value.includes('\t') || value.includes('\n') || value.includes('\r'))
        value = value.replace(ATTRIBUTE_SPACE, ' ');
      out[name] = value.includes('&') ? this.references(value, at) : value;
    }
    return out;
  }

  private endTag(text: string, i: number, base: number, final: boolean): number {
    // The usual end tag names the open element and ends right after it: compared in place.
    const open = this.open[this.open.length - 1];
    if (open !== undefined && text.charCodeAt(i + 2 + open.length) === 62 && text.startsWith(open, i + 2)) {
      const end = i + 3 + open.length;
      this.end = base + end;
      this.open.pop();
      if (this.open.length === 0) this.closedRoot = true;
      this.on.closetag();
      return end;
    }
    END_TAG.lastIndex = i;
    const m = END_TAG.exec(text);
    if (!m) {
      END_TAG_PREFIX.lastIndex = i;
      if (!final && END_TAG_PREFIX.test(text)) return -1;
      this.fail(base + i, 'disallowed character in closing tag.');
    }
    this.end = base + i + m[0].length;
    const name = m[1]!;
    const innermost = this.open.pop();
    if (innermost === undefined) this.fail(this.end, `unmatched closing tag: ${name}.`);
    if (innermost !== name) this.fail(this.end, 'unexpected close tag.');
    if (this.open.length === 0) this.closedRoot = true;
    this.on.closetag();
    return i + m[0].length;
  }

  /** `<!--`, `<![CDATA[` or `<!DOCTYPE`. */
  private declaration(text: string, i: number, base: number, final: boolean): number {
    const cut = (what: string) => {
      if (!final) return -1;
      return this.fail(base + text.length, `unexpected end (${what}).`);
    };
    if (!final && text.length < i + 9 && DECLARATIONS.some((d) => d.startsWith(text.slice(i, i + d.length)))) return -1;
    if (text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return cut('comment');
      const body = text.slice(i + 4, close);
      if (body.includes('--') || body.endsWith('-')) this.fail(base + close, 'malformed comment.');
      return close + 3;
    }
    if (text.startsWith('<![CDATA[', i)) {
      if (this.open.length === 0) this.fail(base + i, 'text data outside of root node.');
      const close = text.indexOf(']]>', i + 9);
      if (close < 0) return cut('CDATA section');
      const body = text.slice(i + 9, close);
      if (body.length > 0) this.on.text(body.includes('\r') ? body.replace(LINE_END, '\n') : body);
      return close + 3;
    }
    if (text.startsWith('<!DOCTYPE', i)) {
      if (this.sawRoot || this.sawDoctype) this.fail(base + i, 'inappropriately located doctype declaration.');
      const close = doctypeEnd(text, i + 9);
      if (close < 0) return cut('DOCTYPE');
      this.sawDoctype = true;
      this.end = base + close + 1;
      this.on.doctype?.(text.slice(i + 9, close));
      return close + 1;
    }
    return this.fail(base + i, 'incorrect syntax.');
  }

  /** `<?target ...?>`, and the XML declaration. */
  private instruction(text: string, i: number, base: number, final: boolean): number {
    const close = text.indexOf('?>', i + 2);
    if (close < 0) {
      if (!final) return -1;
      return this.fail(base + text.length, 'unexpected end (processing instruction).');
    }
    PI_TARGET.lastIndex = i;
    const m = PI_TARGET.exec(text);
    if (!m) this.fail(base + i, 'disallowed character in processing instruction name.');
    if (m[1]!.toLowerCase() === 'xml') {
      if (base + i !== 0 || m[1] !== 'xml')
        this.fail(base + i, 'an XML declaration must be at the start of the document.');
      XML_DECLARATION.lastIndex = i;
      if (!XML_DECLARATION.test(text) || XML_DECLARATION.lastIndex !== close + 2)
        this.fail(base + close, 'malformed XML declaration.');
    }
    return close + 2;
  }

  /** Text between tags: checked, its references resolved and line ends normalised, handed on inside the root. */
  private characters(raw: string, at: number): void {
    if (this.open.length === 0) {
      const text = NOT_WHITESPACE.exec(raw);
      if (text) this.fail(at + text.index, 'text data outside of root node.');
      return;
    }
    if (raw.includes(']]>')) this.fail(at + raw.indexOf(']]>'), 'the string "]]>" is disallowed in char data.');
    let text = raw.includes('\r') ? raw.replace(LINE_END, '\n') : raw;
    if (text.includes('&')) text = this.references(text, at);
    this.on.text(text);
  }

  /** Resolves the references in `text` (character, predefined and declared entities); an unescaped `&` is an error. */
  private references(text: string, at: number): string {
    let out = '';
    let from = 0;
    for (let amp = text.indexOf('&'); amp >= 0; amp = text.indexOf('&', from)) {
      out += text.slice(from, amp);
      REFERENCE.lastIndex = amp;
      const m = REFERENCE.exec(text);
      if (!m) {
        const semi = text.indexOf(';', amp);
        this.fail(
          at + amp,
          semi < 0 ? 'unescaped "&" (an entity reference without ";").' : 'disallowed character in entity name.',
        );
      }
      from = amp + m[0].length;
      if (m[3] !== undefined) {
        const name = m[3];
        const predefined = PREDEFINED[name];
        if (predefined !== undefined) {
          out += predefined;
          continue;
        }
        this.on.entity?.(name);
        const declared = Object.hasOwn(this.entities, name) ? this.entities[name] : undefined;
        if (declared === undefined) this.fail(at + amp, 'undefined entity.');
        out += declared;
        continue;
      }
      const code = m[1] !== undefined ? Number.parseInt(m[1], 16) : Number.parseInt(m[2]!, 10);
      if (!isXmlChar(code)) this.fail(at + amp, 'malformed character entity.');
      out += String.fromCodePoint(code);
    }
    return out + text.slice(from);
  }
}

/**
 * Where a DOCTYPE ends (the index of its `>`), from just after `<!DOCTYPE`; -1 when the text
 * ends first. Quoted literals and, in the internal subset, comments may hold `>` and `]`.
 */
function doctypeEnd(text: string, from: number): number {
  let subset = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (subset && c === '<' && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) return -1;
      i = close + 2;
    } else if (c === '[') subset = true;
    else if (c === ']') subset = false;
    else if (c === '>' && !subset) return i;
  }
  return -1;
}
