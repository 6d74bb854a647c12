import { ImportFileError, type TextEncodingName } from './text-chunks';

/** The formats an import reads: the export types of the same files (docs/exports.md). */
export const IMPORT_FORMATS = ['BMEcat', 'BMEcat-ETIM', 'BMEcat12', 'CSV'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

interface DetectedFormat {
  format: ImportFormat;
  encoding: TextEncodingName;
}

/**
 * Recognises a file from its first bytes: XML with a BMECAT root is BMEcat, its dialect from
 * the namespace and version (ETIM guideline namespace, version 1.2, else 2005 in either of its
 * two namespaces); text whose first line has a `sku` column is the service's CSV. The encoding
 * comes from the XML declaration (UTF-8, or ISO-8859-1 as older BMEcat 1.2 files use).
 */
export function detectFormat(head: string): DetectedFormat {
  const text = head.replace(/^\uFEFF/, '');
  if (/^\s*</.test(text)) {
    const root = /<(?:[\w.-]+:)?BMECAT\b([^>]*)>/.exec(text);
    if (!root) throw new ImportFileError('line 1: an XML file without a BMECAT root element is not a BMEcat file');
    const attrs = root[1]!;
    const declared = /<\?xml[^>]*encoding=["']([^"']+)["']/i.exec(text)?.[1]?.toLowerCase() ?? 'utf-8';
    let encoding: TextEncodingName;
    if (declared === 'utf-8' || declared === 'utf8') encoding = 'utf-8';
    else if (['iso-8859-1', 'latin1', 'iso8859-1', 'us-ascii'].includes(declared)) encoding = 'latin1';
    else throw new ImportFileError(`line 1: encoding ${declared} is not supported (UTF-8 or ISO-8859-1)`);
    if (/etim-international\.com\/bmecat/i.test(attrs)) return { format: 'BMEcat-ETIM', encoding };
    if (/version=["']1\.2["']/.test(attrs) || /bmecat\.org\/XMLSchema\/1\.2/.test(attrs))
      return { format: 'BMEcat12', encoding };
    if (/version=["']2005(\.\d+)?["']/.test(attrs) || /bmecat\.org\/bmecat\/2005/.test(attrs))
      return { format: 'BMEcat', encoding };
    throw new ImportFileError(
      'line 1: BMECAT root without a version this service reads (2005, 1.2, ETIM guideline 5.0)',
    );
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const columns = firstLine.split(',').map((c) => c.trim().replace(/^"|"$/g, ''));
  if (columns.includes('sku')) return { format: 'CSV', encoding: 'utf-8' };
  throw new ImportFileError('line 1: the file is neither BMEcat XML nor a CSV with a sku column');
}
