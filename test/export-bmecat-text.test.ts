import { describe, expect, it } from 'vitest';
import { ExportWarnings } from '../src/exports/export-warnings';
import { featureValues } from '../src/exports/bmecat/feature-blocks';
import { mimeType2005 } from '../src/exports/bmecat/fields';
import { supplierPid } from '../src/exports/bmecat/product-view';
import {
  codePointLength,
  el,
  escapeXmlAttr,
  escapeXmlText,
  fitIdentifier,
  fitText,
  shortHash,
  sliceCodePoints,
  stripIllegalXmlChars,
  textEl,
} from '../src/exports/bmecat/xml-text';

describe('XML text escaping', () => {
  it('escapes markup characters in text and attributes', () => {
    expect(escapeXmlText(`a<b>&c "d" 'e' ]]>`)).toBe(`a&lt;b&gt;&amp;c "d" 'e' ]]&gt;`);
    expect(escapeXmlAttr(`x"<&>'`)).toBe(`x&quot;&lt;&amp;&gt;'`);
    expect(textEl('NAME', 'R&D <Kabel>', { lang: 'd"e' })).toBe('<NAME lang="d&quot;e">R&amp;D &lt;Kabel&gt;</NAME>\n');
  });

  it('writes CR, and in attributes tab and LF, as character references so parsers keep them', () => {
    expect(escapeXmlText('a\r\nb\tc')).toBe('a&#13;\nb\tc');
    expect(escapeXmlAttr('a\r\nb\tc')).toBe('a&#13;&#10;b&#9;c');
  });

  it('leaves out empty elements and optional empty containers', () => {
    expect(textEl('A', null)).toBe('');
    expect(textEl('A', '')).toBe('');
    expect(textEl('A', 0)).toBe('<A>0</A>\n');
    expect(el('MIME_INFO', [], undefined, false)).toBe('');
    expect(el('X', [], { type: 'on_request' })).toBe('<X type="on_request">\n</X>\n');
  });
});

describe('characters XML cannot carry', () => {
  it('strips C0/C1 controls and lone surrogates but keeps tab, LF, CR and astral characters', () => {
    const hostile =
      'A\u0000B\u0001\u0008C\u000B\u000C\u001FD\u007F\u0085E\uFFFE\uFFFF\tF\nG\rH\uD83D\uDE00I\uD800J\uDC00K';
    expect(stripIllegalXmlChars(hostile)).toBe('ABCDE\tF\nG\rH\uD83D\uDE00IJK');
  });

  it('turns text that is only control characters into nothing', () => {
    expect(fitText('\u0001\u0002  \u0003', 10)).toEqual({ text: null, truncated: false });
  });
});

describe('length limits in code points', () => {
  it('counts astral characters once, as XSD does', () => {
    expect('😀😀'.length).toBe(4);
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('Kabel ÄÖÜ')).toBe(9);
  });

  it('never splits a surrogate pair when cutting', () => {
    expect(sliceCodePoints('a😀b', 2)).toBe('a😀');
    expect(sliceCodePoints('a😀b', 1)).toBe('a');
    expect(sliceCodePoints('abc', 10)).toBe('abc');
  });

  it('cuts over-long text with an ellipsis inside the limit and says so', () => {
    const long = 'Ü'.repeat(200);
    const fitted = fitText(long, 150);
    expect(fitted.truncated).toBe(true);
    expect(codePointLength(fitted.text!)).toBe(150);
    expect(fitted.text!.endsWith('…')).toBe(true);
    expect(fitText('short', 150)).toEqual({ text: 'short', truncated: false });
    expect(fitText('  padded\n', 150)).toEqual({ text: 'padded', truncated: false });
  });
});

