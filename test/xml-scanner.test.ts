import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { declaredEntities } from '../src/imports/read/xml-entities';
import { XmlScanner, XmlSyntaxError } from '../src/imports/read/xml-scanner';
import { DETAILS_2005 } from './fixtures/bmecat-details-languages';
import { DEFAULT_LANGUAGE_12, ITALIAN_2005, TWO_LANGUAGES_2005 } from './fixtures/bmecat-languages';
import { ONTO_FILE } from './fixtures/bmecat-onto';
import { article, DIALECTS, file, price12, price2005, product } from './fixtures/bmecat-variants';
import { SUPPLIER_2005 } from './fixtures/supplier-2005';
import { SUPPLIER_DIALECTS, supplierFile } from './fixtures/supplier-dialects';
import { ETIM_BMECAT_MODELLING } from './fixtures/xchange-modelling';

/**
 * The import's XML reader against saxes (the strict parser it replaces on the import path):
 * every BMEcat fixture and hand-written case cut into pieces of many sizes must give the same
 * events (start tags with their attributes, the text of each element, end tags), the same
 * line at each tag and stream position at each end tag (the resume points), the same DOCTYPE
 * text; and a file saxes refuses must be refused at the same line.
 */
type Event = (string | number | boolean | string[][])[];

/** The events the BMEcat reader uses, with text merged per element as it appends it. */
function withSaxes(pieces: string[]): Event[] {
  const out: Event[] = [];
  const parser = new SaxesParser({ position: true });
  let text = '';
  let depth = 0;
  const flush = () => {
    if (text) out.push(['text', text]);
    text = '';
  };
  parser.on('doctype', (doctype) => {
    out.push(['doctype', doctype]);
    Object.assign(parser.ENTITIES, declaredEntities(doctype).internal);
  });
  parser.on('opentag', (tag) => {
    flush();
    depth++;
    out.push([
      'open',
      tag.name,
      Object.entries(tag.attributes as Record<string, string>),
      tag.isSelfClosing,
      parser.line,
    ]);
  });
  const onText = (t: string) => {
    if (depth > 0) text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    flush();
    depth--;
    out.push(['close', parser.position, parser.line]);
  });
  try {
    for (const piece of pieces) parser.write(piece);
    parser.close();
  } catch {
    out.push(['error', parser.line]);
  }
  return out;
}

function withScanner(pieces: string[]): Event[] {
  const out: Event[] = [];
  let text = '';
  const flush = () => {
    if (text) out.push(['text', text]);
    text = '';
  };
  const scanner: XmlScanner = new XmlScanner({
    doctype(doctype) {
      out.push(['doctype', doctype]);
      Object.assign(scanner.entities, declaredEntities(doctype).internal);
    },
    opentag(name, attributes, isSelfClosing) {
      flush();
      out.push(['open', name, Object.entries(attributes ?? {}), isSelfClosing, scanner.line]);
    },
    text(t) {
      text += t;
    },
    closetag() {
      flush();
      out.push(['close', scanner.position, scanner.line]);
    },
  });
  try {
    for (const piece of pieces) scanner.write(piece);
    scanner.close();
  } catch (err) {
    if (!(err instanceof XmlSyntaxError)) throw err;
    out.push(['error', err.line]);
  }
  return out;
}

const cut = (text: string, size: number) => {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
};

/** 1 to 64 characters, then sizes up to 4,096 (every one would take minutes for no more cuts). */
const SIZES = [
  ...Array.from({ length: 64 }, (_, i) => i + 1),
  ...[97, 128, 251, 256, 509, 512, 1021, 1024, 2039, 2048, 4093, 4096],
];

const CASES: [string, string][] = [
  ['SUPPLIER_2005', SUPPLIER_2005],
  ['DETAILS_2005', DETAILS_2005],
  ['TWO_LANGUAGES_2005', TWO_LANGUAGES_2005],
  ['DEFAULT_LANGUAGE_12', DEFAULT_LANGUAGE_12],
  ['ITALIAN_2005', ITALIAN_2005],
  ['ONTO_FILE', ONTO_FILE],
  ['ETIM_BMECAT_MODELLING', ETIM_BMECAT_MODELLING],
  ...SUPPLIER_DIALECTS.map((d): [string, string] => [`supplier ${d.name}`, supplierFile(d)]),
  ...DIALECTS.map((d): [string, string] => [
    `dialect ${d.name}`,
    file({
      root: d.root,
      rootName: d.rootName,
      records: d.articles
        ? [article('A-1', 'Kabel ä', price12('1.50'))]
        : [product('P-1', 'Kabel ä', price2005('1.50'), 'mode="new"', d.rootName?.replace(/BMECAT$/, ''))],
    }),
  ]),
  [
    'CRLF, CR, tabs, entities, character references, CDATA, comments, PIs',
    '<?xml version="1.0" encoding="UTF-8"?>\r\n<!-- Kopf -->\r\n<?stylesheet a="b"?>\r\n<BMECAT version="2005" a = \'x&amp;y\t"z"\r\nw\'>\r\n' +
      '<T x="&#10;&#x41;&lt;&gt;&quot;&apos;"><N>Grüße &amp; 👋 &#128075; &#xE4;\r\nZeile\rZwei</N>' +
      '<D><![CDATA[<b>fett</b> & ]] ] > \r\n]]>nach<!-- c --> &gt; <?pi x?>Ende</D><E/><E a="1" /><F></F>\n</T></BMECAT>\n<!-- Ende -->\n',
  ],
  [
    'a DOCTYPE with an internal subset, declared entities and brackets in literals',
    '<?xml version="1.0"?>\n<!DOCTYPE BMECAT SYSTEM "bmecat.dtd" [\n<!-- ] > -->\n<!ENTITY e "Ein ]>">\n<!ENTITY f \'&e; zwei\'>\n<!ENTITY % p "x">\n]>\n<BMECAT><A>&e;|&f;</A></BMECAT>',
  ],
  [
    'prefixed names and inline markup',
    '<bme:BMECAT xmlns:bme="u"><bme:D>a <b class="x">b</b><br/>c</bme:D></bme:BMECAT>',
  ],
];

