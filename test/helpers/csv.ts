/** A strict RFC 4180 parser for assertions: quoted fields, doubled quotes, CRLF record ends. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i++;
      } else {
        field += ch;
        i++;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
    } else if (ch === '"' || ch === '\n' || ch === '\r') {
      throw new Error(`not RFC 4180: unquoted ${JSON.stringify(ch)} at offset ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record does not end with CRLF');
  return rows;
}

/** Rows as objects keyed by the header row. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((r) => {
    if (r.length !== header!.length) throw new Error(`row has ${r.length} fields, header has ${header!.length}`);
    return Object.fromEntries(header!.map((h, i) => [h, r[i]!]));
  });
}

/** Decodes an export file strictly as UTF-8, checks its byte order mark and returns the text after it. */
export function decodeCsvFile(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (view[0] !== 0xef || view[1] !== 0xbb || view[2] !== 0xbf)
    throw new Error('CSV export does not start with a UTF-8 BOM');
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(view.subarray(3));
}
