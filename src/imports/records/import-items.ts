import { readXmlRecords, type XmlResumePoint } from '../read/bmecat-reader';
import type { PriceReading } from './bmecat-prices';
import { formulaOf, type FormulaReading } from './bmecat-formulas';
import { groupOf, mapEntryOf, productOf, type FileGroup, type FileWarning, type ProductAction } from './bmecat-records';
import { readCsvRecords, type CsvResumePoint } from '../read/csv-reader';
import { csvHeaderLanguages, csvProductOf } from './csv-records';
import type { PendingProduct } from './batch-types';
import { isXChange, type ImportCheckpoint } from '../read/import-checkpoint';
import { readXChangeProducts, type XChangeResumePoint } from '../read/xchange-reader';
import { xchangeItemsOf } from './xchange-records';
import { xchangeLanguagesOf, type XChangeLanguages } from './xchange-languages';
import { languagesBelow, LOCALIZED_ELEMENTS, type FileLanguages } from '../read/file-languages';

/** One record of an import file as the phases see it: a product, a group, a formula, or a group-map entry. */
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
      /** CSV: links of categories named by path (csv-records.ts). */
      categoryLinks?: { path: string[]; url: string }[];
      /** BMEcat: the record's element path and line, what it asks for, and what the reader met (bmecat-records.ts). */
      path?: string;
      line?: number;
      action?: ProductAction;
      warnings?: FileWarning[];
      origins?: Map<string, { line: number; path: string }>;
      /** Validation pass (BMEcat): the languages of its localizable elements as written (`''` unlabelled). */
      languages?: string[];
    }
  | {
      kind: 'group';
      seq: number;
      after: ImportCheckpoint['at'];
      group: FileGroup | null;
      languages?: string[];
    }
  | {
      /** A FORMULA of a 2005 file's FORMULAS (bmecat-formulas.ts): kept, or why not. */
      kind: 'formula';
      seq: number;
      location: string;
      after: ImportCheckpoint['at'];
      reading: FormulaReading;
    }
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

/** How the file's prices are read: the catalog's currency, the file's own, and the export date of a file our export wrote. */
function priceReading(cp: ImportCheckpoint): PriceReading | undefined {
  if (cp.currency === undefined) return undefined;
  const fileCurrency = cp.header?.currency;
  return {
    catalogCurrency: cp.currency,
    exportDate: cp.header?.ownExport ? cp.header.generationDate : null,
    fileCurrency: fileCurrency && fileCurrency !== cp.currency.toUpperCase() ? fileCurrency : null,
    version: cp.header?.version ?? null,
    fileFlags: cp.header?.priceFlags ?? null,
  };
}

/**
 * The file's records from a resume point, whatever the format, in the groups one piece of the
 * file completes: an await per piece instead of one per record through three nested generators
 * (docs/benchmarks.md "Import throughput, part 9"). `readProducts: false` (the validation pass)
 * checks and counts products without turning them into upsert records.
 */
export async function* items(
  run: { files: R2Bucket; key: string; cp: ImportCheckpoint },
  at: ImportCheckpoint['at'],
  readProducts = true,
): AsyncGenerator<Item[]> {
  if (run.cp.format === 'CSV') {
    let headerLanguages: string[] | null = null;
    for await (const records of readCsvRecords(run.files, run.key, at as CsvResumePoint))
      yield records.map((r): Item => {
        // Every record has the header's language columns: the validation pass counts each for it.
        headerLanguages ??= csvHeaderLanguages(Object.keys(r.cells));
        return {
          kind: 'product',
          seq: r.ordinal,
          location: `line ${r.line}`,
          after: r.after,
          skipped: [],
          ...(readProducts ? csvProductOf(r.cells, run.cp.languages) : { ...UNREAD, languages: headerLanguages }),
        };
      });
    return;
  }
  if (isXChange(run.cp.format)) {
    yield* xchangeItems(run, at as XChangeResumePoint, readProducts);
    return;
  }
  const options = readProducts ? {} : { shallow: PRODUCT_RECORDS, languagesOf: LOCALIZED_ELEMENTS };
  // Jobs queued before languages were read take every text as the catalog's.
  const languages: FileLanguages = run.cp.languages ?? {
    fileDefault: run.cp.language ?? '',
    catalogLanguage: run.cp.language ?? '',
    skip: [],
  };
  const prices = priceReading(run.cp);
  const ownExport = run.cp.header?.ownExport ?? false;
  for await (const records of readXmlRecords(run.files, run.key, at as XmlResumePoint, run.cp.encoding, options))
    yield records.map((r): Item => {
      const location = `line ${r.node.line}: ${r.path}`;
      if (r.node.name === 'CATALOG_STRUCTURE')
        return {
          kind: 'group',
          seq: r.ordinal,
          after: r.after,
          group: groupOf(r.node, languages),
          languages: readProducts ? undefined : [...languagesBelow(r.node)],
        };
      if (r.node.name === 'FORMULA')
        return { kind: 'formula', seq: r.ordinal, location, after: r.after, reading: formulaOf(r.node) };
      if (r.node.name === 'PRODUCT' || r.node.name === 'ARTICLE')
        return {
          kind: 'product',
          seq: r.ordinal,
          location,
          after: r.after,
          path: r.path,
          line: r.node.line,
          ...(readProducts
            ? productOf(r.node, r.path, languages, prices, ownExport)
            : { ...UNREAD, languages: r.node.languages }),
        };
      return { kind: 'map', seq: r.ordinal, location, after: r.after, entry: mapEntryOf(r.node) };
    });
}

/**
 * The records of an xChange file: one per TradeItem of each Product, located by JSON path.
 * Every record but a Product's last resumes before the Product (a re-read writes the same
 * records again, unchanged); a slice ends only once its checkpoint moved past where it began
 * (import-phases.ts `movedOn`), so a Product is never started over for ever. The
 * validation pass tallies each Product's languages once, on its first record.
 */
async function* xchangeItems(
  run: { files: R2Bucket; key: string; cp: ImportCheckpoint },
  at: XChangeResumePoint,
  readProducts: boolean,
): AsyncGenerator<Item[]> {
  let before = at;
  let seq = at.ordinal * 1000;
  const catalogLanguage = run.cp.language ?? 'eng';
  // Jobs queued before xChange kept languages keep the catalog's only.
  const languages: XChangeLanguages = run.cp.languages ?? {
    fileDefault: catalogLanguage,
    catalogLanguage,
    skip: [],
    legacy: true,
  };
  for await (const products of readXChangeProducts(run.files, run.key, at)) {
    const out: Item[] = [];
    for (const r of products) {
      const records = xchangeItemsOf(r.product, r.envelope, languages, run.cp.currency ?? null);
      const written = readProducts ? undefined : xchangeLanguagesOf(r.product);
      seq = r.ordinal * 1000;
      for (const [i, item] of records.entries()) {
        const last = i === records.length - 1;
        out.push({
          kind: 'product',
          seq: seq + i,
          location: records.length > 1 ? `${r.path}.TradeItem[${i}]` : r.path,
          after: last ? r.after : before,
          path: r.path,
          line: 0,
          action: 'upsert',
          ...item,
          ...(written && i === 0 ? { languages: written } : {}),
        });
      }
      before = r.after;
    }
    yield out;
  }
}
