/**
 * The service's CSV, written by the CSV export (exports/csv/csv-exporter.ts) and read back by the import
 * (imports/records/csv-records.ts): its columns, its list separators and its formula guard live here
 * once, so what one side writes the other reads. Splitting a file into records is the reader's
 * own business (imports/read/csv-reader.ts).
 */

import { PRODUCT_DATA_FIELDS } from '../../model/fields';
import { localizedPath, splitLocalizedPath } from '../../kernel/languages';
import type { PriceOut, UpsertPrice } from '../../model/price-list';
import { flagsCell, flagsOfCell } from '../../model/price-flags';
import { formulaCell, formulaOfCell } from '../../model/price-formula';

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
  'prices',
  'references',
  /** Feature blocks of other systems as their JSON list (GetFeatureBlocks' shape); empty when none. */
  'featureBlocks',
  /** Media links of categories (`categoryMediaCell`): all of the catalog's, on the file's first row. */
  'categoryMedia',
];

/** Product fields with a column that the CSV writes once more per further language (`name@eng`). */
const LOCALIZED_TEXT_COLUMNS = ['name', 'description', 'keywords'] as const;

/** One per-language column: its header and the translation field it holds (`values.<code>` for an attribute). */
export interface LocalizedColumn {
  header: string;
  language: string;
  field: string;
}

/**
 * The per-language columns of a catalog (docs/exports.md "CSV"): for each language it publishes
 * besides its default (whose texts are the plain columns), `name@eng`, `description@eng`,
 * `keywords@eng`, then `<code>@eng` for each localizable text attribute.
 */
export function localizedColumns(
  languages: readonly string[],
  defaultLanguage: string,
  localizableCodes: readonly string[],
): LocalizedColumn[] {
  return languages
    .filter((language) => language !== defaultLanguage)
    .flatMap((language) => [
      ...LOCALIZED_TEXT_COLUMNS.map((field) => ({ header: localizedPath(field, language), language, field })),
      ...localizableCodes.map((code) => ({ header: localizedPath(code, language), language, field: `values.${code}` })),
    ]);
}

/**
 * The reverse of `localizedColumns` for one header: its language as written (any form, checked
 * by the import) and the translation field. Null for a column without `@` (attribute codes never
 * hold one, ATTRIBUTE_CODE).
 */
export function localizedColumnOf(header: string): { written: string; column: string; field: string } | null {
  const { field: column, language } = splitLocalizedPath(header);
  if (!language) return null;
  const isText = (LOCALIZED_TEXT_COLUMNS as readonly string[]).includes(column);
  return { written: language, column, field: isText ? column : `values.${column}` };
}

/** Separates the entries of a list cell (categories, classes, features, media). */
export const LIST_SEPARATOR = '|';
/** Marks, after the type, a reference whose target is named by its manufacturer product number. */
const BY_MPN = '@mpn';

/**
 * One product reference in the `references` cell: `type:SKU`, or `type=quantity:SKU` (the type
 * never holds a colon, so the SKU is everything after the first one); a target named by its
 * manufacturer product number (an xChange ProductRelation) has `@mpn` after the type:
 * `accessories@mpn=2:M-200`. Entries are separated by LIST_SEPARATOR, so a target must not
 * contain `|`.
 */
export function referenceCell(r: {
  type: string;
  targetSku: string;
  quantity: number | null;
  targetKind?: string | null;
}): string {
  return `${r.type}${r.targetKind === 'mpn' ? BY_MPN : ''}${r.quantity !== null ? `=${r.quantity}` : ''}:${r.targetSku}`;
}

/** The reverse of `referenceCell`; an entry without a colon is a target SKU of type `others`. */
export function parseReferenceCell(entry: string): {
  type: string;
  targetSku: string;
  quantity: number | null;
  targetKind?: 'mpn';
} {
  const at = entry.indexOf(':');
  if (at < 0) return { type: 'others', targetSku: entry, quantity: null };
  let head = entry.slice(0, at);
  const eq = head.indexOf('=');
  const quantity = eq > 0 ? Number(head.slice(eq + 1)) : null;
  head = eq > 0 ? head.slice(0, eq) : head;
  const byMpn = head.endsWith(BY_MPN);
  return {
    type: byMpn ? head.slice(0, -BY_MPN.length) : head,
    targetSku: entry.slice(at + 1),
    quantity,
    ...(byMpn ? { targetKind: 'mpn' as const } : {}),
  };
}

/** Separates the names of a category path ("Cables > Power cables"). */
export const PATH_SEPARATOR = ' > ';

