import { UNIT_CODE } from '../../kernel/code-rules';
import { keptUnit, orderUnit } from '../upsert/resolve/order-units';
import type { WarnFn } from '../upsert/resolve/resolve-classification';
import { ItemError } from '../upsert/upsert-types';
import { NO_BASE, positive, type StoredBase, type UpsertPriceBase } from '../../model/price-base';

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/**
 * The base of price `field` (`prices.N`) of an upsert record, checked field by field. Strict
 * (no `warn`), a bad part rejects the record naming `prices.N.base.<part>`. Tolerant (imports),
 * what is valid is kept and each bad part warned (`price_base`): a unit alias (Stück, Meter ...)
 * becomes its code, any other unit is kept as written (the exports then leave the base out,
 * reported), a value or factor that is not a positive decimal is dropped; a base without a unit
 * says nothing and is dropped whole.
 */
export function resolveBase(raw: UpsertPriceBase | null | undefined, field: string, warn?: WarnFn): StoredBase {
  if (!raw || (blank(raw.unit) && blank(raw.value) && blank(raw.factor))) return NO_BASE;
  const problem = (part: string, message: string) => {
    const path = `${field}.base.${part}`;
    if (!warn) throw new ItemError(path, `${path}: ${message}`);
    warn(path, 'price_base', `${path}: ${message}`);
  };
  if (blank(raw.unit)) {
    problem('unit', 'PRICE_BASE without PRICE_UNIT: the base is left out, the amount is stored as written');
    return NO_BASE;
  }
  const text = raw.unit!.trim();
  let unit = warn ? orderUnit(text)?.code : UNIT_CODE.test(text) ? text : undefined;
  if (unit && unit !== text) problem('unit', `"${text}" is not a UN/ECE Rec. 20 code: stored as ${unit}`);
  if (!unit) {
    unit = keptUnit(text);
    problem('unit', `"${text.slice(0, 60)}" is neither a UN/ECE Rec. 20 code nor a known alias: kept as "${unit}"`);
  }
  const number = (part: 'value' | 'factor'): string | null => {
    const v = raw[part];
    if (blank(v)) return null;
    const parsed = positive(part).safeParse(v);
    if (parsed.success) return parsed.data;
    problem(part, `"${v!.trim().slice(0, 60)}" is not a decimal greater than 0 such as 100 or 0,5: left out`);
    return null;
  };
  return { baseValue: number('value'), baseUnit: unit, baseFactor: number('factor') };
}
