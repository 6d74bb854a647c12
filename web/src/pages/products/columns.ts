import type { Attribute, Product } from '../../api/models';
import type { MessageKey } from '../../i18n/de';
import { unitLabel } from '../../lib/units';
import type { ValueKind } from '../../lib/values';
import { ATTRIBUTE_COLUMN } from '../../lib/column-choice';

export { loadColumnChoice, saveColumnChoice } from '../../lib/column-choice';

/** A grid column: a built-in field of ProductOut or an attribute (code). */
export interface GridColumn {
  id: string;
  /** Built-in field label key, or the attribute's own name. */
  labelKey?: MessageKey;
  label?: string;
  width: number;
  /** Sortable through the API's `sort` parameter. */
  sort?: 'sku' | 'name' | 'updatedAt' | 'completeness';
  /** Editable in place through SetValue, with the kind its input is parsed as. */
  edit?: ValueKind;
  attribute?: Attribute;
  read: (p: Product) => string | null;
}

const field = (
  id: keyof Product,
  labelKey: MessageKey,
  width: number,
  extra: Partial<GridColumn> = {},
): GridColumn => ({
  id,
  labelKey,
  width,
  read: (p) => {
    const v = p[id];
    return v === null || v === undefined ? null : String(v);
  },
  ...extra,
});

export const BUILT_IN_COLUMNS: GridColumn[] = [
  field('sku', 'field.sku', 150, { sort: 'sku', edit: 'text' }),
  field('name', 'field.name', 300, { sort: 'name', edit: 'text' }),
  field('status', 'field.status', 120, { edit: 'enum' }),
  field('gtin', 'field.gtin', 150, { edit: 'text' }),
  field('price', 'field.price', 100, { edit: 'decimal' }),
  field('unit', 'field.unit', 80, { edit: 'text' }),
  field('manufacturerName', 'field.manufacturerName', 170, { edit: 'text' }),
  field('manufacturerPid', 'field.manufacturerPid', 150, { edit: 'text' }),
  field('deliveryTimeDays', 'field.deliveryTimeDays', 110, { edit: 'integer' }),
  field('updatedAt', 'field.updatedAt', 160, { sort: 'updatedAt' }),
  // In a content language other than the catalog's default: the texts it still lacks (GetProducts `language`).
  {
    id: 'missingTranslations',
    labelKey: 'field.missingTranslations',
    width: 190,
    read: (p) => (p.missingTranslations ?? []).join(',') || null,
  },
];

/**
 * The score in the chosen channel and language (GetProducts `completenessChannel`), shown after
 * the SKU while a channel is chosen; sorting by it lists the worst first (docs/completeness.md).
 */
export const COMPLETENESS_COLUMN: GridColumn = {
  id: 'completeness',
  labelKey: 'completeness.column',
  width: 130,
  sort: 'completeness',
  read: (p) => (p.completeness ? String(p.completeness.score) : null),
};

/** Built-in columns whose text is kept per content language (SetValue with `language`; docs/languages.md). */
export const LOCALIZABLE_COLUMNS: readonly string[] = ['name', 'description', 'keywords'];

/**
 * The field a column's text is kept under per language (`name`, `values.<code>` of a localizable
 * attribute; the API's `missingTranslations` names it), or null for a language-neutral column.
 */
export function translationField(column: GridColumn): string | null {
  if (column.attribute) return column.attribute.localizable ? `values.${column.attribute.code}` : null;
  return LOCALIZABLE_COLUMNS.includes(column.id) ? column.id : null;
}

/** The row without `field` among its missing translations once a text is saved for it. */
function translated(p: Product, field: string | null, value: string): Product {
  const missing = p.missingTranslations;
  return field && value && missing?.includes(field)
    ? { ...p, missingTranslations: missing.filter((f) => f !== field) }
    : p;
}

export function attributeColumn(a: Attribute): GridColumn {
  return {
    id: `${ATTRIBUTE_COLUMN}${a.code}`,
    label: a.unit ? `${a.name} (${unitLabel(a.unit)})` : a.name,
    width: 150,
    attribute: a,
    edit:
      a.type === 'text' || a.type === 'number' || a.type === 'boolean' || a.type === 'enum' || a.type === 'range'
        ? a.type
        : 'text',
    read: (p) => p.values?.find((v) => v.code === a.code)?.value ?? null,
  };
}

/** The SetValue `field` of a column: the built-in name or the attribute code. */
export const setValueField = (c: GridColumn) => c.attribute?.code ?? c.id;

/**
 * A grid row after SetValue stored `value` (as the API answered it) in a column: the built-in
 * field replaced (a translation written is no longer missing), or the attribute's entry in
 * `values` replaced, added or (empty value) removed.
 */
export function withSavedValue(p: Product, column: GridColumn, value: string): Product {
  const a = column.attribute;
  if (!a) return column.id in p ? translated({ ...p, [column.id]: value }, translationField(column), value) : p;
  const others = (p.values ?? []).filter((v) => v.code !== a.code);
  const values = value === '' ? others : [...others, { code: a.code, type: a.type, value, unit: a.unit ?? null }];
  const sorted = values.sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
  return translated({ ...p, values: sorted }, translationField(column), value);
}
