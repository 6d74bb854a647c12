import { roundDecimal } from '../../../../src/sync/protocol/wire';
import type { Node } from './features';
import type { TargetMapping } from '../target-adapter';

/**
 * The shop price of a node, one rule for every adapter: the entries of the mapped price type
 * in the mapped currency (an entry without currency counts as the mapped one), by lower bound
 * (none counts as 1). The entry for the smallest quantity is the shop price, anchored at
 * quantity 1 (a shop needs a price per piece); the others are quantity tiers. Amounts are
 * multiplied by the entry's factor (BMEcat PRICE_FACTOR) and are gross when the mapping says
 * prices include tax: at the shop's rate when the adapter knows it (percent), else at the
 * entry's own `tax` (a fraction). A node without such entries has the record's `price`.
 */
export interface PriceTier {
  /** 1 for the shop price, above 1 for a tier. */
  minQuantity: number;
  /** In major units, rounded half up to 6 decimals (each adapter rounds to what its shop keeps). */
  amount: number;
}

export interface PriceOptions {
  /** The shop's tax rate in percent for this node; null when the adapter has none. */
  taxRate?: number | null;
  /** Another currency than the mapping's (an engine that keeps prices per currency). */
  currency?: string;
  /** Net whatever the mapping says (an engine that keeps net and gross itself). */
  net?: boolean;
}

/**
 * An amount to 6 decimals, half up through its decimal text: the PIM keeps up to 20 (`21.15701`
 * per piece), and a computed amount (a factor, a gross price) would carry float noise
 * (docs/shops.md, "Amounts").
 */
export function round6(n: number): number {
  return Number(roundDecimal(n.toFixed(12), 6));
}

/** An amount in a shop's places (Shopify: the currency's minor unit; Vendure: cents), half up, as text. */
export function amountIn(n: number, places: number): string {
  return roundDecimal(n.toFixed(12), places);
}

/** The shop price and its tiers, by minimum quantity; empty when the node has neither. */
export function priceTiers(node: Node, mapping: TargetMapping, options: PriceOptions = {}): PriceTier[] {
  const currency = options.currency ?? mapping.currency;
  const gross = (net: number, entryTax: string | null) => {
    if (options.net || !mapping.pricesIncludeTax) return net;
    if (options.taxRate !== undefined && options.taxRate !== null) return net * (1 + options.taxRate / 100);
    return entryTax === null ? net : net * (1 + Number(entryTax));
  };
  const byQuantity = new Map<number, number>();
  for (const p of node.prices ?? []) {
    // A price on request has no amount: it is no shop price.
    if (p.amount === null || p.type !== mapping.priceType || (p.currency ?? mapping.currency) !== currency) continue;
    const min = Math.max(1, Math.ceil(Number(p.lowerBound ?? '1')));
    if (byQuantity.has(min)) continue;
    byQuantity.set(min, round6(gross(Number(p.amount) * (p.factor ? Number(p.factor) : 1), p.tax)));
  }
  if (byQuantity.size === 0 && node.price !== null && currency === mapping.currency) {
    byQuantity.set(1, round6(gross(Number(node.price), null)));
  }
  const tiers = [...byQuantity].map(([minQuantity, amount]) => ({ minQuantity, amount }));
  tiers.sort((a, b) => a.minQuantity - b.minQuantity);
  if (tiers[0] && tiers[0].minQuantity !== 1) tiers[0] = { minQuantity: 1, amount: tiers[0].amount };
  return tiers;
}

/** The shop price of a node (the tier for quantity 1); null when it has none. */
export function shopPrice(node: Node, mapping: TargetMapping, taxRate: number | null = null): number | null {
  return priceTiers(node, mapping, { taxRate })[0]?.amount ?? null;
}

/** The currencies a node has prices of the mapped type in (the mapped one first). */
export function priceCurrencies(node: Node, mapping: TargetMapping): string[] {
  const currencies = new Set([mapping.currency]);
  for (const p of node.prices ?? []) if (p.type === mapping.priceType && p.currency) currencies.add(p.currency);
  return [...currencies];
}
