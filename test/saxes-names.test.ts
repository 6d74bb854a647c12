import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { fastNameScanning, fastTextScanning } from '../src/imports/read/saxes-names';

/** Every event with the parser's position at it, and the error if any, for `xml` written in pieces of `size`. */
function trace(xml: string, size: number, fast: boolean): string[] {
  const parser = new SaxesParser({ position: true });
  if (fast) {
    fastNameScanning(parser);
    fastTextScanning(parser);
  }
  const out: string[] = [];
  const at = () => `${parser.line}:${parser.column}:${parser.position}`;
  parser.on('opentag', (t) => out.push(`open ${t.name} ${JSON.stringify(t.attributes)} ${at()}`));
  parser.on('attribute', (a) => out.push(`attr ${a.name}=${a.value} ${at()}`));
  parser.on('closetag', (t) => out.push(`close ${t.name} ${at()}`));
  parser.on('text', (t) => out.push(`text ${JSON.stringify(t)} ${at()}`));
  parser.on('doctype', (d) => out.push(`doctype ${d} ${at()}`));
  parser.on('processinginstruction', (p) => out.push(`pi ${p.target} ${at()}`));
  try {
    for (let i = 0; i < xml.length; i += size) parser.write(xml.slice(i, i + size));
    parser.close();
  } catch (err) {
    out.push(`error ${(err as Error).message}`);
  }
  return out;
}

const DOCUMENTS = [
  '<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005"><T_NEW_CATALOG><PRODUCT mode="new"><SUPPLIER_PID>A-1</SUPPLIER_PID></PRODUCT></T_NEW_CATALOG></BMECAT>',
  '<BMECAT>\r\n  <PRODUCT_FEATURES>\r\n<FEATURE><FNAME>EF000001</FNAME><FVALUE>12.5</FVALUE></FEATURE></PRODUCT_FEATURES></BMECAT>',
  '<udx:UDX.EDXF.MIME_INFO xmlns:udx="urn:x" udx:a-b.c="1"><udx:UDX.EDXF.MIME/></udx:UDX.EDXF.MIME_INFO>',
  // non-ASCII name characters in the middle, at the start and at the end of a name
  '<Größe Maß="1"><ÄRTIKEL_ß x·y="2">text</ÄRTIKEL_ß></Größe>',
  '<a\tb="1"\nc = "2" ><d/></a>',
  '<!DOCTYPE BMECAT [<!ENTITY co "Company">]><BMECAT>&co;</BMECAT>',
  // not well-formed: the same error at the same place
  '<BMECAT><PRO$DUCT/></BMECAT>',
  '<BMECAT><PRODUCT></PRODUC></BMECAT>',
  '<BMECAT><1PRODUCT/></BMECAT>',
  '<BMECAT a="1" a="2"/>',
  '<BMECAT><PRODUCT',
  // character data: indentation, tabs, CRLF and CR, entities, non-ASCII text, ] and > alone, CDATA
  '<BMECAT>\n  <P>\n\t<D>Kabel 3 x 1,5 mm &amp; mehr &lt;br&gt; a]b a]]b x > y</D>\r\n  <D>Größe ≥ 5 → ok\r\rend</D>\n</P>\n</BMECAT>\n',
  '<BMECAT><D>one\ntwo\nthree &#x41;&#65; <![CDATA[ <raw> ]]> tail</D>\n\n</BMECAT>',
  '<BMECAT><D>a\u0085b\u2028c</D></BMECAT>',
  '<?xml version="1.1"?><BMECAT><D>a\u0085b\u2028c\r\u0085d</D></BMECAT>',
  // not well-formed character data
  '<BMECAT><D>a ]]> b</D></BMECAT>',
  '<BMECAT><D>a ]] ]> b</D></BMECAT>',
  '<BMECAT><D>bad \u0001 char</D></BMECAT>',
  '<BMECAT><D>&undefined; x</D></BMECAT>',
  '<BMECAT>text</BMECAT> trailing text',
];

describe('fastNameScanning and fastTextScanning', () => {
  it('gives the same events, names, positions and errors as saxes alone, however the text is cut', () => {
    for (const xml of DOCUMENTS)
      for (const size of [1, 2, 3, 5, 7, 16, 4096]) {
        const plain = trace(xml, size, false);
        expect(trace(xml, size, true), `${xml} in pieces of ${size}`).toEqual(plain);
      }
  });

  it('reads long names that run over many pieces', () => {
    const name = `P${'RODUCT_FEATURES_'.repeat(40)}X`;
    const xml = `<${name} ${name}="v">x</${name}>`;
    for (const size of [1, 3, 10, 100]) expect(trace(xml, size, true)).toEqual(trace(xml, size, false));
    expect(trace(xml, 7, true)[0]).toContain(`attr ${name}=v`);
  });
});
