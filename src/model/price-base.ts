import { z } from 'zod';
import { DECIMAL, DECIMAL_RULE, normaliseDecimal, UNIT_CODE } from '../kernel/code-rules';

/**
 * A price's base (BMEcat's PRICE_BASE, docs/data-model.md "Prices"): the amount is not per order
 * unit but per `value` x `unit` ("12.50 per 100 MTR"), with BMEcat's PRICE_UNIT_FACTOR as
 * `factor`. Absent (null) is the common case: the amount is per order unit. The unit follows
 * the order unit's rules: a UN/ECE Rec. 20 code; imports map the same aliases (order-units.ts).
 */

/** A decimal greater than 0 (the base's value and factor); `field` names it in the message. */
export const positive = (field: string) =>
  z
    .string()
    .trim()
    .regex(DECIMAL, `${field} must be ${DECIMAL_RULE}`)
    .transform(normaliseDecimal)
    .refine((v) => Number(v) > 0, `${field} must be greater than 0`);

/** The base as REST, MCP and the web app write it: `unit` is required, the numbers optional. */
export const PriceBaseDto = z.strictObject({
  /** How many units the amount is for (PRICE_UNIT_VALUE), e.g. 100; absent = 1. */
  value: positive('base.value').nullish(),
  unit: z.string().trim().regex(UNIT_CODE, 'base.unit must be a UN/ECE Rec. 20 unit code such as MTR or C62'),
  /** PRICE_UNIT_FACTOR: the conversion factor between this unit and the order unit; absent = 1. */
  factor: positive('base.factor').nullish(),
});

export type PriceBase = z.output<typeof PriceBaseDto>;

/** A base as it leaves the service (every key present). */
export interface PriceBaseOut {
  value: string | null;
  unit: string;
  factor: string | null;
}

export const PriceBaseOutSchema = z.object({
  value: z.string().nullable(),
  unit: z.string(),
  factor: z.string().nullable(),
});

/** The stored columns of a base (all null for a price per order unit). */
export interface StoredBase {
  baseValue: string | null;
  baseUnit: string | null;
  baseFactor: string | null;
}

export const NO_BASE: StoredBase = { baseValue: null, baseUnit: null, baseFactor: null };

export function storedBase(base: PriceBase | null | undefined): StoredBase {
  if (!base) return NO_BASE;
  return { baseValue: base.value ?? null, baseUnit: base.unit, baseFactor: base.factor ?? null };
}

export function baseOut(row: Partial<StoredBase>): PriceBaseOut | null {
  if (!row.baseUnit) return null;
  return { value: row.baseValue ?? null, unit: row.baseUnit, factor: row.baseFactor ?? null };
}

/** A base of an upsert record as a file or a client gives it (strings still to be checked). */
export interface UpsertPriceBase {
  value?: string | null;
  unit?: string | null;
  factor?: string | null;
}
