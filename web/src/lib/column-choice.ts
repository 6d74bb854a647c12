/**
 * The grid's chosen columns, kept in the browser: built-in field names and `attr:<code>` for
 * attribute columns. A module of its own (no React, no i18n) so the boot prefetch (boot.ts) can
 * read which attribute values the first page of the grid will ask for.
 */
export const ATTRIBUTE_COLUMN = 'attr:';

const DEFAULT_COLUMNS = ['sku', 'name', 'status', 'gtin', 'price', 'unit', 'manufacturerName', 'updatedAt'];

/** The attribute codes of the chosen columns, sorted and each once (GetProducts `attributes`). */
export function attributeCodesOf(columnIds: readonly string[]): string[] {
  const codes = columnIds
    .filter((id) => id.startsWith(ATTRIBUTE_COLUMN))
    .map((id) => id.slice(ATTRIBUTE_COLUMN.length));
  return [...new Set(codes)].sort();
}

const STORE = 'pim.gridColumns';
export function loadColumnChoice(): string[] {
  try {
    const raw = localStorage.getItem(STORE);
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;
    return Array.isArray(parsed) && parsed.every((x) => typeof x === 'string') ? parsed : DEFAULT_COLUMNS;
  } catch {
    return DEFAULT_COLUMNS;
  }
}
export function saveColumnChoice(ids: string[]) {
  try {
    localStorage.setItem(STORE, JSON.stringify(ids));
  } catch {
    // kept for this page only
  }
}
