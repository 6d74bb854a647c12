import { z } from 'zod';
import { CURRENCY_CODE, DECIMAL, DECIMAL_RULE, normaliseDecimal } from '../kernel/code-rules';
import { isNegative, SIGNED_DECIMAL } from '../kernel/decimal';
import {
  baseOut,
  type PriceBaseOut,
  PriceBaseDto,
  PriceBaseOutSchema,
  type StoredBase,
  storedBase,
  type UpsertPriceBase,
} from './price-base';
import { flagsOut, type PriceFlags, PriceFlagsDto, storedFlags } from './price-flags';
import { formulaOut, type PriceFormula, PriceFormulaDto, storedFormula } from './price-formula';
import { isOnRequest, PRICE_TYPE } from './price-type';

/**
 * A product's price list (docs/data-model.md "Prices"): every PRODUCT_PRICE of every
 * PRODUCT_PRICE_DETAILS block, in file order. Rows of one block share their validity and
 * DAILY_PRICE flag, so blocks need no number of their own: an exporter groups consecutive
 * rows with the same validity back into one block.
 *
 * `products.price` stays the default net price (SetValue, ProductDto). It is the amount of the
 * list's default row: the first row that is not a price on request. The stored row keeps
 * `amount` NULL, so the amount has one home and a SetValue of `price` changes the list too.
 *
 * A **price on request** (`on_request`, BMEcat 2005's type; `udp_onrequest`, the 1.2 spelling) may
 * have no amount: "for 100 pieces and more, ask". It is never the default row, so its stored
 * `amount` NULL means "no amount", and readers give it `amount: null`.
 */

const decimal = (field: string) =>
  z.string().trim().regex(DECIMAL, `${field} must be ${DECIMAL_RULE}`).transform(normaliseDecimal);
const date = (field: string) => z.iso.date(`${field} must be a date such as 2026-01-31`);

/** One price as REST, MCP and CSV read and write it. */
export const PriceDto = z
  .strictObject({
    type: z
      .string()
      .regex(PRICE_TYPE, 'type must be net_list, gros_list, net_customer, nrp, net_customer_exp, on_request or udp_*'),
    /**
     * Required, except on a price on request (`on_request`, `udp_onrequest`), where absent or null =
     * no amount. May be negative (a credit, `-5.00`); such a price is never the default row.
     */
    amount: z
      .string()
      .trim()
      .regex(
        SIGNED_DECIMAL,
        `amount must be ${DECIMAL_RULE.replace('a non-negative', 'an')} (a credit may be negative)`,
      )
      .transform(normaliseDecimal)
      .nullish(),
    currency: z.string().regex(CURRENCY_CODE, 'currency must be an ISO 4217 code such as EUR').nullish(),
    /** Tax rate as a fraction, as BMEcat's TAX: 0.19 for 19 %. */
    tax: decimal('tax')
      .refine((t) => Number(t) <= 1, 'tax must be a fraction such as 0.19, not a percentage')
      .nullish(),
    factor: decimal('factor').nullish(),
    /** Quantity from which the price applies (tier); greater than 0. */
    lowerBound: decimal('lowerBound')
      .refine((b) => Number(b) > 0, 'lowerBound must be greater than 0')
      .nullish(),
    territory: z
      .array(z.string().regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/, 'territory must hold ISO 3166 codes such as DE or DE-BY'))
      .max(50)
      .optional(),
    validFrom: date('validFrom').nullish(),
    validTo: date('validTo').nullish(),
    daily: z.boolean().optional(),
    /** PRICE_BASE: the amount is for `value` x `unit` ("per 100 MTR"); absent or null = per order unit. */
    base: PriceBaseDto.nullish(),
    /** PRICE_FLAG: `{"incl_freight": true}`; absent or null = none (price-flags.ts). */
    flags: PriceFlagsDto.nullish(),
    /** PRICE_FORMULA (BMEcat 2005) in place of the amount: `{id, parameters?: [{symbol, value}]}` (price-flags.ts). */
    formula: PriceFormulaDto.nullish(),
  })
  .refine((p) => !p.validFrom || !p.validTo || p.validFrom <= p.validTo, {
    message: 'validFrom must not be after validTo',
    path: ['validTo'],
  })
  .refine((p) => !p.formula || (p.amount ?? null) === null, {
    message: 'a price has an amount or a formula, not both',
    path: ['formula'],
  })
  .refine((p) => (p.amount ?? null) !== null || isOnRequest(p.type) || !!p.formula, {
    message:
      'amount is missing (only a price on request, on_request or udp_onrequest, or one with a formula may have none)',
    path: ['amount'],
  });

export type Price = z.output<typeof PriceDto>;

