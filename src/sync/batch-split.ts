import type { UpsertRecord } from './protocol/wire';

const ASCII_RUNS = /[\x00-\x7f]+/g;

/** UTF-8 byte length of a string, without encoding it (JSON.stringify never leaves a lone surrogate). */
export function utf8Length(text: string): number {
  // ASCII runs (most of a record) are one byte per unit, removed in one native pass; only
  // the other units are looked at one by one (a surrogate pair stays adjacent).
  const rest = text.replace(ASCII_RUNS, '');
  let bytes = text.length - rest.length;
  for (let i = 0; i < rest.length; i++) {
    const code = rest.charCodeAt(i);
    if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < rest.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** One /upsert request of a batch position: its id, its exact body and the records in it. */
interface BatchPart {
  batchId: string;
  body: string;
  records: UpsertRecord[];
}

/** `JSON.stringify({batchId, dryRun, records})` put together from records serialised once. */
function envelope(batchId: string, dryRun: boolean): { head: string; bytes: number } {
  const head = `${JSON.stringify({ batchId, dryRun }).slice(0, -1)},"records":[`;
  return { head, bytes: utf8Length(head) + 2 };
}

/**
 * Splits the records of one batch into /upsert bodies of at most `maxBytes` each (the
 * connector answers 413 beyond its limit, docs/sync.md "Batches") and at most `maxRecords`
 * records (a slow shop's X-Max-Batch-Records, docs/shops.md), in record order. Part `i`
 * gets the batchId `<jobId>:<firstNo + i>`, so the ids follow from the run's position and a
 * rebuilt batch gets the same ones. A record that alone would not fit is returned in
 * `oversize` (the caller quarantines it) instead of failing the run.
 */
export function splitBatch(
  run: { jobId: string; firstNo: number; dryRun: boolean },
  records: UpsertRecord[],
  maxBytes: number,
  maxRecords = Number.POSITIVE_INFINITY,
): { parts: BatchPart[]; oversize: UpsertRecord[] } {
  const parts: BatchPart[] = [];
  const oversize: UpsertRecord[] = [];
  let json: string[] = [];
  let members: UpsertRecord[] = [];
  let current = envelope(`${run.jobId}:${run.firstNo}`, run.dryRun);
  let size = current.bytes;
  const close = () => {
    parts.push({
      batchId: `${run.jobId}:${run.firstNo + parts.length}`,
      body: `${current.head}${json.join(',')}]}`,
      records: members,
    });
    json = [];
    members = [];
    current = envelope(`${run.jobId}:${run.firstNo + parts.length}`, run.dryRun);
    size = current.bytes;
  };
  for (const record of records) {
    const text = JSON.stringify(record);
    const bytes = utf8Length(text);
    if (current.bytes + bytes > maxBytes) {
      oversize.push(record);
      continue;
    }
    const separator = members.length > 0 ? 1 : 0;
    if (size + separator + bytes > maxBytes || members.length >= maxRecords) close();
    size += (members.length > 0 ? 1 : 0) + bytes;
    json.push(text);
    members.push(record);
  }
  if (members.length > 0) close();
  return { parts, oversize };
}
