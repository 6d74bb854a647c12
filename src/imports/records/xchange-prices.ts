import type { UpsertPrice } from '../../catalog/upsert/upsert-types';
import type { FileWarning } from './record-actions';
import { XCHANGE_AMOUNTS } from '../../exports/xchange/xchange-codes';
import { addDecimal, percentChange } from '../../kernel/decimal';

type Json = Record<string, any>;

const str = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;

/** `21` -> `0.21`, `7.5` -> `0.075`: xChange's Vat is a percentage, the model's tax a fraction (text, no float). */
export function percentToFraction(percent: string): string {
  const [whole, fraction = ''] = percent.split('.');
  const digits = whole!.padStart(3, '0');
  return `${digits.slice(0, -2).replace(/^0+(?=\d)/, '')}.${digits.slice(-2)}${fraction}`;
}

/** How the prices of one trade item are read beside the file. */
export interface XChangePriceReading {
  /** The catalog's currency (a file in it stores prices without currency). */
  catalogCurrency: string | null;
  /** The file's CurrencyCode: every price of the file is in it. */
  fileCurrency: string | null;
  /** The trade item's OrderUnit: a price for another PriceUnit keeps it as its base. */
  orderUnit: string | null;
}

export interface XChangePrices {
  /** The price list; empty when the file gives only a plain price (then `price` alone) or none. */
  prices: UpsertPrice[];
  /** The product's `price`: the first amount of the list (NetPrice first), null without. */
  price: string | null;
  /** The first entry's PriceQuantity: the product's `priceQuantity`, as before lists. */
  priceQuantity: string | null;
}

const blank = (v: string | null | undefined) => v === undefined || v === null || v === '';
const PLAIN_DECIMAL = /^\d{1,12}(\.\d{1,20})?$/;

/**
 * The price tiers of a `Pricing` entry: xChange V2.0 has no minimum quantity on a price, only on
 * an allowance or surcharge (AllowanceSurchargeMinimumQuantity, a quantity discount). Each one
 * with a minimum quantity and an amount or percentage is a tier of the entry's GrossListPrice
 * (else its NetPrice): the same price type, validity and base, `lowerBound` the minimum quantity,
 * the amount the price less the allowance (plus the surcharge), computed exactly
 * (kernel/decimal.ts). The exporter writes a tier back the same way (xchange-pricing.ts). An
 * allowance without minimum quantity (a trade discount for every quantity) or without a value
 * has no place in the price list: reported, naming the field.
 */
function tiersOf(entry: Json, i: number, amounts: UpsertPrice[], at: string, warnings: FileWarning[]): UpsertPrice[] {
  const allowances: Json[] = Array.isArray(entry.AllowanceSurcharge) ? entry.AllowanceSurcharge : [];
  const target = amounts.find((a) => a.type === 'net_list') ?? amounts.find((a) => a.type === 'net_customer');
  const out: UpsertPrice[] = [];
  allowances.forEach((a, k) => {
    const field = `Pricing[${i}].AllowanceSurcharge[${k}]`;
    const minimum = str(a?.AllowanceSurchargeMinimumQuantity);
    const amount = str(a?.AllowanceSurchargeAmount);
    const percent = str(a?.AllowanceSurchargePercentage);
    const sign = a?.AllowanceSurchargeIndicator === 'SURCHARGE' ? 1 : -1;
    const base = target?.amount && PLAIN_DECIMAL.test(target.amount) ? target.amount : null;
    let tier: string | null = null;
    if (base && minimum && PLAIN_DECIMAL.test(minimum) && Number(minimum) > 0) {
      if (amount && PLAIN_DECIMAL.test(amount)) tier = addDecimal(base, amount, sign);
      else if (percent && PLAIN_DECIMAL.test(percent)) tier = percentChange(base, percent, sign);
    }
    if (tier !== null) {
      out.push({ ...target!, amount: tier, lowerBound: minimum });
      return;
    }
    const why = !minimum
      ? 'no minimum quantity (a discount for every quantity, not a tier)'
      : !base
        ? 'no GrossListPrice or NetPrice in its entry to apply it to'
        : 'no amount or percentage that gives a price';
    warnings.push({
      code: 'price_not_kept',
      message: `${field}: ${a?.AllowanceSurchargeIndicator === 'SURCHARGE' ? 'surcharge' : 'allowance'} not kept: ${why}`,
      line: 0,
      path: `${at}.AllowanceSurcharge[${k}]`,
    });
  });
  return out;
}

