import { ItemError } from '../upsert/upsert-types';
import type { WarnFn } from '../upsert/resolve/resolve-classification';
import type { StoredBase } from '../../model/price-base';
import { PriceDto, type Price, type StoredPrice, toStored, type UpsertPrice } from '../../model/price-list';
import { PRICE_TYPE, udpPriceType } from '../../model/price-type';
import { PriceFlagsDto } from '../../model/price-flags';
import { resolveBase } from './resolve-price-base';

const blankToNull = (v: string | null | undefined) =>
  v === undefined || v === null || v.trim() === '' ? null : v.trim();

/**
 * A price's flags (PRICE_FLAG) checked: strict, passed on for PriceDto to refuse; tolerant, flags
 * that do not check are left out with a `price_flag` warning and the price is kept.
 */
function flagsOf(flags: UpsertPrice['flags'], field: string, warn?: WarnFn) {
  if (!flags || !warn) return flags;
  const parsed = PriceFlagsDto.safeParse(flags);
  if (parsed.success) return parsed.data;
  warn(`${field}.flags`, 'price_flag', `${parsed.error.issues[0]!.message}: the flags left out, the price kept`);
  return null;
}

/**
 * The price list of an upsert record checked with SetPrices' rules (PriceDto): strict, a price
 * that breaks one rejects the record naming `prices.N.field`; tolerant (imports without
 * `strict`), it is left out with a warning and the others are kept; a type that is not BMEcat's
 * (`Listenpreis`) is kept as its `udp_` form with a `price_type` warning (udpPriceType). Returns the rows to store
 * and the product's `price` (the default row's amount), as SetPrices writes them. A price's base
 * is checked field by field (resolve-price-base.ts): a bad base part never costs the price.
 */
export function resolvePrices(
  raw: readonly UpsertPrice[],
  warn?: WarnFn,
): { rows: StoredPrice[]; price: string | undefined } {
  const prices: Price[] = [];
  const bases: StoredBase[] = [];
  raw.forEach((p, i) => {
    const type = warn && !PRICE_TYPE.test(p.type) ? udpPriceType(p.type) : p.type;
    if (type !== p.type)
      warn?.(`prices.${i}.type`, 'price_type', `price type "${p.type}" is not BMEcat's: kept as ${type}`);
    const parsed = PriceDto.safeParse({
      type,
      amount: blankToNull(p.amount),
      currency: blankToNull(p.currency)?.toUpperCase() ?? null,
      tax: blankToNull(p.tax),
      factor: blankToNull(p.factor),
      lowerBound: blankToNull(p.lowerBound),
      territory: p.territory?.map((t) => t.trim().toUpperCase()).filter((t) => t !== ''),
      validFrom: blankToNull(p.validFrom),
      validTo: blankToNull(p.validTo),
      daily: p.daily,
      flags: flagsOf(p.flags, `prices.${i}`, warn),
      formula: p.formula,
    });
    if (parsed.success) {
      prices.push(parsed.data);
      bases.push(resolveBase(p.base, `prices.${i}`, warn));
      return;
    }
    const issue = parsed.error.issues[0]!;
    const field = `prices.${i}${issue.path.length > 0 ? `.${issue.path.join('.')}` : ''}`;
    const message = issue.code === 'invalid_type' ? `${issue.path.join('.') || 'price'} is missing` : issue.message;
    if (!warn) throw new ItemError(field, `${field}: ${message}`);
    warn('prices', 'price_invalid', `${field} (${p.type}): ${message}: the price is left out`);
  });
  const stored = toStored(prices);
  return { ...stored, rows: stored.rows.map((row, i) => ({ ...row, ...bases[i]! })) };
}
