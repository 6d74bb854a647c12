import type { ExportWarnings } from '../export-warnings';
import type { ProductView } from '../bmecat/product-view';
import type { XChangePlan } from './xchange-plan';
import type { PriceOut } from '../../model/price-list';
import { addDecimal, isNegative, roundDecimal } from '../../kernel/decimal';
import { XCHANGE_AMOUNTS, XCHANGE_PRICE, XCHANGE_UNITS } from './xchange-codes';

type Json = Record<string, unknown>;

/** The xChange amount field of each price type the format has (the import's mapping, reversed). */
const FIELD_OF = new Map<string, string>(XCHANGE_AMOUNTS.map(([field, type]) => [type, field]));
/** The order the import reads one entry's amounts in: a row joins an entry only after the ones before it. */
const RANK = new Map<string, number>(XCHANGE_AMOUNTS.map(([field], i) => [field, i]));
/** `PriceQuantity`: `^[0-9]{1,5}[.]{0,1}[0-9]{0,4}$`. */
const XCHANGE_QUANTITY = /^[0-9]{1,5}(\.[0-9]{0,4})?$/;
/** `AllowanceSurchargeMinimumQuantity`: `^[0-9]{1,12}[.]{0,1}[0-9]{0,4}$`. */
const XCHANGE_QUANTITY_MIN = /^[0-9]{1,12}(\.[0-9]{0,4})?$/;
/** `Vat`: a percentage, `^[0-9]{1,2}[.]{0,1}[0-9]{0,2}$`. */
const XCHANGE_VAT = /^[0-9]{1,2}(\.[0-9]{0,2})?$/;

/** `0.19` -> `19`, `0.075` -> `7.5`: the model's tax fraction as xChange's Vat percentage (text, no float). */
export function fractionToPercent(fraction: string): string {
  const [whole = '0', decimals = ''] = fraction.split('.');
  const digits = `${whole}${decimals.padEnd(2, '0')}`;
  const percent = `${digits.slice(0, whole.length + 2)}.${digits.slice(whole.length + 2)}`;
  return percent.replace(/^0+(?=\d)/, '').replace(/\.?0*$/, (m) => (m.startsWith('.') ? '' : m));
}

/**
 * An amount as xChange writes it (4 decimals, rounded half up and reported), or null when it cannot
 * be written: more than 11 digits, or a credit (xChange's price pattern has no sign). Both reported.
 */
function amountOf(amount: string, view: ProductView, w: ExportWarnings): string | null {
  if (isNegative(amount)) {
    w.add(`credit price ${amount} left out: ETIM xChange amounts are not negative`, view.subject);
    return null;
  }
  const rounded = roundDecimal(amount, 4);
  if (rounded !== amount)
    w.add('price with more than 4 decimals: rounded half up to 4 (ETIM xChange allows 4)', view.subject);
  if (XCHANGE_PRICE.test(rounded)) return rounded;
  w.add('price with more than 11 digits: left out (ETIM xChange allows 11)', view.subject);
  return null;
}

/**
 * What a price shares with the other amounts of its `Pricing` entry: price unit and quantity
 * (its base, else the order unit and the product's price quantity), unit factor, VAT and
 * validity. What xChange has no place for is reported: a territory, a price factor, the daily flag,
 * PRICE_FLAGs.
 */
function entryOf(p: PriceOut, unit: string, quantity: string, view: ProductView, w: ExportWarnings): Json {
  const baseUnit = p.base && XCHANGE_UNITS.has(p.base.unit) ? p.base.unit : unit;
  if (p.base && baseUnit !== p.base.unit)
    w.add(`price base unit ${p.base.unit} is no ETIM xChange PriceUnit: the order unit written`, view.subject);
  const baseQuantity = p.base?.value && XCHANGE_QUANTITY.test(p.base.value) ? p.base.value : quantity;
  const vat = p.tax ? fractionToPercent(p.tax) : null;
  if (vat && !XCHANGE_VAT.test(vat)) w.add(`tax ${p.tax} does not fit xChange's Vat: left out`, view.subject);
  if (p.territory.length > 0) w.add('price territory left out: ETIM xChange prices have none', view.subject);
  if (p.factor) w.add('price factor (PRICE_FACTOR) left out: ETIM xChange has none', view.subject);
  if (p.flags) w.add('price flags (PRICE_FLAG) left out: ETIM xChange has none', view.subject);
  return {
    PriceUnit: baseUnit,
    PriceQuantity: baseQuantity,
    PriceUnitFactor: p.base?.factor && XCHANGE_PRICE.test(p.base.factor) ? p.base.factor : undefined,
    Vat: vat && XCHANGE_VAT.test(vat) ? vat : undefined,
    PriceValidityDate: p.validFrom ?? undefined,
    PriceExpiryDate: p.validTo ?? undefined,
  };
}

