import { GENERATOR_INFO } from '../../exports/bmecat/fields';
import { readFlag } from '../../model/price-flags';

/** What a BMEcat file's HEADER says about how to read its prices (docs/import.md "Files this service wrote"). */
export interface FileHeader {
  /** The file was written by this service's BMEcat export (its GENERATOR_INFO). */
  ownExport: boolean;
  /** The generation date as YYYY-MM-DD: 2005's GENERATION_DATE, or DATETIME type generation_date (1.2, ETIM); null when none. */
  generationDate: string | null;
  /** The HEADER's CURRENCY (ISO 4217, upper case): the currency of every price without PRICE_CURRENCY; null when none. */
  currency: string | null;
  /**
   * The BMECAT root's `version` (1.01, 1.2, 2005, ...), null when none: BMEcat 1.01 writes TAX
   * as a percentage (bmecat-prices.ts). Absent in checkpoints of jobs queued before it was read.
   */
  version?: string | null;
  /**
   * The HEADER CATALOG's PRICE_FLAGs by type (1.2 and 2005: they apply to every price of the
   * file; a 2005 price's own flag of a type wins), null when none. Absent in older checkpoints.
   */
  priceFlags?: Record<string, boolean> | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}/;

/**
 * Reads the HEADER from a file's head (it lies within the first 64 KiB in every dialect). Only
 * a file of our own export is read by the export's conventions: no supplier file is re-dated
 * or loses a variant price because it looks like one of ours.
 */
export function fileHeader(head: string): FileHeader {
  const end = head.search(/<\/(?:[\w.-]+:)?HEADER\s*>/);
  const header = end < 0 ? '' : head.slice(0, end);
  const generator = /<(?:[\w.-]+:)?GENERATOR_INFO\b[^>]*>([^<]*)</.exec(header)?.[1]?.trim();
  const plain = /<(?:[\w.-]+:)?GENERATION_DATE\b[^>]*>\s*([^<\s]+)/.exec(header)?.[1];
  const dated =
    /<(?:[\w.-]+:)?DATETIME\b[^>]*type\s*=\s*["']generation_date["'][^>]*>\s*<(?:[\w.-]+:)?DATE\b[^>]*>\s*([^<\s]+)/.exec(
      header,
    )?.[1];
  const date = plain ?? dated ?? null;
  const currency = /<(?:[\w.-]+:)?CURRENCY\b[^>]*>\s*([A-Za-z]{3})\s*</.exec(header)?.[1]?.toUpperCase() ?? null;
  const root = /<(?:[\w.-]+:)?BMECAT\b([^>]*)>/.exec(head)?.[1] ?? '';
  const version = /\bversion\s*=\s*["']\s*([^"'\s]+)\s*["']/.exec(root)?.[1] ?? null;
  const flags = [
    ...header.matchAll(/<(?:[\w.-]+:)?PRICE_FLAG\b[^>]*\btype\s*=\s*["']\s*([^"']+?)\s*["'][^>]*>([^<]*)</g),
  ].map((m) => [m[1]!, readFlag(m[2]!)] as const);
  return {
    currency,
    version,
    priceFlags: flags.length > 0 ? Object.fromEntries(flags) : null,
    ownExport: generator === GENERATOR_INFO,
    generationDate: date && DATE.test(date) ? date.slice(0, 10) : null,
  };
}
