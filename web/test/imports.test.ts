import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api/client';
import { describeError } from '../src/api/errors';
import { describeImportFailure } from '../src/api/import-errors';
import { MULTIPART_FROM_BYTES, partStarts } from '../src/api/upload';
import { translator } from '../src/i18n/i18n';
import { reasonText, summaryTotals } from '../src/lib/import-report';

const en = translator('en');
const de = translator('de');

describe('import failures in plain words', () => {
  // The API's own messages (src/imports/*), as a job's error or an upload's answer.
  const cases: [string, RegExp, RegExp][] = [
    [
      'line 1: the file is neither BMEcat XML nor a CSV with a sku column',
      /not a product catalog/,
      /kein Produktkatalog/,
    ],
    [
      'line 1: BMECAT root without a version this service reads (1.01, 1.2, 2005, 2005.1, 2005.2, ETIM guideline 5.0)',
      /BMEcat version is not supported/,
      /BMEcat-Version wird nicht unterstützt/,
    ],
    [
      'line 412: unclosed tag: PRODUCT (is the file complete?)',
      /ends too early.*\(line 412\)/,
      /endet zu früh.*\(Zeile 412\)/,
    ],
    [
      'line 3: entity lol5 expands to more than 65,536 characters (entity expansion limit; an entity bomb?)',
      /refused for safety/,
      /Sicherheitsgründen abgelehnt/,
    ],
    [
      'line 9: entity xxe refers to an external resource (SYSTEM "file:///etc/passwd"); external entities are never read, so the file cannot be imported as it is',
      /outside content that is never loaded/,
      /externe Inhalte/,
    ],
    ['line 1: encoding EBCDIC is not supported (UTF-8, …)', /encoding/, /Zeichensatz/],
    ['line 7: text data outside of root node.', /not valid XML.*\(line 7\)/, /kein gültiges XML.*\(Zeile 7\)/],
  ];
  it.each(cases)('words %s', (message, english, german) => {
    expect(describeImportFailure(message, en)).toMatch(english);
    expect(describeImportFailure(message, de)).toMatch(german);
    // The API's words stay as the detail, without the line prefix already given in words.
    expect(describeImportFailure(message, en)).toContain(`Details: ${message.replace(/^line \d+: /, '')}`);
  });

  it('leaves messages that are not the import’s own to the general wording', () => {
    expect(describeImportFailure('catalog not found', en)).toBeNull();
    expect(describeError(new ApiError(404, 'catalog not found'), en)).toBe(
      'The item does not exist (any more). catalog not found.',
    );
  });

  it('words an upload refused for its size', () => {
    const error = new ApiError(413, 'the file exceeds 104857600 bytes; use Import/CreateUpload for larger files');
    expect(describeError(error, en)).toMatch(/^The file is too large for one upload\. Details: the file exceeds/);
  });
});

describe('upload in parts', () => {
  it('cuts a file into parts of the server’s size, the last one the rest', () => {
    expect(partStarts(25, 10)).toEqual([0, 10, 20]);
    expect(partStarts(20, 10)).toEqual([0, 10]);
    expect(partStarts(MULTIPART_FROM_BYTES + 1, 50 * 1024 * 1024)).toEqual([0]);
  });
});

describe('the report on screen', () => {
  it('shows the totals present in a fixed order and leaves the per-reason counts out', () => {
    expect(
      summaryTotals({ warnings: 1, 'rejected.sku_duplicate': 1, created: 2, total: 4, rejected: 1, updated: 0 }),
    ).toEqual([
      ['total', 4],
      ['created', 2],
      ['updated', 0],
      ['rejected', 1],
      ['warnings', 1],
    ]);
    expect(summaryTotals(null)).toEqual([]);
  });

  it('words each reason in the UI language, strict rejections by field, unknown codes as the API says', () => {
    expect(reasonText('sku_duplicate', 'x', en)).toMatch(/same article number twice/);
    expect(reasonText('sku_duplicate', 'x', de)).toMatch(/Artikelnummer zweimal/);
    expect(reasonText('invalid_gtin', 'x', en)).toBe('gtin does not check: product not imported');
    expect(reasonText('new_reason', 'as the API says', de)).toBe('as the API says');
  });
});