type Entry = { json: Json; key: string; rank: number; allowances: Json[] };

/**
 * A tier (LOWER_BOUND above 1) as xChange V2.0 says it, the way the import reads it back
 * (xchange-prices.ts): an allowance (or surcharge) with AllowanceSurchargeMinimumQuantity on the
 * entry that holds its price type's base price, the difference as AllowanceSurchargeAmount. The
 * entry's GrossListPrice, else its NetPrice, is the price an allowance applies to, so a tier of
 * another type, or one without such an entry, is left out with a warning. Returns whether it was written.
 */
function addTier(entries: Entry[], p: PriceOut, amount: string, key: string): boolean {
  const field = FIELD_OF.get(p.type);
  const entry = entries.findLast((e) => e.key === key && field !== undefined && e.json[field] !== undefined);
  if (!entry || !field) return false;
  const target = entry.json.GrossListPrice !== undefined ? 'GrossListPrice' : 'NetPrice';
  if (target !== field || !XCHANGE_QUANTITY_MIN.test(p.lowerBound!)) return false;
  const base = entry.json[field] as string;
  const down = addDecimal(base, amount, -1);
  const difference = down ?? addDecimal(amount, base, -1)!;
  if (!XCHANGE_PRICE.test(difference)) return false;
  entry.allowances.push({
    AllowanceSurchargeIndicator: down !== null ? 'ALLOWANCE' : 'SURCHARGE',
    AllowanceSurchargeType: 'QD',
    AllowanceSurchargeAmount: difference,
    AllowanceSurchargeMinimumQuantity: p.lowerBound,
  });
  // Another amount joining the entry now could change which price its allowances apply to.
  entry.rank = RANK.size;
  return true;
}

/**
 * A price list as `Pricing` entries: each price is one amount (net_customer as NetPrice,
 * net_list as GrossListPrice, nrp as RecommendedRetailPrice) or a PriceOnRequest entry;
 * consecutive prices that share unit, quantity, VAT and validity go into one entry when they
 * come in the order the import reads an entry's amounts, so an import of the file gives the
 * same prices. A tier is a quantity allowance on its base price's entry (addTier). What xChange
 * cannot say is left out and reported: other price types, a tier addTier cannot place, a price
 * in another currency than the file's.
 */
export function priceListEntries(
  plan: XChangePlan,
  view: ProductView,
  unit: string,
  quantity: string,
  w: ExportWarnings,
): Json[] {
  const entries: Entry[] = [];
  for (const p of view.prices) {
    const field = p.type === 'on_request' ? null : FIELD_OF.get(p.type);
    if (field === undefined) {
      w.add(`price of type ${p.type} left out: ETIM xChange has no such price`, view.subject);
      continue;
    }
    if (p.formula) {
      w.add(`price by formula ${p.formula.id} (PRICE_FORMULA) left out: ETIM xChange has none`, view.subject);
      continue;
    }
    if (p.currency && p.currency !== plan.currency) {
      w.add(`price in ${p.currency} left out: an xChange file has one currency (${plan.currency})`, view.subject);
      continue;
    }
    const shared = entryOf(p, unit, quantity, view, w);
    const key = JSON.stringify(shared);
    if (field === null || p.amount === null) {
      entries.push({ json: { ...shared, PriceOnRequest: true }, key, rank: RANK.size, allowances: [] });
      continue;
    }
    const amount = amountOf(p.amount, view, w);
    if (amount === null) continue;
    if (p.lowerBound && Number(p.lowerBound) > 1) {
      if (!addTier(entries, p, amount, key))
        w.add(
          `tier price from ${p.lowerBound} left out: ETIM xChange says a tier only as an allowance on the GrossListPrice (else NetPrice) of its entry`,
          view.subject,
        );
      continue;
    }
    const rank = RANK.get(field)!;
    const last = entries[entries.length - 1];
    if (last && last.key === key && last.rank < rank) {
      last.json[field] = amount;
      last.rank = rank;
    } else entries.push({ json: { ...shared, [field]: amount }, key, rank, allowances: [] });
  }
  return entries.map((e) => (e.allowances.length > 0 ? { ...e.json, AllowanceSurcharge: e.allowances } : e.json));
}