describe('identifiers', () => {
  it('keeps a SKU that fits; gives a product without SKU its id as 32 hex digits', () => {
    expect(supplierPid({ id: '0190a000-0000-7000-8000-000000000001', sku: 'NYM-3x1.5' })).toEqual({
      pid: 'NYM-3x1.5',
      changed: false,
    });
    expect(supplierPid({ id: '0190a000-0000-7000-8000-000000000001', sku: null })).toEqual({
      pid: '0190a000000070008000000000000001',
      changed: false,
    });
    expect(supplierPid({ id: '0190a000-0000-7000-8000-000000000001', sku: '  ' }).pid).toHaveLength(32);
  });

  it('shortens a long SKU to 32 characters with a hash, so two long SKUs stay distinct', () => {
    const a = supplierPid({ id: 'x', sku: `${'A'.repeat(40)}-1` });
    const b = supplierPid({ id: 'x', sku: `${'A'.repeat(40)}-2` });
    expect(a.changed).toBe(true);
    expect(a.pid).toHaveLength(32);
    expect(b.pid).toHaveLength(32);
    expect(a.pid).not.toBe(b.pid);
    expect(a.pid).toBe(`${'A'.repeat(23)}~${shortHash(`${'A'.repeat(40)}-1`)}`);
  });

  it('replaces an identifier with control characters instead of silently merging it with another', () => {
    const fitted = fitIdentifier('AB\u0001C', 32);
    expect(fitted.changed).toBe(true);
    expect(fitted.id).toMatch(/^ABC~[0-9a-f]{8}$/);
    expect(fitIdentifier('ABC', 32)).toEqual({ id: 'ABC', changed: false });
  });
});

describe('feature values as the ETIM BMEcat guideline writes them', () => {
  it('writes a range as two FVALUEs, min first', () => {
    expect(featureValues('-25..55', null)).toEqual(['-25', '55']);
    expect(featureValues('1.5..4', 'range')).toEqual(['1.5', '4']);
  });

  it('writes a degenerate range once where the schema wants distinct values (1.2)', () => {
    expect(featureValues('5..5', null)).toEqual(['5', '5']);
    expect(featureValues('5..5', null, true)).toEqual(['5']);
  });

  it('writes logical values lowercase and keeps EV codes and numbers as stored', () => {
    expect(featureValues('TRUE', null)).toEqual(['true']);
    expect(featureValues('False', 'boolean')).toEqual(['false']);
    expect(featureValues('EV000383', null)).toEqual(['EV000383']);
    expect(featureValues('230', 'number')).toEqual(['230']);
  });

  it('does not split or lowercase text attributes', () => {
    expect(featureValues('1..2 m', 'text')).toEqual(['1..2 m']);
    expect(featureValues('1..2', 'text')).toEqual(['1..2']);
    expect(featureValues('TRUE', 'text')).toEqual(['TRUE']);
  });
});

describe('MIME_TYPE in BMEcat 2005', () => {
  it('writes only the types the schema pattern accepts', () => {
    expect(mimeType2005('image/jpeg')).toBe('image/jpeg');
    expect(mimeType2005('application/pdf')).toBe('application/pdf');
    expect(mimeType2005('image/png')).toBeNull();
    expect(mimeType2005('image/svg+xml')).toBeNull();
  });
});

describe('export warnings', () => {
  it('tallies by kind with at most three examples and merges page tallies', () => {
    const total = new ExportWarnings();
    const page = new ExportWarnings();
    for (const sku of ['A', 'B', 'C', 'D']) page.add('DESCRIPTION_SHORT cut to 150 characters', sku);
    page.add('unit PCE is not in the schema', 'E');
    total.merge(page.toJSON());
    total.merge(page.toJSON());
    expect(total.toJSON()).toEqual({
      'DESCRIPTION_SHORT cut to 150 characters': { count: 8, examples: ['A', 'B', 'C'] },
      'unit PCE is not in the schema': { count: 2, examples: ['E'] },
    });
    expect(total.messages()).toEqual([
      'DESCRIPTION_SHORT cut to 150 characters: 8 times (e.g. A, B, C)',
      'unit PCE is not in the schema: 2 times (e.g. E)',
    ]);
  });

  it('keeps the number of kinds bounded', () => {
    const w = new ExportWarnings();
    for (let i = 0; i < 100; i++) w.add(`kind ${i}`, 'x');
    const kinds = Object.keys(w.toJSON());
    expect(kinds.length).toBe(41);
    expect(w.toJSON()['other adjustments']).toEqual({ count: 60, examples: ['x'] });
  });
});
