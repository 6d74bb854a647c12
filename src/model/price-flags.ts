import { z } from 'zod';

/**
 * BMEcat's PRICE_FLAG of a price (docs/data-model.md "Prices", issue 32): whether the amount
 * includes freight, packing, insurance or duty, `{"incl_freight": true, "incl_packing": false}`
 * in the file's order. BMEcat 2005 puts the flags in each PRODUCT_PRICE and takes the listed
 * types and any other of up to 20 letters and digits; BMEcat 1.2 puts them in
 * ARTICLE_PRICE_DETAILS (for every price of the block) and takes only the four of
 * STANDARD_FLAGS_12; the ETIM guideline and ETIM xChange have none (their exports report them).
 * Stored as the JSON text of the object in `product_prices.flags` (migration 0086), NULL for a
 * price without flags (nearly every price), which therefore keeps its history entry, sync record
 * and fingerprint.
 */

/** A flag type: 2005's own spellings or its `\w{1,20}`; the underscore is taken for `incl_*`. */
const FLAG_TYPE = /^[\p{L}\p{N}_]{1,20}$/u;

/** The types BMEcat 1.2's PRICE_FLAG enumerates (2005 adds `incl_insurance`). */
export const STANDARD_FLAGS_12: ReadonlySet<string> = new Set([
  'incl_freight',
  'incl_duty',
  'incl_packing',
  'incl_assurance',
]);

/** The flag types BMEcat 2005's pattern takes: its listed ones, or letters and digits alone. */
export const isFlagType2005 = (type: string): boolean =>
  STANDARD_FLAGS_12.has(type) || type === 'incl_insurance' || /^[\p{L}\p{N}]{1,20}$/u.test(type);

export type PriceFlags = Record<string, boolean>;

/** The flags as REST, MCP and CSV write them: at most 10, each type as above. */
export const PriceFlagsDto = z
  .record(
    z.string().regex(FLAG_TYPE, 'flags: a type is letters, digits or _ (at most 20), such as incl_freight'),
    z.boolean(),
  )
  .refine((f) => Object.keys(f).length <= 10, 'flags: at most 10 flags');

/** The stored text of a price's flags: null when it has none. */
export const storedFlags = (flags: PriceFlags | null | undefined): string | null =>
  flags && Object.keys(flags).length > 0 ? JSON.stringify(flags) : null;

/** The flags of a stored row, or null when it has none. */
export function flagsOut(text: string | null | undefined): PriceFlags | null {
  if (!text) return null;
  return JSON.parse(text) as PriceFlags;
}

/** The flags in a CSV cell's `flags` value: `incl_freight:1,incl_packing:0`. */
export const flagsCell = (flags: PriceFlags): string =>
  Object.entries(flags)
    .map(([type, on]) => `${type}:${on ? 1 : 0}`)
    .join(',');

/** The reverse of flagsCell; a part that is no `type:0|1` is kept as written for the upsert to refuse. */
export function flagsOfCell(cell: string): Record<string, unknown> {
  return Object.fromEntries(
    cell
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => {
        const [type = '', on = ''] = part.split(':').map((s) => s.trim());
        return [type, on === '1' ? true : on === '0' ? false : on];
      }),
  );
}

/** A flag's value as BMEcat writes it (dtBOOLEAN), and its reading (`true`, `1`; anything else false). */
export const flagValue = (on: boolean): string => (on ? 'true' : 'false');
export const readFlag = (text: string): boolean => /^(true|1)$/i.test(text.trim());
