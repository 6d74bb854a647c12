import type { PriceOut } from '../../model/price-list';
import { isOnRequest } from '../../model/price-type';
import type { ExportWarnings } from '../export-warnings';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';
import { flagValue, type PriceFlags } from '../../model/price-flags';
import { sameFlags } from './catalog-flags';

/** What differs between the dialects' price lists. */
export interface PriceDialect {
  details: 'PRODUCT_PRICE_DETAILS' | 'ARTICLE_PRICE_DETAILS';
  price: 'PRODUCT_PRICE' | 'ARTICLE_PRICE';
  /** `price_type` values the schema accepts. */
  types: RegExp;
  /**
   * The type a price on request is written with where the schema has no on_request and
   * requires PRICE_AMOUNT (BMEcat 1.2: udp_onrequest, amount 0 when it has none); absent where
   * on_request is the schema's own type (2005: PRICE_AMOUNT optional) or not written (ETIM).
   */
  onRequest?: string;
  currencies: ReadonlySet<string>;
  /** The valid_start_date a block without one gets (the ETIM guideline requires one), else none. */
  defaultStart?: string;
  schemaName: string;
  /**
   * Where the schema puts PRICE_BASE: in each PRICE (BMEcat 2005), once per PRICE_DETAILS block
   * after its prices (the ETIM guideline), or nowhere (BMEcat 1.2).
   */
  base: { at: 'price' | 'block'; units: ReadonlySet<string> } | null;
  /**
   * The PRICE_FLAG types the schema takes in a PRICE (BMEcat 2005), or null where a price has
   * none (BMEcat 1.2 has PRICE_FLAG only in the HEADER, the ETIM guideline not at all).
   */
  flags: ((type: string) => boolean) | null;
  /**
   * Where a price has no PRICE_FLAG (BMEcat 1.2): the flags the HEADER states of every price of
   * the file (catalog-flags.ts); a price with exactly those loses nothing.
   */
  headerFlags?: PriceFlags | null;
  /** Whether a PRICE may hold PRICE_FORMULA in place of PRICE_AMOUNT (BMEcat 2005 only). */
  formula: boolean;
}

/**
 * Consecutive prices with the same validity and DAILY_PRICE flag (and, where PRICE_BASE is the
 * block's, the same base): one PRICE_DETAILS block, as they were read.
 */
function blocksOf(prices: readonly PriceOut[], d: PriceDialect): PriceOut[][] {
  const blocks: PriceOut[][] = [];
  let key: string | null = null;
  for (const p of prices) {
    const k = `${p.validFrom}|${p.validTo}|${p.daily}${d.base?.at === 'block' ? `|${JSON.stringify(p.base)}` : ''}`;
    if (k !== key) blocks.push([]);
    key = k;
    blocks.at(-1)!.push(p);
  }
  return blocks;
}

/**
 * PRICE_BASE (PRICE_UNIT, PRICE_UNIT_FACTOR: the XSDs' content) for `base`, or '' with a warning
 * when the dialect has no place for it or its unit is not in the schema's list (writing C62
 * instead would change what the amount means). The base's value (PRICE_UNIT_VALUE) is not in
 * any XSD: a value other than 1 is reported as left out unless the product's PRICE_QUANTITY
 * already says it.
 */
function priceBase(d: PriceDialect, p: PriceOut, view: ProductView, w: ExportWarnings): string {
  const base = p.base;
  if (!base) return '';
  const per = `${base.value ?? '1'} ${base.unit}`;
  if (!d.base) {
    w.add(`${d.schemaName} has no PRICE_BASE: the base of the ${p.type} price (per ${per}) left out`, view.subject);
    return '';
  }
  if (!d.base.units.has(base.unit)) {
    w.add(
      `price base unit ${base.unit} is not in the ${d.schemaName} unit list: PRICE_BASE of the ${p.type} price left out`,
      view.subject,
    );
    return '';
  }
  if (base.value !== null && Number(base.value) !== 1 && Number(base.value) !== view.priceQuantity)
    w.add(
      `price base value ${base.value} of the ${p.type} price left out (the ${d.schemaName} XSD has no PRICE_UNIT_VALUE)`,
      view.subject,
    );
  return el('PRICE_BASE', [textEl('PRICE_UNIT', base.unit), textEl('PRICE_UNIT_FACTOR', base.factor)]);
}

/**
 * The type and amount a price is written with: a `udp_` type without the underscores XSD's
 * `\w` does not take (`udp_net_list_2` -> `udp_netlist2`) and cut to the XSD's 16, a price on request in the dialect's
 * spelling (onRequest). Each change is reported; the amount is always written as stored.
 */
