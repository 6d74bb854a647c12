/** The prices table's rows (PricesPanel.tsx): a price as the cells of its row and back. */
import type { ProductDetail } from '../api/models';
import type { BodyOf } from '../api/operations';
import { baseCell, baseOfCell } from './price-base-cell';

type PriceIn = BodyOf<'Catalog/SetPrices'>['prices'][number];
/**
 * One editable row: every cell as the text in its input, and what the table does not edit
 * (the price factor, "daily", the base's factor, PRICE_FLAGs and a PRICE_FORMULA) carried with the
 * row, so removing a row above never hands its values to the next one, and a save never drops them.
 */
export type Row = Record<
  'type' | 'amount' | 'currency' | 'tax' | 'lowerBound' | 'territory' | 'validFrom' | 'validTo' | 'base',
  string
> & {
  kept: {
    factor: string | null;
    daily: boolean;
    baseFactor: string | null;
    flags?: PriceIn['flags'];
    formula?: PriceIn['formula'];
  };
};

export const COLUMNS = [
  'type',
  'amount',
  'currency',
  'tax',
  'base',
  'lowerBound',
  'territory',
  'validFrom',
  'validTo',
] as const;
export const TYPES = ['net_list', 'net_customer', 'gros_list', 'nrp', 'net_customer_exp', 'on_request'];

export const rowOf = (p: ProductDetail['prices'][number]): Row => ({
  type: p.type,
  amount: p.amount ?? '',
  currency: p.currency ?? '',
  tax: p.tax ?? '',
  lowerBound: p.lowerBound ?? '',
  territory: p.territory.join(', '),
  validFrom: p.validFrom ?? '',
  validTo: p.validTo ?? '',
  base: baseCell(p.base),
  kept: {
    factor: p.factor ?? null,
    daily: p.daily ?? false,
    baseFactor: p.base?.factor ?? null,
    ...(p.flags ? { flags: p.flags } : {}),
    ...(p.formula ? { formula: p.formula } : {}),
  },
});

/** A row as SetPrices takes it; empty cells are left out, so the server's rules name what is wrong. */
export function priceOf(row: Row): PriceIn {
  const text = (v: string) => (v.trim() === '' ? null : v.trim());
  const territory = row.territory
    .split(/[,\s]+/)
    .map((t) => t.trim().toUpperCase())
    .filter((t) => t !== '');
  return {
    type: row.type.trim(),
    // Empty: no amount, which only a price on request (on_request) may have; the server says so.
    amount: text(row.amount),
    currency: text(row.currency.toUpperCase()),
    tax: text(row.tax),
    factor: row.kept.factor,
    lowerBound: text(row.lowerBound),
    territory,
    validFrom: text(row.validFrom),
    validTo: text(row.validTo),
    daily: row.kept.daily,
    base: baseOfCell(row.base, row.kept.baseFactor),
    ...(row.kept.flags ? { flags: row.kept.flags } : {}),
    // A price by formula has no amount: the formula goes back with it unless an amount was typed.
    ...(row.kept.formula && !text(row.amount) ? { formula: row.kept.formula } : {}),
  };
}
