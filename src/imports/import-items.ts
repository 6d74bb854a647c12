import { readXmlRecords, type XmlResumePoint } from './bmecat-reader';
import { groupOf, mapEntryOf, productOf, type FileGroup, type FileWarning, type ProductAction } from './bmecat-records';
import { readCsvRecords, type CsvResumePoint } from './csv-reader';
import { csvProductOf } from './csv-records';
import type { PendingProduct } from './batch-types';
import type { ImportCheckpoint } from './import-checkpoint';

/** One record of an import file as the phases see it: a product, a group, or a group-map entry. */
export type Item =
  | {
      kind: 'product';
      seq: number;
      location: string;
      after: ImportCheckpoint['at'];
      sku: string | null;
      record: PendingProduct['record'] | null;
      problem: string | null;
      skipped: string[];
      categoryPaths?: string[][];
      /** BMEcat: the record's element path and line, what it asks for, and what the reader met (bmecat-records.ts). */
      path?: string;
      line?: number;
      action?: ProductAction;
      warnings?: FileWarning[];
      origins?: Map<string, { line: number; path: string }>;
    }
  | { kind: 'group'; seq: number; after: ImportCheckpoint['at']; group: FileGroup | null }
  | {
      kind: 'map';
      seq: number;
      location: string;
      after: ImportCheckpoint['at'];
      entry: { sku: string; groupId: string } | null;
    };

/** Read without their subtrees by the validation pass (it only counts them). */
const PRODUCT_RECORDS: ReadonlySet<string> = new Set(['PRODUCT', 'ARTICLE']);

/** A product the validation pass only counts: turning it into a record is the write pass's work. */
const UNREAD = { sku: null, record: null, problem: null, skipped: [], categoryPaths: undefined };

/**
 * The file's records from a resume point, whatever the format. `readProducts: false` (the
 * validation pass) checks and counts products without turning them into upsert records.
 */
export async function* items(
  run: { files: R2Bucket; key: string; cp: ImportCheckpoint },
  at: ImportCheckpoint['at'],
  readProducts = true,
): AsyncGenerator<Item> {
  if (run.cp.format === 'CSV') {
    for await (const r of readCsvRecords(run.files, run.key, at as CsvResumePoint)) {
      yield {
        kind: 'product',
        seq: r.ordinal,
        location: `line ${r.line}`,
        after: r.after,
        skipped: [],
        ...(readProducts ? csvProductOf(r.cells) : UNREAD),
      };
    }
    return;
  }
  const options = readProducts ? {} : { shallow: PRODUCT_RECORDS };
  for await (const r of readXmlRecords(run.files, run.key, at as XmlResumePoint, run.cp.encoding, options)) {
    const location = `line ${r.node.line}: ${r.path}`;
    if (r.node.name === 'CATALOG_STRUCTURE')
      yield { kind: 'group', seq: r.ordinal, after: r.after, group: groupOf(r.node) };
    else if (r.node.name === 'PRODUCT' || r.node.name === 'ARTICLE')
      yield {
        kind: 'product',
        seq: r.ordinal,
        location,
        after: r.after,
        path: r.path,
        line: r.node.line,
        ...(readProducts ? productOf(r.node, r.path) : UNREAD),
      };
    else yield { kind: 'map', seq: r.ordinal, location, after: r.after, entry: mapEntryOf(r.node) };
  }
}
