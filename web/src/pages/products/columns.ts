import type { Attribute, Product } from '../../api/types';
import type { MessageKey } from '../../i18n/de';
import { unitLabel } from '../../lib/units';
import type { ValueKind } from '../../lib/values';

/** A grid column: a built-in field of ProductOut or an attribute (code). */
export interface GridColumn {
  id: string;
  /** Built-in field label key, or the attribute's own name. */
  labelKey?: MessageKey;
  label?: string;
  width: number;
  /** Sortable through the API's `sort` parameter. */
  sort?: 'sku' | 'name' | 'updatedAt';
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
];

const DEFAULT_COLUMNS = ['sku', 'name', 'status', 'gtin', 'price', 'unit', 'manufacturerName', 'updatedAt'];

export function attributeColumn(a: Attribute): GridColumn {
  return {
    id: `attr:${a.code}`,
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