/**
 * The `categoryMedia` cell: one entry per link of a category, `Path > Of > Category=URL`, in the
 * category's media order, entries separated by LIST_SEPARATOR. The path ends at the first
 * `=http://` or `=https://`, so a URL may hold `=` (query strings) and a name anything but that.
 */
export function categoryMediaCell(links: readonly { path: string; url: string }[]): string {
  return links.map((l) => `${l.path}=${l.url}`).join(LIST_SEPARATOR);
}

/** The reverse of `categoryMediaCell`: entries without a path and an http(s) URL are not links (null). */
export function parseCategoryMediaEntry(entry: string): { path: string[]; url: string } | null {
  const m = /^(.*?)=(https?:\/\/\S+)$/i.exec(entry);
  if (!m) return null;
  const path = m[1]!.split(PATH_SEPARATOR).map((n) => n.trim());
  return path.some((n) => n === '') ? null : { path, url: m[2]! };
}

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

/** The keys of one price in the `prices` cell, in the order they are written. */
const PRICE_KEYS = [
  'type',
  'amount',
  'currency',
  'tax',
  'factor',
  'lowerBound',
  'territory',
  'validFrom',
  'validTo',
] as const;

/** A price's base in the cell: flat keys after the others (`baseValue=100;baseUnit=MTR`). */
const BASE_KEYS = { baseValue: 'value', baseUnit: 'unit', baseFactor: 'factor' } as const;

/**
 * The `prices` cell (docs/exports.md "CSV"): prices separated by `|`, each a `;`-separated list
 * of `key=value` with the API's key names, empty values left out, territories joined by `,`,
 * `daily` written only when set, a base (PRICE_BASE) as `baseValue`, `baseUnit`, `baseFactor`,
 * PRICE_FLAGs as `flags=incl_freight:1,incl_packing:0`, a PRICE_FORMULA as `formula=F1` and
 * `formulaParameters=m:3,n:4` (each part URI-encoded).
 * E.g. `type=net_list;amount=9.50;currency=EUR;lowerBound=10` or
 * `type=net_list;amount=12.50;baseValue=100;baseUnit=MTR`.
 */
export function pricesCell(prices: readonly PriceOut[]): string {
  return prices
    .map((p) =>
      [
        ...PRICE_KEYS.flatMap((key) => {
          const value = key === 'territory' ? p.territory.join(',') : p[key];
          return value === null || value === '' ? [] : [`${key}=${value}`];
        }),
        ...(p.daily ? ['daily=1'] : []),
        ...Object.entries(BASE_KEYS).flatMap(([key, part]) => {
          const value = p.base?.[part];
          return value === null || value === undefined || value === '' ? [] : [`${key}=${value}`];
        }),
        ...(p.flags ? [`flags=${flagsCell(p.flags)}`] : []),
        ...formulaCell(p.formula),
      ].join(';'),
    )
    .join(LIST_SEPARATOR);
}

/** The reverse of `pricesCell`; values are checked by the upsert (resolve-prices.ts). */
export function pricesOfCell(cell: string): UpsertPrice[] {
  return cell
    .split(LIST_SEPARATOR)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const pairs = new Map(
        entry.split(';').map((pair) => {
          const at = pair.indexOf('=');
          return [pair.slice(0, at < 0 ? pair.length : at).trim(), at < 0 ? '' : pair.slice(at + 1).trim()] as const;
        }),
      );
      const territory = pairs.get('territory');
      return {
        type: pairs.get('type') ?? '',
        amount: pairs.get('amount') ?? null,
        currency: pairs.get('currency') ?? null,
        tax: pairs.get('tax') ?? null,
        factor: pairs.get('factor') ?? null,
        lowerBound: pairs.get('lowerBound') ?? null,
        territory: territory ? territory.split(',') : [],
        validFrom: pairs.get('validFrom') ?? null,
        validTo: pairs.get('validTo') ?? null,
        ...(pairs.get('daily') === '1' ? { daily: true } : {}),
        ...(['baseValue', 'baseUnit', 'baseFactor'].some((k) => pairs.has(k))
          ? {
              base: {
                value: pairs.get('baseValue') ?? null,
                unit: pairs.get('baseUnit') ?? null,
                factor: pairs.get('baseFactor') ?? null,
              },
            }
          : {}),
        ...(pairs.has('flags') ? { flags: flagsOfCell(pairs.get('flags')!) } : {}),
        ...formulaOfCell(pairs.get('formula'), pairs.get('formulaParameters')),
      };
    });
}
