import { SaxesParser, type SaxesTag, type SaxesTagPlain } from 'saxes';
import { chunkBytes, ImportFileError, readTextChunks } from './text-chunks';
import { bytesPerUnit, type TextEncodingName } from './text-encodings';
import { declaredEntities, ExpansionBudget, type DeclaredEntities } from './xml-entities';
import { nameTest, type XmlNode } from './xml-node';
import { InlineMarkup, MARKUP_TEXTS } from './inline-markup';

/** Elements read as one unit; an import can stop and resume after any of them. */
const isRecord = nameTest([
  'PRODUCT',
  'ARTICLE',
  'CATALOG_STRUCTURE',
  'PRODUCT_TO_CATALOGGROUP_MAP',
  'ARTICLE_TO_CATALOGGROUP_MAP',
  // BMEcat 2005's price formulas (FORMULAS/FORMULA, before the products): one record each.
  'FORMULA',
]);

/** Elements whose inline markup is kept as text (inline-markup.ts). */
const isMarkupText = nameTest(MARKUP_TEXTS);

/**
 * Where reading continues: the byte offset just after a record element, the line there, and
 * the names of the elements open at that point (e.g. BMECAT, T_NEW_CATALOG). That is all the
 * parser state there is between records, so a fresh parser fed the synthetic start tags of
 * `open` and then the bytes from `offset` continues exactly where the last one stopped.
 */
export interface XmlResumePoint {
  offset: number;
  line: number;
  open: string[];
  /** Record elements read before this point (positions for the report and progress). */
  ordinal: number;
  /** Entities the file's DOCTYPE declares (xml-entities.ts): a resumed parser never sees the DOCTYPE again. */
  entities?: DeclaredEntities;
}

/** Text before the root element at most: a DOCTYPE is held whole while it is read. */
const MAX_PROLOG_CHARS = 4 * 1024 * 1024;

export const XML_START: XmlResumePoint = { offset: 0, line: 1, open: [], ordinal: 0 };

