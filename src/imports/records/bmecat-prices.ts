import { readFlag } from '../../model/price-flags';
import { isNegative } from '../../kernel/decimal';
import type { UpsertPriceBase } from '../../model/price-base';
import type { UpsertPrice } from '../../catalog/upsert/upsert-types';
import { child, children, textOf, type XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

/** A DATETIME of the given type (1.2, 2005) or its 2005 shorthand element, as YYYY-MM-DD. */
function dateOf(block: XmlNode, type: 'valid_start_date' | 'valid_end_date'): string | null {
  const datetime = children(block, 'DATETIME').find((d) => d.attrs.type === type);
  const text = datetime ? textOf(datetime, 'DATE') : textOf(block, type.toUpperCase());
  return text ? text.trim().slice(0, 10) : null;
}

/** How a file's prices are read beside what it writes (import-items.ts). */
export interface PriceReading {
  /** The catalog's currency: a list that is only a plain `price` in it is read as that price. */
  catalogCurrency: string;
  /**
   * In a file of our own export (file-header.ts), its generation date: the date the export
   * writes on a price block that has none (the ETIM guideline requires a valid_start_date), so
   * a valid_start_date equal to it is read as no start date. Null for every other file.
   */
  exportDate?: string | null;
  /**
   * The HEADER's CURRENCY when it is not the catalog's: BMEcat's rule is that a price without
   * PRICE_CURRENCY is in it, so such a price keeps it (a CHF file in an EUR catalog stays CHF).
   * Null when it is the catalog's: the price then stays without currency (= the catalog's).
   */
  fileCurrency?: string | null;
  /** The BMECAT root's version (file-header.ts): BMEcat 1.01's TAX is a percentage (`taxOf`). */
  version?: string | null;
  /** The HEADER CATALOG's PRICE_FLAGs (file-header.ts): every price's, unless it has its own of a type. */
  fileFlags?: Record<string, boolean> | null;
}

/**
 * A TAX as BMEcat's fraction, and a warning when it was read as a percentage. BMEcat 1.01
 * writes the rate as a percentage (`16` for 16 %), 1.2 and 2005 as a fraction (`0.16`). The rule,
 * by version and value: in a 1.01 file (any version 1.0x) a TAX of 1 or more is a percentage and
 * is divided by 100 (`16` -> `0.16`, `7` -> `0.07`), a TAX below 1 is already a fraction and
 * stays (`0.16`); in every other version a TAX above 1 cannot be a fraction, so it is read as a
 * percentage too, with a `price_tax` warning (the file breaks its version's rule), where it used
 * to cost the price. The division moves the decimal point in the text: no float, no digit lost.
 */
function taxOf(
  text: string | null,
  version: string | null | undefined,
  warn: (message: string) => void,
): string | null {
  if (text === null) return null;
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(t)) return text; // the upsert reports what is no decimal
  const n = Number(t);
  const v101 = /^1\.0/.test(version ?? '');
  if (v101 ? n < 1 : n <= 1) return text;
  const fraction = percentToFraction(t);
  if (!v101)
    warn(`TAX ${t} is a percentage, not the fraction BMEcat ${version ?? '1.2 / 2005'} writes: read as ${fraction}`);
  return fraction;
}

/** `16` -> `0.16`, `19.6` -> `0.196`, `100` -> `1.00`: the decimal point moved two places left, as text. */
function percentToFraction(t: string): string {
  const [whole, fraction = ''] = t.split('.');
  const digits = whole!.padStart(3, '0');
  const out = `${digits.slice(0, -2).replace(/^0+(?=\d)/, '')}.${digits.slice(-2)}${fraction}`;
  return out;
}

/**
 * A PRICE_BASE as written: PRICE_UNIT, PRICE_UNIT_FACTOR and PRICE_UNIT_VALUE (which the BMEcat
 * 2005 specification's text names but its XSDs do not: kept when a file carries it). Null
 * when absent. Strings still to be checked (resolve-price-base.ts).
 */
function baseOf(base: XmlNode | undefined): UpsertPriceBase | null {
  if (!base) return null;
  return {
    value: textOf(base, 'PRICE_UNIT_VALUE'),
    unit: textOf(base, 'PRICE_UNIT'),
    factor: textOf(base, 'PRICE_UNIT_FACTOR'),
  };
}