/** A price as it leaves the service: every key present, absent values null. */
export interface PriceOut {
  type: string;
  /** Null only on a price on request without amount. */
  amount: string | null;
  currency: string | null;
  tax: string | null;
  factor: string | null;
  lowerBound: string | null;
  territory: string[];
  validFrom: string | null;
  validTo: string | null;
  daily: boolean;
  /** PRICE_BASE, null for a price per order unit. */
  base: PriceBaseOut | null;
  /** PRICE_FLAG (`incl_freight` ...), only on a price that has flags. */
  flags?: PriceFlags;
  /** PRICE_FORMULA, only on a price that has one (its amount is null). */
  formula?: PriceFormula;
}

export const PriceOutSchema = z.object({
  type: z.string(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  tax: z.string().nullable(),
  factor: z.string().nullable(),
  lowerBound: z.string().nullable(),
  territory: z.array(z.string()),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  daily: z.boolean(),
  base: PriceBaseOutSchema.nullable(),
  flags: z.record(z.string(), z.boolean()).optional(),
  formula: PriceFormulaDto.optional(),
});

/** A `product_prices` row without its product id (the aggregate and the history hold these). */
export interface StoredPrice extends StoredBase {
  position: number;
  type: string;
  amount: string | null;
  currency: string | null;
  tax: string | null;
  factor: string | null;
  lowerBound: string | null;
  territory: string | null;
  validFrom: string | null;
  validTo: string | null;
  daily: boolean | null;
  /** PRICE_FLAG as JSON text (migration 0086), null for none. */
  flags: string | null;
  /** PRICE_FORMULA as JSON text (migration 0086), null for a price with an amount or on request. */
  formula: string | null;
}

/**
 * The index of the default row (whose amount is `products.price`), or -1: the first price that is
 * neither on request nor a credit (a negative amount is no product's price).
 */
export function defaultIndex(prices: readonly { type: string; amount?: string | null; formula?: unknown }[]): number {
  return prices.findIndex((p) => !isOnRequest(p.type) && !isNegative(p.amount ?? '') && !p.formula);
}

/** Whether a stored row is the default row (its amount is `products.price`), not a price on request without amount. */
export const isDefaultRow = (r: Pick<StoredPrice, 'type' | 'amount'> & { formula?: string | null }): boolean =>
  r.amount === null && !isOnRequest(r.type) && !r.formula;

/** The rows to store for `prices` and the `price` the product gets (unchanged when the list has no default row). */
export function toStored(prices: readonly Price[]): { rows: StoredPrice[]; price: string | undefined } {
  const at = defaultIndex(prices);
  const rows = prices.map((p, position) => ({
    position,
    type: p.type,
    amount: position === at ? null : (p.amount ?? null),
    currency: p.currency ?? null,
    tax: p.tax ?? null,
    factor: p.factor ?? null,
    lowerBound: p.lowerBound ?? null,
    territory: p.territory && p.territory.length > 0 ? p.territory.join(',') : null,
    validFrom: p.validFrom ?? null,
    validTo: p.validTo ?? null,
    daily: p.daily ? true : null,
    // The table's column order (base, then flags): lists are compared as JSON (inherited-prices.ts).
    ...storedBase(p.base),
    flags: storedFlags(p.flags),
    formula: storedFormula(p.formula),
  }));
  return { rows, price: at >= 0 ? (prices[at]!.amount ?? undefined) : undefined };
}

/**
 * The list as readers see it: the default row takes `price`; when `price` was cleared (SetValue
 * with an empty value) the default row is left out with it.
 */
export function priceList(rows: readonly StoredPrice[], price: string | null): PriceOut[] {
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .flatMap((r) => {
      if ((isOnRequest(r.type) || r.formula) && r.amount === null) return [outOf(r, null)];
      const amount = r.amount ?? price;
      if (amount === null || amount === '') return [];
      return [outOf(r, amount)];
    });
}

/** A stored row as it leaves the service; the key order is the sync record's (its fingerprint hashes it). */
function outOf(r: StoredPrice, amount: string | null): PriceOut {
  const flags = flagsOut(r.flags);
  const formula = formulaOut(r.formula);
  return {
    type: r.type,
    amount,
    currency: r.currency,
    tax: r.tax,
    factor: r.factor,
    lowerBound: r.lowerBound,
    territory: r.territory ? r.territory.split(',') : [],
    validFrom: r.validFrom,
    validTo: r.validTo,
    daily: r.daily === true,
    base: baseOut(r),
    ...(flags ? { flags } : {}),
    ...(formula ? { formula } : {}),
  };
}

/** One price of an upsert record, as a file or a client gives it (strings still to be checked). */
export interface UpsertPrice {
  type: string;
  amount?: string | null;
  currency?: string | null;
  tax?: string | null;
  factor?: string | null;
  lowerBound?: string | null;
  territory?: string[];
  validFrom?: string | null;
  validTo?: string | null;
  daily?: boolean;
  base?: UpsertPriceBase | null;
  /** PRICE_FLAG by type; checked by the upsert (a bad flag is left out, the price kept). */
  flags?: Record<string, unknown> | null;
  /** PRICE_FORMULA in place of the amount (BMEcat 2005); checked by the upsert. */
  formula?: PriceFormula | null;
}