interface XmlRecord {
  node: XmlNode;
  /** Element path, e.g. /BMECAT/T_NEW_CATALOG/PRODUCT. */
  path: string;
  ordinal: number;
  after: XmlResumePoint;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * What every element without attributes shares (most of a PRODUCT's elements have none): one
 * frozen object instead of a new one per element. Nothing writes to a node's `attrs`.
 */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * An element inside a shallow record (the validation pass's products): saxes still checks every
 * byte, and the pass takes only what it needs, the depth (to find the record's end tag) and the
 * `lang` of localizable elements, from saxes' own attribute dictionary. No node, no attribute
 * object, no element stack (docs/benchmarks.md "Import throughput, part 11").
 */
function readShallowTag(
  shallow: { node: XmlNode; inner: number },
  tag: SaxesTag,
  isLocalized: ((name: string) => boolean) | null,
) {
  shallow.inner++;
  if (isLocalized?.(localName(tag.name))) {
    const lang = ((tag.attributes as Record<string, string>).lang ?? '').trim();
    const seen = (shallow.node.languages ??= []);
    if (!seen.includes(lang)) seen.push(lang);
  }
}

/** Drops the parser's own "file:line:column: " prefix; the caller adds the file's line. */
const reason = (err: unknown) => String((err as Error)?.message ?? err).replace(/^(?:[^:\s]*:)?\d+:\d+: /, '');

/**
 * Streams the record elements of a BMEcat file from a resume point, with saxes (a strict,
 * well-formedness-checking streaming parser), as the records each piece of the file completes
 * (one await per piece, not per record). Only the elements of a piece are held in memory. A
 * file that is not well-formed throws ImportFileError naming the line.
 */
export async function* readXmlRecords(
  files: R2Bucket,
  key: string,
  from: XmlResumePoint,
  encoding: TextEncodingName,
  options: { shallow?: ReadonlySet<string>; languagesOf?: ReadonlySet<string> } = {},
): AsyncGenerator<XmlRecord[]> {
  const parser = new SaxesParser({ position: true });
  // Asked of every start tag: name tests instead of the sets' hashing of each new name (xml-node.ts).
  const isShallow = options.shallow ? nameTest(options.shallow) : null;
  const isLocalized = options.languagesOf ? nameTest(options.languagesOf) : null;
  let declared = from.entities;
  let budget = new ExpansionBudget(declared ?? { internal: {}, external: {} });
  if (declared) Object.assign(parser.ENTITIES, declared.internal);
  // saxes resolves every reference here: count what declared entities add (and refuse external ones).
  const parseEntity = (parser as unknown as { parseEntity(name: string): string }).parseEntity.bind(parser);
  (parser as unknown as { parseEntity(name: string): string }).parseEntity = (name) => {
    if (name[0] === '#' || !declared) return parseEntity(name);
    budget.use(name, declared.internal[name] ?? '');
    return parseEntity(name);
  };
  parser.on('doctype', (doctype) => {
    declared = declaredEntities(doctype);
    budget = new ExpansionBudget(declared);
    Object.assign(parser.ENTITIES, declared.internal);
  });
  const prefix = from.open.map((name) => `<${name}>`).join('');
  const lineBase = from.line - 1;
  const stack: string[] = [];
  const building: XmlNode[] = [];
  const ready: XmlRecord[] = [];
  let ordinal = from.ordinal;
  // A record in `options.shallow` is read without its subtree (the validation pass only counts
  // products); `inner` counts the elements open inside it.
  let shallow: { node: XmlNode; inner: number } | null = null;
  // Elements inside a DESCRIPTION_LONG (inline HTML) are kept as its text, not as children.
  let inline: InlineMarkup<XmlNode> | null = null;
  // The chunk being parsed: stream position and byte offset of its start, for position → byte offset.
  let chunk = { text: '', streamStart: 0, byteStart: 0, ascii: true };
  let measured = { index: 0, bytes: 0 };
  const unitBytes = bytesPerUnit(encoding);
  let rootSeen = from.open.length > 0;

  const byteOffsetAt = (position: number) => {
    const index = position - chunk.streamStart;
    if (index < measured.index) measured = { index: 0, bytes: 0 };
    measured = {
      index,
      bytes:
        measured.bytes +
        (unitBytes === null ? chunkBytes(chunk, measured.index, index) : (index - measured.index) * unitBytes),
    };
    return chunk.byteStart + measured.bytes;
  };

  // The element's attributes as saxes reports them, one by one before its start tag: a plain
  // object built here is cheaper than copying saxes' own null-prototype dictionary, and asking
  // that dictionary whether it is empty (for…in) was 3 % of the Worker's import profile. Inside
  // a shallow record none is built (readShallowTag reads the one it needs from the dictionary).
  let attributes: Record<string, string> | null = null;
  parser.on('attribute', onAttribute);
  function onAttribute(attribute: { name: string; value: string }) {
    if (!shallow) (attributes ??= {})[attribute.name] = attribute.value;
  }
  parser.on('opentag', onOpenTag);
  function onOpenTag(tag: SaxesTag) {
    if (shallow) {
      readShallowTag(shallow, tag, isLocalized);
      return;
    }
    const attrs = attributes ?? NO_ATTRIBUTES;
    attributes = null;
    const name = localName(tag.name);
    const line = parser.line + lineBase;
    if (stack.length === 0 && name !== 'BMECAT')
      throw new ImportFileError(`line ${line}: the root element is ${name}, not BMECAT`);
    stack.push(name);
    rootSeen = true;
    const host = building.at(-1);
    if (inline || (host && isMarkupText(host.name))) {
      inline ??= new InlineMarkup(host!);
      inline.start(tag as SaxesTagPlain);
      return;
    }
    if (building.length === 0 && isShallow?.(name) && isRecord(name)) {
      shallow = { node: { name, attrs: {}, text: '', children: [], line }, inner: 0 };
      // Nothing inside a shallow record reads its text: without a handler saxes neither slices nor hands it on.
      parser.off('text');
      parser.off('cdata');
      return;
    }
    if (building.length > 0 || isRecord(name)) {
      const node: XmlNode = {
        name,
        attrs,
        text: '',
        children: [],
        line,
      };
      if (tag.name !== name) node.qname = tag.name;
      building.at(-1)?.children.push(node);
      building.push(node);
    }
  }
  const onText = (text: string) => {
    const node = building.at(-1);
    if (node) node.text += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  const emit = (node: XmlNode) => {
    ordinal++;
    ready.push({
      node,
      path: `/${[...stack, node.name].join('/')}`,
      ordinal,
      after: {
        offset: byteOffsetAt(parser.position),
        line: parser.line + lineBase,
        open: [...stack],
        ordinal,
        ...(declared ? { entities: declared } : {}),
      },
    });
  };
  parser.on('closetag', onCloseTag);
  function onCloseTag() {
    if (shallow) {
      if (shallow.inner-- > 0) return;
      stack.pop();
      emit(shallow.node);
      shallow = null;
      parser.on('text', onText);
      parser.on('cdata', onText);
      return;
    }
    stack.pop();
    if (inline) {
      if (inline.end()) inline = null;
      return;
    }
    const node = building.pop();
    if (node && building.length === 0) emit(node);
  }

  const feed = (text: string) => {
    try {
      parser.write(text);
    } catch (err) {
      // Our own refusals (entity budget, external entities) name the line as saxes' errors do.
      if (err instanceof ImportFileError && /^line \d+:/.test(err.message)) throw err;
      throw new ImportFileError(`line ${parser.line + lineBase}: ${reason(err)}`);
    }
  };

  if (prefix) feed(prefix);
  let streamPosition = prefix.length;
  for await (const piece of readTextChunks(files, key, from.offset, encoding)) {
    if (!rootSeen && streamPosition > MAX_PROLOG_CHARS)
      throw new ImportFileError(
        `line ${parser.line}: more than ${MAX_PROLOG_CHARS.toLocaleString('en')} characters before the BMECAT element (a DOCTYPE that large is not read)`,
      );
    chunk = { text: piece.text, streamStart: streamPosition, byteStart: piece.byteStart, ascii: piece.ascii };
    measured = { index: 0, bytes: 0 };
    streamPosition += piece.text.length;
    feed(piece.text);
    if (ready.length > 0) yield ready.splice(0);
  }
  try {
    parser.close();
  } catch (err) {
    throw new ImportFileError(`line ${parser.line + lineBase}: ${reason(err)} (is the file complete?)`);
  }
  if (ready.length > 0) yield ready;
}
