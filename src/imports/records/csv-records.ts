import {
  CSV_COLUMNS,
  LIST_SEPARATOR,
  localizedColumnOf,
  PATH_SEPARATOR,
  parseCategoryMediaEntry,
  parseReferenceCell,
  pricesOfCell,
  unguardFormula,
} from '../../exports/csv/csv-format';
import { UPSERT_FIELDS, type UpsertRecord } from '../../catalog/upsert/upsert-types';
import { groupOfSystem } from '../../catalog/upsert/resolve/reference-cache';
import { isLinkUrl } from '../../media/media-links.rules';
import { featureBlockSchema, type FeatureBlockInput } from '../../model/feature-block-types';
import { z } from 'zod';
import { languageOfWritten, type FileLanguages } from '../read/file-languages';

/** The featureBlocks cell: empty is none; otherwise the JSON list the CSV export writes (null when it is not one). */
function featureBlocksOfCell(cell: string): FeatureBlockInput[] | null {
  if (cell.trim() === '') return [];
  try {
    const parsed = z.array(featureBlockSchema).safeParse(JSON.parse(cell));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Columns of the service's CSV that are not attribute codes. */
const FIXED: ReadonlySet<string> = new Set(CSV_COLUMNS);

interface CsvProduct {
  sku: string | null;
  record: UpsertRecord | null;
  /** Category paths ("Cables > Power cables") the master is placed in, when the file has the column. */
  categoryPaths: string[][] | undefined;
  /** Links of categories named by path (the `categoryMedia` cell), whatever product the row is. */
  categoryLinks?: { path: string[]; url: string }[];
  problem: string | null;
}

const list = (cell: string) =>
  cell
    .split(LIST_SEPARATOR)
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * The languages of a CSV header's per-language columns as written (`name@en` gives `en`), each
 * once: what the validation pass counts for every record (import-items.ts).
 */
export function csvHeaderLanguages(header: readonly string[]): string[] {
  return [...new Set(header.flatMap((h) => localizedColumnOf(h)?.written ?? []))];
}

/**
 * Splits the per-language columns off a row (docs/import.md "CSV"): a column in the catalog's
 * default language is read as its plain column (`name@deu` in a German catalog is `name`), one
 * in a skipped language is left out, every other becomes `translations[code][field]`, an empty
 * cell null (it removes that translation, as an empty cell clears a field).
 */
function splitLanguages(cells: Record<string, string>, languages: FileLanguages) {
  const plain: Record<string, string> = {};
  const translations: Record<string, Record<string, string | null>> = {};
  for (const [column, cell] of Object.entries(cells)) {
    const localized = localizedColumnOf(column);
    if (!localized) {
      plain[column] = cell;
      continue;
    }
    const code = languageOfWritten(localized.written);
    if (languages.skip.includes(code)) continue;
    if (code === languages.catalogLanguage) plain[localized.column] = cell;
    else (translations[code] ??= {})[localized.field] = cell === '' ? null : cell;
  }
  return { plain, translations };
}

/** How a CSV's language columns are read when the job names no languages (queued before they existed). */
const NO_LANGUAGES: FileLanguages = { fileDefault: '', catalogLanguage: '', skip: [] };

/**
 * One row of the service's own CSV as an upsert record. Only columns present in the file are
 * touched: an ERP file with just sku, name and price updates those three. An empty cell clears
 * the field; attribute columns (every column not listed above) with empty cells drop the value.
 * Per-language columns (`name@eng`, `<code>@eng`) become the record's translations.
 */
export function csvProductOf(raw: Record<string, string>, languages: FileLanguages = NO_LANGUAGES): CsvProduct {
  const { plain, translations } = splitLanguages(
    Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, unguardFormula(v)])),
    languages,
  );
  const cells = plain;
  const sku = cells.sku?.trim() || null;
  if (!sku) return { sku: null, record: null, categoryPaths: undefined, problem: 'sku is empty' };
  const has = (column: string) => Object.hasOwn(cells, column);
  const fields: UpsertRecord['fields'] = {};
  // status cannot be cleared: an empty cell keeps it (active for a new product).
  for (const key of UPSERT_FIELDS)
    if (has(key) && !(key === 'status' && cells[key] === '')) fields[key] = cells[key] === '' ? null : cells[key]!;
  const parentSku = has('parentSku') && cells.parentSku !== '' ? cells.parentSku! : null;
  const record: UpsertRecord = { sku, parentSku, fields };
  if (Object.keys(translations).length > 0) record.translations = translations;
  const attributeColumns = Object.keys(cells).filter((c) => !FIXED.has(c));
  if (attributeColumns.length > 0)
    record.values = Object.fromEntries(attributeColumns.filter((c) => cells[c] !== '').map((c) => [c, cells[c]!]));
  if (has('classes')) {
    const classes = list(cells.classes!).map((entry) => {
      const at = entry.lastIndexOf(':');
      const system = at > 0 ? entry.slice(0, at) : '';
      return { group: groupOfSystem(system), system, code: at > 0 ? entry.slice(at + 1) : entry };
    });
    const features = has('features')
      ? list(cells.features!).map((entry) => {
          const at = entry.indexOf('=');
          return { code: at > 0 ? entry.slice(0, at) : entry, value: at > 0 ? entry.slice(at + 1) : '' };
        })
      : [];
    record.classification = classes.length > 0 ? { classes, features } : null;
  }
  // An empty cell leaves the list as it is: a CSV never removes a price list by accident (SetPrices with clear: true does).
  if (has('prices') && cells.prices!.trim() !== '') record.prices = pricesOfCell(cells.prices!);
  if (has('references')) record.references = list(cells.references!).map(parseReferenceCell);
  if (has('media'))
    record.media = list(cells.media!).map((entry) =>
      isLinkUrl(entry) ? { fileName: '', url: entry } : { fileName: entry },
    );
  if (has('featureBlocks')) {
    const parsed = featureBlocksOfCell(cells.featureBlocks!);
    if (parsed === null)
      return {
        sku,
        record: null,
        categoryPaths: undefined,
        problem: 'featureBlocks is not a JSON list of feature blocks',
      };
    record.featureBlocks = parsed;
  }
  const categoryPaths =
    has('categories') && !parentSku
      ? list(cells.categories!).map((p) => p.split(PATH_SEPARATOR).map((n) => n.trim()))
      : undefined;
  const categoryLinks = has('categoryMedia')
    ? list(cells.categoryMedia!).flatMap((entry) => parseCategoryMediaEntry(entry) ?? [])
    : [];
  return { sku, record, categoryPaths, ...(categoryLinks.length > 0 ? { categoryLinks } : {}), problem: null };
}
