import { and, asc, eq, gt } from 'drizzle-orm';
import { chunkForInsert, type BatchStatement, type Database } from '../db/client';
import { importRejections } from '../db/schema';
import { csvLine } from '../exports/csv-format';
import { PartWriter } from '../exports/part-writer';

export interface Rejection {
  /** Position of the record in the file (its ordinal): the key that makes a retried slice write it once. */
  seq: number;
  sku: string | null;
  location: string;
  reason: string;
}

export function rejectionStatements(db: Database, jobId: string, rejections: Rejection[]): BatchStatement[] {
  return chunkForInsert(rejections, 5).map((chunk) =>
    db
      .insert(importRejections)
      .values(chunk.map((r) => ({ jobId, ...r })))
      .onConflictDoNothing(),
  );
}

/**
 * Writes the import report (CSV: position, sku, location, reason; one row per rejected
 * record, in file order, after a summary comment) to R2 in bounded pages. It is the job's
 * result file, downloaded with `Import/DownloadReport`.
 */
export async function writeReport(
  db: Database,
  files: R2Bucket,
  jobId: string,
  key: string,
  summary: Record<string, number>,
): Promise<number> {
  const upload = await files.createMultipartUpload(key, { httpMetadata: { contentType: 'text/csv; charset=utf-8' } });
  try {
    const writer = new PartWriter(upload, [], new Uint8Array());
    const counts = Object.entries(summary)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    await writer.write(`\uFEFF# ${counts}\r\n${csvLine(['position', 'sku', 'location', 'reason'])}`);
    let after = -1;
    for (;;) {
      const rows = await db
        .select()
        .from(importRejections)
        .where(and(eq(importRejections.jobId, jobId), gt(importRejections.seq, after)))
        .orderBy(asc(importRejections.seq))
        .limit(1000);
      await writer.write(rows.map((r) => csvLine([r.seq, r.sku, r.location, r.reason])).join(''));
      if (rows.length < 1000) break;
      after = rows.at(-1)!.seq;
    }
    return (await writer.finish()).size;
  } catch (err) {
    await upload.abort().catch(() => undefined);
    throw err;
  }
}
