/**
 * The syntax rules of coded values, each in one place: the REST schemas (catalog.schemas.ts,
 * exports/templates.ts), SetValue's field rules (fields.ts, value-types.ts) and the web app's
 * form checks (web/src/lib/validate.ts) import them. This module imports only decimal.ts, which
 * imports nothing, so the web app bundles it as it is.
 */

/** ISO 639-2 language code, e.g. deu, eng. */
export const LANGUAGE_CODE = /^[a-z]{3}$/;
/** ISO 4217 currency code, e.g. EUR. */
export const CURRENCY_CODE = /^[A-Z]{3}$/;
/** UN/ECE Recommendation 20 unit code, e.g. C62, MTR. */
export const UNIT_CODE = /^[A-Z0-9]{2,3}$/;

/** The decimal rule of amounts has its own module (the sync wire protocol shares it). */
export { DECIMAL, DECIMAL_RULE, normaliseDecimal } from './decimal';

/**
 * What is wrong with a stored decimal (normaliseDecimal) that must be above zero (a product's
 * content per order unit, minimum and interval: 0 would make the order impossible), or null.
 */
export const positiveAmount = (stored: string): string | null =>
  /[1-9]/.test(stored) ? null : 'must be greater than 0';

/** What is wrong with a GTIN (8, 12, 13 or 14 digits, GS1 check digit last), or null. */
export function gtinProblem(value: string): 'digits' | 'checkDigit' | null {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(value)) return 'digits';
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check ? null : 'checkDigit';
}