/**
 * Every price of a PRODUCT (2005, ETIM) or ARTICLE (1.x): each PRODUCT_PRICE_DETAILS /
 * ARTICLE_PRICE_DETAILS block in file order, each PRODUCT_PRICE / ARTICLE_PRICE of it with
 * the block's validity and DAILY_PRICE flag (docs/import.md "Prices"), except the "no price"
 * markers. A price's PRICE_BASE is its own (BMEcat 2005: inside PRODUCT_PRICE) or else its
 * block's (the ETIM guideline: inside PRODUCT_PRICE_DETAILS, for every price of the block).
 * Values stay strings; the upsert checks them (resolve-prices.ts) and warns about what it
 * leaves out.
 */
export function priceListOf(product: XmlNode, reading?: PriceReading, warnings?: FileWarning[]): UpsertPrice[] {
  const out: UpsertPrice[] = [];
  for (const block of children(product, 'PRODUCT_PRICE_DETAILS', 'ARTICLE_PRICE_DETAILS')) {
    const start = dateOf(block, 'valid_start_date');
    const validFrom = reading?.exportDate && start === reading.exportDate ? null : start;
    const validTo = dateOf(block, 'valid_end_date');
    const daily = /^(true|1)$/i.test(textOf(block, 'DAILY_PRICE') ?? '');
    const blockBase = child(block, 'PRICE_BASE');
    for (const price of children(block, 'PRODUCT_PRICE', 'ARTICLE_PRICE')) {
      const flags = { ...reading?.fileFlags, ...flagsIn(price) };
      const type = priceTypeOf(price.attrs.price_type ?? '');
      const written = textOf(price, 'PRICE_AMOUNT');
      // A price on request keeps its place without amount: on_request without one (2005), and
      // udp_onrequest with none or 0 (the 1.2 placeholder our exports and many tools write).
      const onRequest = type === 'on_request' || (type === 'udp_onrequest' && (!written || Number(written) === 0));
      const taxNode = child(price, 'TAX') ?? child(child(price, 'TAX_DETAILS'), 'TAX');
      const taxText = textOf(price, 'TAX') ?? textOf(child(price, 'TAX_DETAILS'), 'TAX');
      out.push({
        type: onRequest ? 'on_request' : type,
        amount: onRequest && (!written || type === 'udp_onrequest') ? null : written,
        currency: textOf(price, 'PRICE_CURRENCY') ?? reading?.fileCurrency ?? null,
        tax: taxOf(taxText, reading?.version, (message) =>
          warnings?.push({ code: 'price_tax', message, line: taxNode!.line, path: `${block.name}/${price.name}/TAX` }),
        ),
        factor: textOf(price, 'PRICE_FACTOR'),
        lowerBound: textOf(price, 'LOWER_BOUND'),
        territory: children(price, 'TERRITORY').map((t) => t.text.trim()),
        validFrom,
        validTo,
        ...(daily ? { daily } : {}),
        base: baseOf(child(price, 'PRICE_BASE') ?? blockBase),
        ...(Object.keys(flags).length > 0 ? { flags } : {}),
        ...formulaOf(child(price, 'PRICE_FORMULA')),
      });
    }
  }
  if (isOnlyOnRequest(out)) return [];
  return reading !== undefined && isPlainPrice(out, reading.catalogCurrency) ? [] : out;
}

/** A 2005 price's PRICE_FORMULA (in place of its amount) as `{formula}`, or nothing. */
function formulaOf(node: XmlNode | undefined): Pick<UpsertPrice, 'formula'> {
  if (!node) return {};
  const parameters = children(child(node, 'PARAMETERS'), 'PARAMETER').map((p) => ({
    symbol: textOf(p, 'PARAMETER_SYMBOLREF') ?? '',
    value: textOf(p, 'PARAMETER_VALUE') ?? '',
  }));
  return { formula: { id: textOf(node, 'FORMULA_IDREF') ?? '', ...(parameters.length > 0 ? { parameters } : {}) } };
}

