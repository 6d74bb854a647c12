import type { UpsertPrice } from '../catalog/upsert/upsert-types';
import { child, children, textOf, type XmlNode } from './xml-node';

/** A DATETIME of the given type (1.2, 2005) or its 2005 shorthand element, as YYYY-MM-DD. */
function dateOf(block: XmlNode, type: 'valid_start_date' | 'valid_end_date'): string | null {
  const datetime = children(block, 'DATETIME').find((d) => d.attrs.type === type);
  const text = datetime ? textOf(datetime, 'DATE') : textOf(block, type.toUpperCase());
  return text ? text.trim().slice(0, 10) : null;
}

/**
 * Every price of a PRODUCT (2005, ETIM) or ARTICLE (1.x): each PRODUCT_PRICE_DETAILS /
 * ARTICLE_PRICE_DETAILS block in file order, each PRODUCT_PRICE / ARTICLE_PRICE of it with
 * the block's validity and DAILY_PRICE flag (docs/import.md "Prices"), except the "no price"
 * markers. Values stay strings;
 * the upsert checks them (resolve-prices.ts) and warns about what it leaves out.
 */
export function priceListOf(product: XmlNode): UpsertPrice[] {
  const out: UpsertPrice[] = [];
  for (const block of children(product, 'PRODUCT_PRICE_DETAILS', 'ARTICLE_PRICE_DETAILS')) {
    const validFrom = dateOf(block, 'valid_start_date');
    const validTo = dateOf(block, 'valid_end_date');
    const daily = /^(true|1)$/i.test(textOf(block, 'DAILY_PRICE') ?? '');
    for (const price of children(block, 'PRODUCT_PRICE', 'ARTICLE_PRICE')) {
      const type = price.attrs.price_type ?? '';
      // "No price" markers are no price: on_request without an amount (2005) and udp_onrequest
      // (the 1.2 placeholder with amount 0 our exports and many tools write).
      if (type === 'udp_onrequest' || (type === 'on_request' && !textOf(price, 'PRICE_AMOUNT'))) continue;
      out.push({
        type,
        amount: textOf(price, 'PRICE_AMOUNT'),
        currency: textOf(price, 'PRICE_CURRENCY'),
        tax: textOf(price, 'TAX') ?? textOf(child(price, 'TAX_DETAILS'), 'TAX'),
        factor: textOf(price, 'PRICE_FACTOR'),
        lowerBound: textOf(price, 'LOWER_BOUND'),
        territory: children(price, 'TERRITORY').map((t) => t.text.trim()),
        validFrom,
        validTo,
        ...(daily ? { daily } : {}),
      });
    }
  }
  return out;
}