const BAD: [string, string][] = [
  ['a mismatched end tag', SUPPLIER_2005.replace('</MANUFACTURER_NAME>', '</MANUFACTURER>')],
  ['a truncated file', SUPPLIER_2005.slice(0, SUPPLIER_2005.indexOf('<PRODUCT_TO_CATALOGGROUP_MAP'))],
  ['an undefined entity', SUPPLIER_2005.replace('Eaton', 'Eaton &nbsp;')],
  ['an unescaped <', SUPPLIER_2005.replace('Eaton', 'Eaton < Co')],
  ['a < in an attribute', '<BMECAT a="<"></BMECAT>'],
  ['an unquoted attribute', '<BMECAT a=b></BMECAT>'],
  ['a duplicate attribute', '<BMECAT a="1" a="2"></BMECAT>'],
  ['attributes without whitespace', '<BMECAT a="1"b="2"></BMECAT>'],
  ['a bad name', '<BMECAT><1A>x</1A></BMECAT>'],
  ['two roots', '<BMECAT></BMECAT>\n<BMECAT></BMECAT>'],
  ['text outside the root', '<BMECAT></BMECAT>\ntext'],
  ['text before the root', 'text<BMECAT></BMECAT>'],
  ['no root', '<?xml version="1.0"?>\n<!-- nichts -->\n'],
  ['an end tag without a start', '<BMECAT></BMECAT></X>'],
  ['a disallowed character', '<BMECAT>\n\u0001</BMECAT>'],
  ['a disallowed character reference', '<BMECAT>\n&#1;</BMECAT>'],
  ['"]]>" in text', '<BMECAT>\na]]>b</BMECAT>'],
  ['"--" in a comment', '<BMECAT>\n<!-- a -- b --></BMECAT>'],
  ['a DOCTYPE after the root', '<BMECAT></BMECAT>\n<!DOCTYPE BMECAT>'],
  ['CDATA outside the root', '<![CDATA[x]]><BMECAT></BMECAT>'],
  ['an XML declaration not at the start', ' <?xml version="1.0"?><BMECAT/>'],
  ['an unclosed comment', '<BMECAT><!-- x </BMECAT>'],
  ['an unclosed start tag', '<BMECAT><A b="1"'],
  ['an unclosed element', '<BMECAT><A>x</A>'],
];

describe('XmlScanner against saxes', () => {
  it.each(CASES)('gives the same events for %s in every cut', (_name, xml) => {
    const expected = withSaxes([xml]);
    expect(expected.some((e) => e[0] === 'error')).toBe(false);
    for (const size of SIZES) expect(withScanner(cut(xml, size)), `pieces of ${size}`).toEqual(expected);
  });

  it.each(BAD)('refuses %s at the line saxes does, in every cut', (_name, xml) => {
    const expected = withSaxes([xml]);
    expect(expected.at(-1)?.[0]).toBe('error');
    for (const size of SIZES) expect(withScanner(cut(xml, size)).at(-1), `pieces of ${size}`).toEqual(expected.at(-1));
  });

  it('names the line of an unescaped & (saxes reads on to the next ";"), and refuses a lone surrogate (saxes lets it through)', () => {
    const ampersand = SUPPLIER_2005.replace('Eaton', 'Eaton & Co');
    const line = SUPPLIER_2005.slice(0, SUPPLIER_2005.indexOf('Eaton')).split('\n').length;
    expect(withSaxes([ampersand]).at(-1)).toEqual(['error', expect.any(Number)]);
    expect(withSaxes([ampersand]).at(-1)).not.toEqual(['error', line]);
    const surrogate = '<BMECAT>\n\uD800x</BMECAT>';
    expect(withSaxes([surrogate]).at(-1)?.[0]).toBe('close');
    for (const size of SIZES) {
      expect(withScanner(cut(ampersand, size)).at(-1)).toEqual(['error', line]);
      expect(withScanner(cut(surrogate, size)).at(-1)).toEqual(['error', 2]);
    }
  });
});
