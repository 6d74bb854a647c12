import type { PriceOut } from '../../catalog/prices/price-list';
import type { ExportWarnings } from '../export-warnings';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';

/** What differs between the dialects' price lists. */
export interface PriceDialect {
  details: 'PRODUCT_PRICE_DETAILS' | 'ARTICLE_PRICE_DETAILS';
  price: 'PRODUCT_PRICE' | 'ARTICLE_PRICE';
  /** `price_type` values the schema accepts. */
  types: RegExp;
  currencies: ReadonlySet<string>;
  /** The valid_start_date a block without one gets (the ETIM guideline requires one), else none. */
  defaultStart?: string;
  schemaName: string;
}

/** Consecutive prices with the same validity and DAILY_PRICE flag: one PRICE_DETAILS block, as they were read. */
function blocksOf(prices: readonly PriceOut[]): PriceOut[][] {
  const blocks: PriceOut[][] = [];
  let key: string | null = null;
  for (const p of prices) {
    const k = `${p.validFrom}|${p.validTo}|${p.daily}`;
    if (k !== key) blocks.push([]);
    key = k;
    blocks.at(-1)!.push(p);
  }
  return blocks;
}

const date = (type: 'valid_start_date' | 'valid_end_date', value: string | null | undefined) =>
  value ? el('DATETIME', textEl('DATE', value), { type }) : '';

/**
 * A product's whole price list as PRICE_DETAILS blocks, in the XSD's element order (DATETIME,
 * DAILY_PRICE, then each PRICE with PRICE_AMOUNT, PRICE_CURRENCY, TAX, PRICE_FACTOR,
 * LOWER_BOUND, TERRITORY). A price whose type the schema does not accept, or a currency not in
 * its code list, is left out or written without the currency, with a warning; a block left
 * without prices is not written. Empty string when nothing can be written (the caller then
 * writes the product's `price` as before).
 */
export function priceBlocks(d: PriceDialect, view: ProductView, w: ExportWarnings): string {
  return blocksOf(view.prices)
    .map((block) => {
      const prices = block.flatMap((p) => {
        if (!d.types.test(p.type)) {
          w.add(`price type ${p.type} is not a ${d.schemaName} price type: that price left out`, view.subject);
          return [];
        }
        let currency = p.currency;
        if (currency && !d.currencies.has(currency)) {
          w.add(
            `currency ${currency} is not in the ${d.schemaName} currency list: PRICE_CURRENCY left out`,
            view.subject,
          );
          currency = null;
        }
        return [
          el(
            d.price,
            [
              textEl('PRICE_AMOUNT', p.amount),
              textEl('PRICE_CURRENCY', currency),
              textEl('TAX', p.tax),
              textEl('PRICE_FACTOR', p.factor),
              textEl('LOWER_BOUND', p.lowerBound),
              ...p.territory.map((t) => textEl('TERRITORY', t)),
            ],
            { price_type: p.type },
          ),
        ];
      });
      if (prices.length === 0) return '';
      const first = block[0]!;
      return el(d.details, [
        date('valid_start_date', first.validFrom ?? d.defaultStart),
        date('valid_end_date', first.validTo),
        first.daily ? textEl('DAILY_PRICE', 'true') : '',
        ...prices,
      ]);
    })
    .join('');
}
