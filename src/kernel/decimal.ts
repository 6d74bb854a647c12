/**
 * The decimal rule of amounts (prices, tax rates, factors, tiers, bases) and the one place they
 * are rounded (docs/data-model.md "Prices", "Amounts"). It imports nothing: the web app bundles
 * it through code-rules.ts and the sync wire protocol (src/sync/protocol/wire.ts), which the
 * connector shares, checks amounts with it.
 *
 * An amount is kept **exactly as written**: text end to end (D1 `text`, JSON strings), never a
 * float. The rule takes what xsd:decimal (BMEcat's dtNUMBER) takes, non-negative, with at most
 * 12 digits before the separator and MAX_DECIMALS after it. MAX_DECIMALS is 20, not 6: storage
 * is text, so precision costs nothing, and 20 keeps every amount a tool prints from a double
 * (`11.899999999999999`, 17 significant digits) as written instead of losing the whole price.
 * Rounding happens only where a target has fewer places (ETIM xChange 4, a shop's currency),
 * through `roundDecimal`, and is reported there.
 */

/** Most digits after the separator an amount may have. */
export const MAX_DECIMALS = 20;

/**
 * A non-negative decimal: at most 12 digits before and 20 after the separator, which may be a
 * dot or a comma ("12,50" is how German price lists write it). xsd:decimal's other spellings
 * are taken too: a leading `+`, no digit before the separator (`.5`) or none after it (`12.`).
 */
export const DECIMAL = /^\+?(?:\d{1,12}(?:[.,]\d{0,20})?|[.,]\d{1,20})$/;
export const DECIMAL_RULE =
  'a non-negative amount with at most 12 digits before and 20 after the separator, such as 12.50 or 12,50';

/** A decimal in its stored form (normaliseDecimal): a dot, no sign, digits on both sides. */
export const STORED_DECIMAL = /^\d{1,12}(?:\.\d{1,20})?$/;

/**
 * A price's amount (issue 32): DECIMAL or a negative one (`-5.00`, a credit or deposit refund, as
 * suppliers' files write them; BMEcat's dtNUMBER is xsd:decimal, signed, in every pinned XSD).
 * Only a price list's amount takes a sign; `price`, tax, factor, tier and base stay non-negative.
 */
export const SIGNED_DECIMAL = /^[+-]?(?:\d{1,12}(?:[.,]\d{0,20})?|[.,]\d{1,20})$/;

/** Whether a stored amount is below zero (a credit); `-0` is not. */
export const isNegative = (text: string): boolean => text.startsWith('-') && /[1-9]/.test(text);

/**
 * The stored form of a text that matched DECIMAL: the separator a dot, `+` dropped, `.5` as
 * `0.5` and `12.` as `12`. Digits are never added or removed, so an amount written as `12.50`
 * stays `12.50` (its fingerprint with it) and `21.15701` stays `21.15701`.
 */
export function normaliseDecimal(text: string): string {
  const t = text.replace(',', '.').replace(/^\+/, '');
  const sign = t.startsWith('-') ? '-' : '';
  const digits = sign ? t.slice(1) : t;
  return `${sign}${digits.startsWith('.') ? `0${digits}` : digits}`.replace(/\.$/, '');
}

/**
 * `text` (a stored decimal: digits, at most one dot) rounded half up to `places` decimals, as
 * text and without floats: `roundDecimal('21.15705', 4)` is `21.1571`, `roundDecimal('1.005', 2)`
 * is `1.01` (a float gives 1.00). A value with no more than `places` decimals is returned as it
 * is (`12.5` stays `12.5`); trailing zeros of a rounded value are kept to `places`.
 */
export function roundDecimal(text: string, places: number): string {
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length <= places) return text;
  const digits = `${whole}${fraction.slice(0, places)}`;
  const up = fraction.charCodeAt(places) >= 53; // '5'
  let rounded = up ? increment(digits) : digits;
  // The integer part grew by one digit when the increment carried past it (9.999 -> 10.00).
  const wholeLength = rounded.length - places;
  const intPart = rounded.slice(0, wholeLength).replace(/^0+(?=\d)/, '');
  rounded = places > 0 ? `${intPart}.${rounded.slice(wholeLength)}` : intPart;
  return rounded;
}

/** A string of digits plus one, as digits (`'0999'` -> `'1000'`, `'99'` -> `'100'`). */
function increment(digits: string): string {
  const out = [...digits];
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}

/** How many decimals a stored decimal has (`12.50` -> 2, `12` -> 0). */
export const decimalPlaces = (text: string): number => text.split('.')[1]?.length ?? 0;

/**
 * The decimals of a currency's minor unit (ISO 4217 through Intl: EUR 2, JPY 0, BHD 3), 2 for
 * a code Intl does not know: the places a shop that keeps money in its currency's units has.
 */
export function currencyPlaces(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A scaled integer (`2162`, 2 places) as a stored decimal (`21.62`). */
function fromScaled(value: bigint, places: number): string {
  const digits = value.toString().padStart(places + 1, '0');
  return places > 0 ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
}

const scaledOf = (text: string, places: number) =>
  BigInt(`${text.replace('.', '')}${'0'.repeat(places - decimalPlaces(text))}`);

/**
 * `a + b` (or `a - b` with `sign` -1) of two stored decimals, exactly, with the larger number of
 * decimals of the two (`14.5 - 0.6` is `13.9`); null when the result would be negative.
 */
export function addDecimal(a: string, b: string, sign: 1 | -1 = 1): string | null {
  const places = Math.max(decimalPlaces(a), decimalPlaces(b));
  const sum = scaledOf(a, places) + BigInt(sign) * scaledOf(b, places);
  return sum < 0n ? null : fromScaled(sum, places);
}

/**
 * `a` raised (`sign` 1) or lowered (-1) by `percent` %, exactly (`23` less 6 % is `21.62`), with
 * trailing zeros beyond `a`'s own decimals dropped; null when the result would be negative.
 */
export function percentChange(a: string, percent: string, sign: 1 | -1): string | null {
  const pp = decimalPlaces(percent);
  const factor = 100n * 10n ** BigInt(pp) + BigInt(sign) * BigInt(percent.replace('.', ''));
  if (factor < 0n) return null;
  const places = decimalPlaces(a) + pp + 2;
  const out = fromScaled(BigInt(a.replace('.', '')) * factor, places);
  const keep = decimalPlaces(a);
  const trimmed = out.replace(new RegExp(`(\\.\\d{${keep}}\\d*?)0+$`), '$1');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) : trimmed;
}
