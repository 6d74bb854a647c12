import { chunkBytes, ImportFileError, readTextChunks } from './text-chunks';

/** Where reading a CSV continues: the byte offset and line after a record, and the header read at the start. */
export interface CsvResumePoint {
  offset: number;
  line: number;
  header: string[] | null;
  ordinal: number;
}

export const CSV_START: CsvResumePoint = { offset: 0, line: 1, header: null, ordinal: 0 };

interface CsvRecord {
  /** Cells by column name. */
  cells: Record<string, string>;
  line: number;
  ordinal: number;
  after: CsvResumePoint;
}

/** Largest field we accept; a longer one means an unclosed quote swallowed the file. */
const MAX_FIELD = 64 * 1024;

/**
 * Streams RFC 4180 records (quoted fields with doubled quotes, CR LF or LF line ends, line
 * breaks inside quotes) from a resume point, as the records each piece of the file completes
 * (one await per piece). The first record of the file is the header. Memory holds a piece's
 * records; positions are tracked so the import can stop after any record.
 */
export async function* readCsvRecords(files: R2Bucket, key: string, from: CsvResumePoint): AsyncGenerator<CsvRecord[]> {
  let header = from.header;
  let line = from.line;
  let ordinal = from.ordinal;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let recordLine = line;
  let pendingCr = false;
  let quoteAtEnd = false;
  let consumed = from.offset;

  const finish = (offset: number): CsvRecord | null => {
    fields.push(field);
    const row = fields;
    fields = [];
    field = '';
    afterQuote = false;
    const at = recordLine;
    recordLine = line;
    if (row.length === 1 && row[0] === '') return null;
    if (!header) {
      header = row.map((h) => h.trim());
      if (!header.includes('sku')) throw new ImportFileError(`line ${at}: the header has no sku column`);
      return null;
    }
    if (row.length !== header.length)
      throw new ImportFileError(`line ${at}: ${row.length} fields, the header has ${header.length}`);
    ordinal++;
    return {
      cells: Object.fromEntries(header.map((h, i) => [h, row[i]!])),
      line: at,
      ordinal,
      after: { offset, line, header, ordinal },
    };
  };

  for await (const chunk of readTextChunks(files, key, from.offset, 'utf-8')) {
    const text = chunk.text;
    consumed = chunk.byteStart + chunkBytes(chunk, 0, text.length);
    const ready: CsvRecord[] = [];
    let measuredIndex = 0;
    let measuredBytes = 0;
    const offsetAfter = (i: number) => {
      measuredBytes += chunkBytes(chunk, measuredIndex, i + 1);
      measuredIndex = i + 1;
      return chunk.byteStart + measuredBytes;
    };
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (quoteAtEnd) {
        // The previous chunk ended on a quote inside a quoted field: a doubled quote, or the closing one.
        quoteAtEnd = false;
        if (ch === '"') {
          field += '"';
          continue;
        }
        quoted = false;
        afterQuote = true;
      }
      if (pendingCr) {
        pendingCr = false;
        const record = finish(ch === '\n' ? offsetAfter(i) : offsetAfter(i - 1));
        if (record) ready.push(record);
        if (ch === '\n') continue;
      }
      if (quoted) {
        if (ch === '"') {
          if (i + 1 === text.length) quoteAtEnd = true;
          else if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else {
            quoted = false;
            afterQuote = true;
          }
        } else {
          if (ch === '\n') line++;
          field += ch;
          if (field.length > MAX_FIELD)
            throw new ImportFileError(
              `line ${recordLine}: a quoted field runs past ${MAX_FIELD} characters (unclosed quote?)`,
            );
        }
      } else if (ch === '"') {
        if (field.length > 0 || afterQuote) throw new ImportFileError(`line ${line}: a quote inside an unquoted field`);
        quoted = true;
      } else if (ch === ',') {
        fields.push(field);
        field = '';
        afterQuote = false;
      } else if (ch === '\r') {
        line++;
        pendingCr = true;
      } else if (ch === '\n') {
        line++;
        const record = finish(offsetAfter(i));
        if (record) ready.push(record);
      } else {
        if (afterQuote) throw new ImportFileError(`line ${line}: text after a closing quote`);
        field += ch;
      }
    }
    if (ready.length > 0) yield ready;
  }
  if (quoteAtEnd) quoted = false;
  if (quoted) throw new ImportFileError(`line ${recordLine}: the file ends inside a quoted field`);
  if (fields.length > 0 || field !== '' || pendingCr) {
    const record = finish(consumed);
    if (record) yield [record];
  }
}
