import { z } from 'zod';

/**
 * BMEcat 2005's PRICE_FORMULA, in place of a price's PRICE_AMOUNT (issue 32): the formula's id
 * (FORMULA_IDREF, defined in the file's FORMULAS, which the service does not keep) and its
 * parameters (PARAMETERS/PARAMETER: PARAMETER_SYMBOLREF, PARAMETER_VALUE), as written. That is the
 * whole element, so it is kept as data, not as XML text: the export writes it back element by
 * element (escaped), and no client can put markup into a file through it. Stored as JSON text in
 * `product_prices.formula` (migration 0086); such a price has no amount and is never `price`.
 */
export const PriceFormulaDto = z.strictObject({
  id: z.string().trim().min(1).max(60),
  parameters: z
    .array(z.strictObject({ symbol: z.string().trim().min(1).max(60), value: z.string().trim().min(1).max(250) }))
    .max(50)
    .optional(),
});

export type PriceFormula = z.output<typeof PriceFormulaDto>;

export const storedFormula = (formula: PriceFormula | null | undefined): string | null =>
  formula ? JSON.stringify(formula) : null;

export const formulaOut = (text: string | null | undefined): PriceFormula | null =>
  text ? (JSON.parse(text) as PriceFormula) : null;

/** A formula in a CSV `prices` cell: `formula=F1;formulaParameters=m:3,n:4`, each part URI-encoded. */
export function formulaCell(formula: PriceFormula | undefined): string[] {
  if (!formula) return [];
  const e = encodeURIComponent;
  const parameters = (formula.parameters ?? []).map((p) => `${e(p.symbol)}:${e(p.value)}`).join(',');
  return [`formula=${e(formula.id)}`, ...(parameters ? [`formulaParameters=${parameters}`] : [])];
}

/** The reverse of formulaCell; a part that does not decode is kept as written for the upsert to check. */
export function formulaOfCell(id: string | undefined, parameters: string | undefined): { formula?: PriceFormula } {
  if (id === undefined) return {};
  const d = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const list = (parameters ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part) => {
      const [symbol = '', value = ''] = part.split(':');
      return { symbol: d(symbol), value: d(value) };
    });
  return { formula: { id: d(id), ...(list.length > 0 ? { parameters: list } : {}) } };
}
