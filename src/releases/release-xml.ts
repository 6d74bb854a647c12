import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { readTextChunks, type TextEncodingName } from '../imports/read/text-chunks';
import type { XmlNode } from '../imports/read/xml-node';
import { ReleaseFileError } from './release-errors';

/** The elements of a BMEcat 2005 CLASSIFICATION_SYSTEM read as one row each. */
const RECORDS = new Set(['ALLOWED_VALUE', 'UNIT', 'FEATURE_TEMPLATE', 'CLASSIFICATION_GROUP']);

/** The entries of an ETIM IXF file read as one row each: IXF/Units/Unit, IXF/Classes/Class, ... (and IXF/Header). */
const IXF_RECORDS = new Set(['Unit', 'Feature', 'Value', 'Group', 'Class']);

/** Which XML layout a file is read as: a BMEcat 2005 feature system or an ETIM IXF release. */
export type ReleaseXmlLayout = 'bmecat' | 'ixf';

/** Whether the element just opened (`stack` ends with it) is a record of the layout. */
function isRecord(layout: ReleaseXmlLayout, stack: readonly string[], name: string): boolean {
  if (layout === 'ixf')
    return (
      stack[0] === 'IXF' && ((stack.length === 3 && IXF_RECORDS.has(name)) || (stack.length === 2 && name === 'Header'))
    );
  return RECORDS.has(name) && stack.includes('CLASSIFICATION_SYSTEM');
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * Streams the records of a release in XML, one small tree each, with saxes (strict, streaming):
 * the units, allowed values, feature templates and groups of the CLASSIFICATION_SYSTEM elements
 * of a BMEcat 2005 file (product data and everything outside CLASSIFICATION_SYSTEM is passed
 * over), or the Header and the Unit, Feature, Value, Group and Class entries of an ETIM IXF file
 * (its root must be IXF). A file that is not well-formed fails with its line.
 */
export async function* readReleaseXml(
  files: R2Bucket,
  key: string,
  fileName: string,
  encoding: TextEncodingName,
  layout: ReleaseXmlLayout,
): AsyncGenerator<{ cells: Record<string, string>; node: XmlNode; line: number }> {
  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  const building: XmlNode[] = [];
  const ready: XmlNode[] = [];
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    if (stack.length === 0 && layout === 'ixf' && name !== 'IXF')
      throw new ReleaseFileError(fileName, parser.line, `the root element is ${name}, not IXF (an ETIM IXF file)`);
    stack.push(name);
    if (building.length > 0 || isRecord(layout, stack, name)) {
      const attrs = { ...((tag as SaxesTagPlain).attributes as Record<string, string>) };
      const node: XmlNode = { name, attrs, text: '', children: [], line: parser.line };
      building.at(-1)?.children.push(node);
      building.push(node);
    }
  });
  const addText = (text: string) => {
    const node = building.at(-1);
    if (node) node.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    stack.pop();
    const node = building.pop();
    if (node && building.length === 0) ready.push(node);
  });
  const feed = (text: string | null) => {
    try {
      if (text === null) parser.close();
      else parser.write(text);
    } catch (err) {
      if (err instanceof ReleaseFileError) throw err;
      const reason = String((err as Error)?.message ?? err).replace(/^(?:[^:\s]*:)?\d+:\d+: /, '');
      throw new ReleaseFileError(fileName, parser.line, reason);
    }
  };
  for await (const piece of readTextChunks(files, key, 0, encoding)) {
    feed(piece.text);
    while (ready.length > 0) {
      const node = ready.shift()!;
      yield { cells: {}, node, line: node.line };
    }
  }
  feed(null);
  for (const node of ready) yield { cells: {}, node, line: node.line };
}
