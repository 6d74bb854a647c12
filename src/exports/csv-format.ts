/**
 * The service's CSV, written by the CSV export (exports/csv.ts) and read back by the import
 * (imports/csv-records.ts): its columns, its list separators and its formula guard live here
 * once, so what one side writes the other reads. Splitting a file into records is the reader's
 * own business (imports/csv-reader.ts).
 */

import { PRODUCT_DATA_FIELDS } from '../catalog/fields';

/**
 * Columns that are not attribute codes, in the order the export writes them; every other column
 * is an attribute. The product's data fields in their order, the catalog's currency after the
 * price (a price means nothing without it), ids first and the lists last.
 */
export const CSV_COLUMNS: readonly string[] = [
  'productId',
  'parentId',
  'parentSku',
  'sku',
  ...PRODUCT_DATA_FIELDS.flatMap((field) => (field === 'price' ? [field, 'currency'] : [field])),
  'status',
  'categories',
  'classes',
  'features',
  'media',
  /** Feature blocks of other systems as their JSON list (GetFeatureBlocks' shape); empty when none. */
  'featureBlocks',
];

/** Separates the entries of a list cell (categories, classes, features, media). */
export const LIST_SEPARATOR = '|';
/** Separates the names of a category path ("Cables > Power cables"). */
export const PATH_SEPARATOR = ' > ';

/** A cell a spreadsheet would run as a formula: it starts with = + - @, tab or CR (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell guarded by an apostrophe (or text that looks like one): apostrophes, then a formula start. */
const GUARDED = /^'+[=+\-@\t\r]/;
/** Plain numbers such as -12.5 stay numbers. */
const NUMBER = /^[+-]?\d+([.,]\d+)?$/;

/**
 * Text a spreadsheet would evaluate as a formula gets a leading apostrophe, as OWASP
 * recommends; so does text that already looks guarded ('=x), so that `unguardFormula` gives
 * every text back exactly.
 */
export function guardFormula(text: string): string {
  return GUARDED.test(text) || (FORMULA_START.test(text) && !NUMBER.test(text)) ? `'${text}` : text;
}

/** The reverse of `guardFormula`: reading a cell of our export takes the guard's apostrophe off. */
export function unguardFormula(cell: string): string {
  return GUARDED.test(cell) ? cell.slice(1) : cell;
}

/** RFC 4180 field: quoted when it holds a separator, quote, CR or LF; quotes doubled; text formula-guarded. */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? guardFormula(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record with its CRLF line end. */
export const csvLine = (fields: readonly (string | number | null | undefined)[]) =>
  `${fields.map(csvField).join(',')}\r\n`;
