import { readTextChunks, type TextEncodingName } from '../imports/read/text-chunks';
import { ReleaseFileError } from './release-errors';

/** One data row of a release file: its cells by column name and its line in the file. */
export interface ReleaseCsvRow {
  cells: Record<string, string>;
  line: number;
}

/** Largest field we accept; a longer one means an unclosed quote swallowed the file. */
const MAX_FIELD = 64 * 1024;

/**
 * The delimiter of a release file, from its header line: the published releases use `;`
 * (proficl@ss, ETIM CSV, eCl@ss CSV); `,` and tab are accepted for files saved by other tools.
 */
export function delimiterOf(headerLine: string): string {
  const counts = [';', '\t', ','].map((d) => [d, headerLine.split(d).length] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

/**
 * Whether bytes are valid UTF-8 (then the file is read as UTF-8, else as ISO-8859-1: the
 * proficl@ss and older ETIM CSV releases are Latin-1, newer ones UTF-8).
 */
export function encodingOf(head: Uint8Array): TextEncodingName {
  try {
    // A multi-byte character cut at the end of the sample is not evidence of Latin-1.
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(head.subarray(0, trimToBoundary(head)));
    return 'utf-8';
  } catch {
    return 'latin1';
  }
}

function trimToBoundary(bytes: Uint8Array): number {
  let i = bytes.length;
  while (i > 0 && i > bytes.length - 4 && (bytes[i - 1]! & 0xc0) === 0x80) i--;
  return i > 0 && bytes[i - 1]! >= 0xc0 ? i - 1 : bytes.length;
}

/**
 * Streams the rows of a delimited file (quoted fields with doubled quotes, CR LF or LF line
 * ends, line breaks inside quotes), header first. The whole file is never in memory. A row
 * whose field count differs from the header's fails with its line.
 */
export async function* readReleaseCsv(
  files: R2Bucket,
  key: string,
  fileName: string,
  encoding: TextEncodingName,
): AsyncGenerator<ReleaseCsvRow> {
  let header: string[] | null = null;
  let delimiter = ';';
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let pendingCr = false;
  const fail = (at: number, reason: string) => new ReleaseFileError(fileName, at, reason);

  const finish = (): ReleaseCsvRow | null => {
    fields.push(field);
    const row = fields;
    fields = [];
    field = '';
    const at = recordLine;
    recordLine = line;
    if (row.length === 1 && row[0]!.trim() === '') return null;
    if (!header) {
      header = row.map((h) => h.trim());
      return null;
    }
    if (row.length !== header.length) throw fail(at, `${row.length} fields, the header has ${header.length}`);
    const cells: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) cells[header[i]!] = row[i]!.trim();
    return { cells, line: at };
  };

  for await (const chunk of readTextChunks(files, key, 0, encoding)) {
    const text = chunk.text;
    if (!header && fields.length === 0 && field === '' && line === 1)
      delimiter = delimiterOf(text.slice(0, text.search(/\r|\n/) >>> 0 || text.length));
    const ready: ReleaseCsvRow[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (pendingCr) {
        pendingCr = false;
        const record = finish();
        if (record) ready.push(record);
        if (ch === '\n') continue;
      }
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else quoted = false;
        } else {
          if (ch === '\n') line++;
          field += ch;
          if (field.length > MAX_FIELD) throw fail(recordLine, `a quoted field runs past ${MAX_FIELD} characters`);
        }
      } else if (ch === '"' && field.trim() === '') {
        field = '';
        quoted = true;
      } else if (ch === delimiter) {
        fields.push(field);
        field = '';
      } else if (ch === '\r') {
        line++;
        pendingCr = true;
      } else if (ch === '\n') {
        line++;
        const record = finish();
        if (record) ready.push(record);
      } else field += ch;
    }
    for (const record of ready) yield record;
  }
  if (quoted) throw fail(recordLine, 'the file ends inside a quoted field');
  if (fields.length > 0 || field !== '' || pendingCr) {
    const record = finish();
    if (record) yield record;
  }
  if (!header) throw fail(1, 'the file is empty');
}

/**
 * The header of a release file (its first line), for recognising which file of a release it is,
 * and the file's encoding: `override` (the request's), else the XML prolog's, else what the
 * first 64 KB are.
 */
export async function readReleaseHeader(files: R2Bucket, key: string, fileName: string, override?: TextEncodingName) {
  const object = await files.get(key, { range: { offset: 0, length: 64 * 1024 } });
  if (!object) throw new ReleaseFileError(fileName, 0, 'the uploaded file is gone; upload it again');
  let head = new Uint8Array(await object.arrayBuffer());
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) head = head.subarray(3);
  const start = head.findIndex((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
  if (head[start] === 0x3c) {
    // XML (a BMEcat file): the declared encoding where the prolog gives one.
    const prolog = /^<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(
      new TextDecoder('utf-8').decode(head.subarray(start, start + 200)),
    );
    const declared = prolog?.[1]?.toLowerCase();
    const latin = declared !== undefined && ['iso-8859-1', 'latin1', 'iso8859-1', 'windows-1252'].includes(declared);
    return { columns: [], encoding: override ?? (latin ? ('latin1' as const) : encodingOf(head)), xml: true };
  }
  const encoding = override ?? encodingOf(head);
  const end = head.findIndex((b) => b === 0x0a || b === 0x0d);
  const line = head.subarray(0, end < 0 ? head.length : end);
  const first =
    encoding === 'utf-8'
      ? new TextDecoder('utf-8').decode(line)
      : Array.from(line, (b) => String.fromCharCode(b)).join('');
  const delimiter = delimiterOf(first);
  const columns = first.split(delimiter).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
  return { columns, encoding, xml: false };
}
