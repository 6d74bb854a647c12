import type { ElementKind } from '../db/scope';
import { checkGtin, type ValueRule } from '../kernel/value-types';
import { PRODUCT_STATUSES } from '../kernel/product-status';
import { CURRENCY_CODE, LANGUAGE_CODE, positiveAmount, UNIT_CODE } from '../kernel/code-rules';

/** A built-in field: its column (drizzle property name), rule, and whether it may be cleared. */
interface BuiltInField {
  column: string;
  rule: ValueRule;
  required?: boolean;
}

const text = (maxLength: number, check?: (v: string) => string | null): ValueRule => ({
  type: 'text',
  maxLength,
  check,
});

const catalogFields: Record<string, BuiltInField> = {
  name: { column: 'name', rule: text(250), required: true },
  description: { column: 'description', rule: text(8000) },
  catalogType: { column: 'catalogType', rule: text(50) },
  catalogVersion: { column: 'catalogVersion', rule: text(20) },
  language: {
    column: 'language',
    rule: text(3, (v) => (LANGUAGE_CODE.test(v) ? null : 'an ISO 639-2 code such as deu or eng')),
    required: true,
  },
  currency: {
    column: 'currency',
    rule: text(3, (v) => (CURRENCY_CODE.test(v) ? null : 'an ISO 4217 code such as EUR')),
    required: true,
  },
};

const categoryFields: Record<string, BuiltInField> = {
  name: { column: 'name', rule: text(250), required: true },
  description: { column: 'description', rule: text(8000) },
  /** BMEcat's group KEYWORDs joined by ", " (migration 0051), as a product's keywords. */
  keywords: { column: 'keywords', rule: text(1000) },
  sortOrder: { column: 'sortOrder', rule: { type: 'integer' }, required: true },
};

const unitCheck = (v: string) => (UNIT_CODE.test(v) ? null : 'a UN/ECE Recommendation 20 code such as C62 or MTR');
const positiveDecimal: ValueRule = { type: 'decimal', check: positiveAmount };

const productFields: Record<string, BuiltInField> = {
  name: { column: 'name', rule: text(250) },
  description: { column: 'description', rule: text(32000) },
  sku: {
    column: 'sku',
    rule: text(64, (v) => (v.trim() === v && v.length > 0 ? null : 'no leading or trailing spaces')),
  },
  gtin: { column: 'gtin', rule: text(14, checkGtin) },
  manufacturerName: { column: 'manufacturerName', rule: text(250) },
  manufacturerPid: { column: 'manufacturerPid', rule: text(64) },
  unit: { column: 'unit', rule: text(3, unitCheck) },
  price: { column: 'price', rule: { type: 'decimal' } },
  priceQuantity: { column: 'priceQuantity', rule: { type: 'integer', min: 1 } },
  /** BMEcat's CONTENT_UNIT: what one order unit holds (a BOX of 6 PCE), the same code rule as `unit`. */
  contentUnit: { column: 'contentUnit', rule: text(3, unitCheck) },
  /** NO_CU_PER_OU: content units per order unit, a positive decimal as written (BMEcat's dtNUMBER). */
  contentPerUnit: { column: 'contentPerUnit', rule: positiveDecimal },
  /** QUANTITY_MIN: the least a customer orders, in order units (BMEcat 2005's dtFLOAT, 1.2's dtINTEGER). */
  quantityMin: { column: 'quantityMin', rule: positiveDecimal },
  /** QUANTITY_INTERVAL: the step above the minimum, in order units. */
  quantityInterval: { column: 'quantityInterval', rule: positiveDecimal },
  keywords: { column: 'keywords', rule: text(1000) },
  deliveryTimeDays: { column: 'deliveryTimeDays', rule: { type: 'integer', min: 0 } },
  status: { column: 'status', rule: { type: 'enum', enumValues: PRODUCT_STATUSES }, required: true },
};

/**
 * A product's (and variant's) data fields besides its identity (`sku`) and its `status`: the
 * columns every writer (AddProduct/UpdateProduct, UpsertProducts and the import, history
 * snapshots and restores) reads and writes as they are.
 */
export const PRODUCT_DATA_FIELDS = [
  'name',
  'description',
  'gtin',
  'manufacturerName',
  'manufacturerPid',
  'unit',
  'price',
  'priceQuantity',
  'contentUnit',
  'contentPerUnit',
  'quantityMin',
  'quantityInterval',
  'keywords',
  'deliveryTimeDays',
] as const satisfies readonly (keyof typeof productFields)[];

export const BUILT_IN_FIELDS: Record<ElementKind, Record<string, BuiltInField>> = {
  catalog: catalogFields,
  category: categoryFields,
  product: productFields,
  variant: productFields,
};

export function builtInField(kind: ElementKind, field: string): BuiltInField | undefined {
  return Object.hasOwn(BUILT_IN_FIELDS[kind], field) ? BUILT_IN_FIELDS[kind][field] : undefined;
}
