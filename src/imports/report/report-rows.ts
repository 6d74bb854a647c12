/** One row of an import report (import-report.ts, writeReport): what the screen lists per reason. */
export interface ReportRow {
  position: number;
  kind: 'rejected' | 'warning';
  sku: string | null;
  location: string;
  reason: string;
  code: string;
}

/** Splits CSV text (RFC 4180: quoted fields, `""` inside quotes, CRLF) into records; a record cut off at the end is left out. */
function csvRecords(text: string, complete: boolean): string[][] {
  const records: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      records.push(fields);
      fields = [];
      field = '';
    } else field += ch;
  }
  if (complete && (field !== '' || fields.length > 0)) records.push([...fields, field]);
  return records;
}

/**
 * The first `perGroup` rows of each reason from the start of a report's text. The report is
 * grouped by reason, so a bounded head (the caller reads at most a few hundred KiB) holds the
 * first rows of the first groups; a group that starts later shows its count without rows.
 */
export function firstRowsByReason(text: string, complete: boolean, perGroup = 5): Map<string, ReportRow[]> {
  const lines = text.replace(/^\uFEFF/, '').split('\r\n');
  let first = 0;
  while (lines[first]?.startsWith('#')) first++;
  const body = lines.slice(first).join('\r\n');
  const groups = new Map<string, ReportRow[]>();
  for (const [position, kind, sku, location, reason, code] of csvRecords(body, complete).slice(1)) {
    if (code === undefined || (kind !== 'rejected' && kind !== 'warning')) continue;
    const key = `${kind === 'rejected' ? 'rejected' : 'warnings'}.${code}`;
    const rows = groups.get(key) ?? [];
    if (rows.length < perGroup)
      rows.push({
        position: Number(position),
        kind,
        sku: sku || null,
        location: location ?? '',
        reason: reason ?? '',
        code,
      });
    groups.set(key, rows);
  }
  return groups;
}
