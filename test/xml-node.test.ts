import { describe, expect, it } from 'vitest';
import { child, children, nameTest, textOf, type XmlNode } from '../src/imports/read/xml-node';

const node = (name: string, text = '', kids: XmlNode[] = []): XmlNode => ({
  name,
  attrs: {},
  text,
  children: kids,
  line: 1,
});

describe('nameTest', () => {
  it('answers as Set.has would for names of equal and other lengths, built from new strings', () => {
    const names = ['PRODUCT', 'ARTICLE', 'KEYWORD', 'MIME_DESCR', 'A', ''];
    const set = new Set(names);
    const test = nameTest(names);
    const xml = '<PRODUCT><ARTICLE><KEYWORDS><KEYWORD><MIME_DESC><MIME_DESCR><B><A><PRODUCTS><product>';
    const candidates = [...xml.matchAll(/<([^>]*)>/g)].map((m) => m[1]!);
    for (const name of [...candidates, '', 'ARTICL', 'ARTICLEX', 'PRODUCS'])
      expect([name, test(name)]).toEqual([name, set.has(name)]);
  });

  it('has nothing for no names', () => {
    expect(nameTest([])('PRODUCT')).toBe(false);
  });
});

describe('child, children and textOf', () => {
  const product = node('PRODUCT', '', [
    node('SUPPLIER_PID', '  '),
    node('SUPPLIER_AID', ' A-1 '),
    node('SUPPLIER_PID', 'P-2'),
    node('KEYWORD', 'k1'),
  ]);

  it('take the first child of any of the names, in file order', () => {
    expect(child(product, 'SUPPLIER_AID', 'SUPPLIER_PID')?.text).toBe('  ');
    expect(children(product, 'SUPPLIER_PID', 'KEYWORD').map((c) => c.text)).toEqual(['  ', 'P-2', 'k1']);
    expect(children(product, 'MIME')).toEqual([]);
    expect(child(undefined, 'KEYWORD')).toBeUndefined();
    expect(children(undefined, 'KEYWORD')).toEqual([]);
  });

  it('answers null for the first match when it is blank, not the next one', () => {
    expect(textOf(product, 'SUPPLIER_PID')).toBeNull();
    expect(textOf(product, 'SUPPLIER_AID')).toBe('A-1');
    expect(textOf(product, 'MIME')).toBeNull();
  });
});
