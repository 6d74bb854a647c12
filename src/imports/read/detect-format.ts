import { ImportFileError } from './text-chunks';
import { declaredEncoding, decodeHead, type TextEncodingName } from './text-encodings';

/** The formats an import reads: the export types of the same files (docs/exports.md). */
export const IMPORT_FORMATS = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12', 'CSV', 'ETIMxChange', 'ETIMxChange-1.1'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

interface DetectedFormat {
  format: ImportFormat;
  encoding: TextEncodingName;
}

/** The BMEcat dialect of a root element's attributes (docs/import.md, Formats), or null. */
function dialectOf(attrs: string): 'BMEcat' | 'BMEcat-ETIM' | 'BMEcat12' | null {
  const version = /\bversion\s*=\s*["']\s*([^"'\s]+)\s*["']/.exec(attrs)?.[1] ?? '';
  const namespaces = [...attrs.matchAll(/\bxmlns(?::[\w.-]+)?\s*=\s*["']([^"']*)["']/g)].map((m) => m[1]!);
  if (namespaces.some((ns) => /etim-international\.com\/bmecat/i.test(ns))) return 'BMEcat-ETIM';
  // 1.01 and 1.2 are ARTICLE-based; the 1.2 namespaces are the DTD era's bmecat/1.2/... and the XSD's XMLSchema/1.2/...
  if (/^1\.(0\d*|1|2)$/.test(version)) return 'BMEcat12';
  if (namespaces.some((ns) => /bmecat\.org\/(?:bmecat|XMLSchema)\/1\.(0\d*|2)\b/i.test(ns))) return 'BMEcat12';
  // 2005, 2005.1, 2005.2 in any namespace spelling (2005fd, openTRANS' /2005, /2005.1, 2005+onto ...).
  if (/^2005(\.\d+)?$/.test(version)) return 'BMEcat';
  if (namespaces.some((ns) => /bmecat\.org\/(?:bmecat|XMLSchema)\/2005/i.test(ns))) return 'BMEcat';
  return null;
}

/**
 * The xChange version of a JSON file's head: V2.0 declares `"SchemaVersion": "2.0"` (any 2.x),
 * V1.1 has no SchemaVersion. A JSON object without the catalogue's keys is refused.
 */
function xchangeVersion(head: string): 'ETIMxChange' | 'ETIMxChange-1.1' {
  if (!/"(CatalogueId|Supplier|CatalogueType|SchemaVersion)"\s*:/.test(head))
    throw new ImportFileError('byte 0: a JSON file without CatalogueId or Supplier is not an ETIM xChange file');
  const version = /"SchemaVersion"\s*:\s*"([^"]*)"/.exec(head)?.[1];
  if (version === undefined || version === '1.1') return 'ETIMxChange-1.1';
  if (/^2\.\d$/.test(version)) return 'ETIMxChange';
  throw new ImportFileError(`byte 0: ETIM xChange SchemaVersion ${version} is not read (1.1 and 2.0 are)`);
}

/**
 * Recognises a file from its first bytes: XML with a BMECAT root is BMEcat, its dialect from
 * the root's version and namespace (ETIM guideline namespace; 1.01 / 1.2 in any of their
 * namespaces or none; 2005 and its releases 2005.1 / 2005.2 in any namespace spelling); text
 * whose first line has a `sku` column is the service's CSV; a JSON object is ETIM xChange
 * (V2.0 by its SchemaVersion, V1.1 without one). The encoding comes from a
 * byte-order mark (UTF-8, UTF-16 LE/BE), else from the XML declaration (UTF-8, ISO-8859-1,
 * windows-1252, in either case), else UTF-8.
 */
export function detectFormat(head: Uint8Array | string): DetectedFormat {
  const { text, sniffed } =
    typeof head === 'string' ? { text: head.replace(/^\uFEFF/, ''), sniffed: null } : decodeHead(head);
  if (/^\s*</.test(text)) {
    const root = /<(?:[\w.-]+:)?BMECAT\b([^>]*)>/.exec(text);
    if (!root) throw new ImportFileError('line 1: an XML file without a BMECAT root element is not a BMEcat file');
    const named = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
    const declared = named === undefined ? 'utf-8' : declaredEncoding(named);
    let encoding: TextEncodingName;
    if (sniffed) encoding = sniffed;
    else if (declared === undefined || declared === 'utf-16')
      throw new ImportFileError(
        `line 1: encoding ${named} is not supported (UTF-8, UTF-16 with a byte-order mark, ISO-8859-1, windows-1252)`,
      );
    else encoding = declared;
    const format = dialectOf(root[1]!);
    if (format) return { format, encoding };
    throw new ImportFileError(
      'line 1: BMECAT root without a version this service reads (1.01, 1.2, 2005, 2005.1, 2005.2, ETIM guideline 5.0)',
    );
  }
  if (/^\s*\{/.test(text)) return { format: xchangeVersion(text), encoding: 'utf-8' };
  if (sniffed === 'utf-16le' || sniffed === 'utf-16be')
    throw new ImportFileError('line 1: a CSV file must be UTF-8 (this one is UTF-16)');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const columns = firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  if (columns.includes('sku')) return { format: 'CSV', encoding: 'utf-8' };
  throw new ImportFileError(
    'line 1: the file is neither BMEcat XML nor a CSV with a sku column (nor ETIM xChange JSON)',
  );
}
