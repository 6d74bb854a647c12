/** A price's type: BMEcat's, `udp_`, and what a file's other types are kept as (docs/data-model.md "Prices"). */

/**
 * BMEcat's price types (1.2 and 2005 share them). `udp_*` is a user-defined type: BMEcat's
 * pattern is `udp_\w{1,16}`, and XSD's `\w` is any letter or digit (`udp_Stückpreis`), so
 * letters of every script are kept; an underscore, which XSD's `\w` does not take but files
 * write (`udp_net_list_2`), is kept too, and so are up to 32 characters after `udp_` (the XSD's 16
 * are the exports' concern: they write such a type without underscores and cut to 16,
 * reported, price-blocks.ts), so a supplier's own type never costs its price.
 */
export const PRICE_TYPE =
  /^(net_list|gros_list|net_customer|nrp|net_customer_exp|on_request|udp_[\p{L}\p{N}_]{1,32})$/u;
const ON_REQUEST = new Set(['on_request', 'udp_onrequest']);

/**
 * A type that is not PRICE_TYPE as the `udp_` type it is kept as (issue 32): `Listenpreis`, which
 * real files write, becomes `udp_Listenpreis`. No pinned XSD takes a type that is neither
 * BMEcat's nor `udp_` (2005 `typePRICE_TYPE`, 1.2's pattern, the ETIM guideline's three), so a
 * type kept as given could be written back by none of them: the `udp_` form is what 2005 and 1.2
 * write (reported where they cut it) and what SetPrices and the CSV take, so the price and its
 * amount survive every round trip. Only letters and digits are kept (the XSDs' `\w` after `udp_`:
 * `Preis (brutto)` -> `udp_Preisbrutto`, which the exports then write unchanged), a written
 * `udp_` prefix is not doubled, the rest is cut to 32; a type with nothing left is `udp_untyped`.
 */
export function udpPriceType(written: string): string {
  const rest = written
    .trim()
    .replace(/^udp_/i, '')
    .replace(/[^\p{L}\p{N}]+/gu, '')
    .slice(0, 32);
  return `udp_${rest || 'untyped'}`;
}

/** Whether a price type is a price on request (its amount may be absent). */
export const isOnRequest = (type: string): boolean => ON_REQUEST.has(type);