function written(d: PriceDialect, p: PriceOut, view: ProductView, w: ExportWarnings) {
  let type = p.type;
  let amount = p.amount;
  if (isOnRequest(type) && d.onRequest) {
    if (type !== d.onRequest)
      w.add(`${d.schemaName} has no price type ${type}: written as ${d.onRequest}`, view.subject);
    type = d.onRequest;
    if (amount === null) {
      w.add(`price on request without amount: PRICE_AMOUNT written as 0 (${d.schemaName} requires one)`, view.subject);
      amount = '0';
    }
  }
  const rest = type.startsWith('udp_') ? type.slice(4) : null;
  const fittedRest = rest?.replace(/_/g, '').slice(0, 16);
  if (rest && fittedRest && fittedRest !== rest) {
    const fitted = `udp_${fittedRest}`;
    w.add(
      `price type ${type} written as ${fitted} (the ${d.schemaName} XSD allows up to 16 letters and digits after udp_)`,
      view.subject,
    );
    type = fitted;
  }
  return { type, amount };
}

/**
 * PRICE_FORMULA of a price by formula, where the dialect has it (2005), else null: that price is
 * left out, reported (writing an amount it does not have would invent one). A formula the
 * file's FORMULAS do not define (the catalog does not keep it: formulas-out.ts) is reported.
 */
function priceFormula(d: PriceDialect, p: PriceOut, view: ProductView, w: ExportWarnings): string | null {
  const f = p.formula!;
  if (!d.formula) {
    w.add(`${d.schemaName} has no PRICE_FORMULA: the ${p.type} price by formula ${f.id} left out`, view.subject);
    return null;
  }
  if (!view.definedFormulas?.has(f.id))
    w.add(
      `price formula ${f.id} written by reference: the catalog keeps no definition of it, so the file's FORMULAS do not define it`,
      view.subject,
    );
  const parameters = (f.parameters ?? []).map((x) =>
    el('PARAMETER', [textEl('PARAMETER_SYMBOLREF', x.symbol), textEl('PARAMETER_VALUE', x.value)]),
  );
  return el('PRICE_FORMULA', [
    textEl('FORMULA_IDREF', f.id),
    parameters.length > 0 ? el('PARAMETERS', parameters) : '',
  ]);
}

/** A price's PRICE_FLAGs (after PRICE_BASE), each the schema cannot take reported and left out. */
function priceFlags(d: PriceDialect, p: PriceOut, view: ProductView, w: ExportWarnings): string[] {
  const flags = Object.entries(p.flags ?? {});
  if (flags.length === 0) return [];
  const accepts = d.flags;
  if (!accepts) {
    if (d.headerFlags && sameFlags(p.flags, d.headerFlags)) return [];
    const types = flags.map(([type]) => type).join(', ');
    w.add(
      `${d.schemaName} has no PRICE_FLAG on a price: the flags of the ${p.type} price (${types}) left out`,
      view.subject,
    );
    return [];
  }
  return flags.flatMap(([type, on]) => {
    if (accepts(type)) return [textEl('PRICE_FLAG', flagValue(on), { type })];
    w.add(`price flag ${type} is not a ${d.schemaName} PRICE_FLAG type: left out`, view.subject);
    return [];
  });
}

const date = (type: 'valid_start_date' | 'valid_end_date', value: string | null | undefined) =>
  value ? el('DATETIME', textEl('DATE', value), { type }) : '';

/**
 * A product's whole price list as PRICE_DETAILS blocks, in the XSD's element order (DATETIME,
 * DAILY_PRICE, then each PRICE with PRICE_AMOUNT, PRICE_CURRENCY, TAX, PRICE_FACTOR,
 * LOWER_BOUND, TERRITORY, PRICE_BASE, PRICE_FLAG; the ETIM guideline's PRICE_BASE after the block's
 * prices). A price whose type the schema does not accept, or a currency not in
 * its code list, is left out or written without the currency, with a warning; a block left
 * without prices is not written. Empty string when nothing can be written (the caller then
 * writes the product's `price` as before).
 */
export function priceBlocks(d: PriceDialect, view: ProductView, w: ExportWarnings): string {
  return blocksOf(view.prices, d)
    .map((block) => {
      const prices = block.flatMap((p) => {
        const formula = p.formula ? priceFormula(d, p, view, w) : '';
        if (formula === null) return [];
        const { type, amount } = written(d, p, view, w);
        if (!d.types.test(type)) {
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
              formula || textEl('PRICE_AMOUNT', amount),
              textEl('PRICE_CURRENCY', currency),
              textEl('TAX', p.tax),
              textEl('PRICE_FACTOR', p.factor),
              textEl('LOWER_BOUND', p.lowerBound),
              ...p.territory.map((t) => textEl('TERRITORY', t)),
              d.base?.at !== 'block' ? priceBase(d, p, view, w) : '',
              ...priceFlags(d, p, view, w),
            ],
            { price_type: type },
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
        d.base?.at === 'block' ? priceBase(d, first, view, w) : '',
      ]);
    })
    .join('');
}
