import { isNegative } from '../kernel/decimal';
import { priceList, type StoredPrice } from './price-list';

/** A price list as the records hold it: the sync record and the history snapshot (docs/data-model.md "Prices"). */

/**
 * The list as the sync record carries it: a price per order unit has no `base` key, so the
 * records (and fingerprints) of lists without PRICE_BASE stay what they were before it existed.
 * A credit (negative amount) is not in it: no shop has a negative price, and the wire's amount
 * rule (STORED_DECIMAL) is the shops' (docs/shops.md "Amounts"); nor a price by formula (no
 * shop computes one).
 */
export function syncPriceList(rows: readonly StoredPrice[], price: string | null) {
  return priceList(rows, price)
    .filter((p) => !isNegative(p.amount ?? '') && !p.formula)
    .map(({ base, ...p }) => (base ? { ...p, base } : p));
}

/**
 * The history's form of a stored list (path `prices`): left out when empty, as absent and [] mean
 * the same. A base is part of its price's entry; a price without one has no base keys, as before
 * PRICE_BASE existed; the same for flags (PRICE_FLAG, key `flags`).
 */
export function pricesSnapshot(rows: readonly StoredPrice[]) {
  if (rows.length === 0) return undefined;
  return rows.map(({ position: _p, baseValue, baseUnit, baseFactor, flags, formula, ...row }) => ({
    ...row,
    ...(baseUnit ? { baseValue: baseValue ?? null, baseUnit, baseFactor: baseFactor ?? null } : {}),
    ...(flags ? { flags } : {}),
    ...(formula ? { formula } : {}),
  }));
}