/** The PRICE_FLAGs of a price (2005: in PRODUCT_PRICE; 1.2 has them only in the HEADER), by type. */
function flagsIn(node: XmlNode): Record<string, boolean> {
  return Object.fromEntries(children(node, 'PRICE_FLAG').map((f) => [(f.attrs.type ?? '').trim(), readFlag(f.text)]));
}

/** BMEcat's own price types in any case (`NET_LIST` -> `net_list`); a `udp_` type as written. */
function priceTypeOf(written: string): string {
  const t = written.trim();
  const lower = t.toLowerCase();
  if (/^(net_list|gros_list|net_customer|nrp|net_customer_exp|on_request|udp_onrequest)$/.test(lower)) return lower;
  return /^udp_/i.test(t) ? `udp_${t.slice(4)}` : t;
}

/**
 * Whether a file's whole price list is one price on request without amount and nothing more:
 * what the BMEcat exports write for a product without price (2005: on_request, 1.2:
 * udp_onrequest 0). Read as no list, as the product has no price: the service says "price on
 * request" by having none, and writes it back the same way.
 */
function isOnlyOnRequest(prices: readonly UpsertPrice[]): boolean {
  if (prices.length !== 1) return false;
  const p = prices[0]!;
  return (
    p.type === 'on_request' &&
    blank(p.amount) &&
    blank(p.tax) &&
    blank(p.factor) &&
    blank(p.lowerBound) &&
    (p.territory ?? []).every((t) => t.trim() === '') &&
    blank(p.validFrom) &&
    blank(p.validTo) &&
    !p.daily &&
    !p.base &&
    !p.flags &&
    !p.formula
  );
}

const blank = (v: string | null | undefined) => v === undefined || v === null || v.trim() === '';

/**
 * Whether a file's whole price list is what the BMEcat exports (2005, 1.2) write for a product
 * that has only its `price` (dialect-2005.ts, dialect-12.ts): one `net_list` price with an
 * amount, in the catalog's currency or none, and no tax, factor, tier, territory, validity or
 * daily flag. Read as that `price` alone, with no list: export and import then round-trip a
 * one-price product as one price, not as a one-row list it did not have (docs/import.md
 * "Prices"). A list that says anything more than `price` does is kept as a list. The ETIM
 * profile's dated block counts when its date is the one our export wrote (PriceReading).
 */
function isPlainPrice(prices: readonly UpsertPrice[], catalogCurrency: string): boolean {
  if (prices.length !== 1) return false;
  const p = prices[0]!;
  return (
    p.type === 'net_list' &&
    !blank(p.amount) &&
    !isNegative(p.amount!.trim()) &&
    (blank(p.currency) || p.currency!.trim().toUpperCase() === catalogCurrency.toUpperCase()) &&
    blank(p.tax) &&
    blank(p.factor) &&
    blank(p.lowerBound) &&
    (p.territory ?? []).every((t) => t.trim() === '') &&
    blank(p.validFrom) &&
    blank(p.validTo) &&
    !p.daily &&
    !p.base &&
    !p.flags
  );
}

/**
 * A warning for each price whose own PRICE_BASE (2005's position) differs from its block's (the
 * ETIM guideline's): the price keeps its own and the block's does not apply to it. Every other
 * PRICE_BASE is read into the price list (priceListOf); a part of it that does not check is
 * warned by the upsert field by field (resolve-price-base.ts).
 */
export function priceBaseWarnings(product: XmlNode): FileWarning[] {
  const out: FileWarning[] = [];
  const key = (base: XmlNode) => JSON.stringify(baseOf(base));
  for (const block of children(product, 'PRODUCT_PRICE_DETAILS', 'ARTICLE_PRICE_DETAILS')) {
    const blockBase = child(block, 'PRICE_BASE');
    if (!blockBase) continue;
    for (const price of children(block, 'PRODUCT_PRICE', 'ARTICLE_PRICE')) {
      const own = child(price, 'PRICE_BASE');
      if (!own || key(own) === key(blockBase)) continue;
      out.push({
        code: 'price_base',
        message: `the price has its own PRICE_BASE: the one of its ${block.name} (line ${blockBase.line}) does not apply to it`,
        line: own.line,
        path: `${block.name}/${price.name}/PRICE_BASE`,
      });
    }
  }
  return out;
}