/**
 * Every price of a trade item's `Pricing` (docs/import.md "What is read from ETIM xChange"): one
 * price per amount of each entry (NetPrice, GrossListPrice, RecommendedRetailPrice), each with
 * its entry's validity (PriceValidityDate, PriceExpiryDate), VAT (`Vat` 21 -> tax 0.21), the
 * file's currency (none when it is the catalog's) and, when the entry's PriceUnit is not the
 * order unit, a PriceUnitFactor is given, or its PriceQuantity differs from the first entry's,
 * a base (PriceQuantity x PriceUnit, factor PriceUnitFactor). An entry without amount that is
 * PriceOnRequest is a price on request. An allowance with a minimum quantity is a tier
 * (tiersOf). What the model cannot hold is reported, naming the field: another allowance or
 * surcharge, and an entry with neither an amount nor PriceOnRequest. As in BMEcat, a list that is one GrossListPrice in the
 * catalog's currency and nothing more is read as the plain `price`, and one price on request
 * alone as no price.
 */
export function xchangePricesOf(
  pricing: Json[],
  reading: XChangePriceReading,
  path: string,
  warnings: FileWarning[],
): XChangePrices {
  const out: UpsertPrice[] = [];
  const firstQuantity = str(pricing[0]?.PriceQuantity);
  const currency =
    reading.fileCurrency && reading.fileCurrency.toUpperCase() !== reading.catalogCurrency?.toUpperCase()
      ? reading.fileCurrency
      : null;
  pricing.forEach((entry, i) => {
    const at = `${path}.Pricing[${i}]`;
    const unit = str(entry.PriceUnit);
    const quantity = str(entry.PriceQuantity);
    const factor = str(entry.PriceUnitFactor);
    const ownBase =
      (unit !== null && reading.orderUnit !== null && unit !== reading.orderUnit) ||
      (factor !== null && Number(factor) !== 1) ||
      (quantity !== null && quantity !== firstQuantity);
    // A VAT or date that does not read is left out with a warning: it never costs the price.
    const dropped = (field: string, value: string, rule: string) =>
      warnings.push({
        code: 'price_invalid',
        message: `Pricing[${i}].${field} "${value.slice(0, 40)}" is not ${rule}: left out, the price kept`,
        line: 0,
        path: `${at}.${field}`,
      });
    const vatText = str(entry.Vat)?.replace(',', '.') ?? null;
    const vat = vatText && /^\d{1,2}(\.\d+)?$/.test(vatText) ? percentToFraction(vatText) : null;
    if (vatText && !vat) dropped('Vat', vatText, 'a percentage below 100');
    const dateOf = (field: string) => {
      const text = str(entry[field]);
      if (text && /^\d{4}-\d{2}-\d{2}/.test(text)) return text.slice(0, 10);
      if (text) dropped(field, text, 'a date such as 2026-01-31');
      return null;
    };
    const shared = {
      currency,
      tax: vat,
      validFrom: dateOf('PriceValidityDate'),
      validTo: dateOf('PriceExpiryDate'),
      base: ownBase && unit ? { value: quantity, unit, factor } : null,
    };
    const amounts = XCHANGE_AMOUNTS.flatMap(([field, type]) => {
      const amount = str(entry[field]);
      return amount === null ? [] : [{ type, amount, ...shared }];
    });
    if (amounts.length > 0) out.push(...amounts);
    else if (entry.PriceOnRequest === true) out.push({ type: 'on_request', amount: null, ...shared });
    else
      warnings.push({
        code: 'price_invalid',
        message: `Pricing[${i}]: neither NetPrice, GrossListPrice nor RecommendedRetailPrice, and not PriceOnRequest: nothing to keep`,
        line: 0,
        path: at,
      });
    out.push(...tiersOf(entry, i, amounts, at, warnings));
  });
  const price = out.find((p) => p.type !== 'on_request')?.amount ?? null;
  const only = out.length === 1 ? out[0]! : null;
  const plain =
    only !== null &&
    only.type === 'net_list' &&
    only.currency === null &&
    blank(only.tax) &&
    blank(only.validFrom) &&
    blank(only.validTo) &&
    !only.base;
  const onRequestAlone = only !== null && only.type === 'on_request' && !only.base && !only.validFrom && !only.validTo;
  return {
    prices: plain || onRequestAlone ? [] : out,
    price,
    priceQuantity: firstQuantity?.replace(/\.0*$/, '') ?? null,
  };
}
