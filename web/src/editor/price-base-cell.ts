/** A price's base as the API reads and writes it (PRICE_BASE: the amount is for value x unit). */
export interface PriceBaseValue {
  value: string | null;
  unit: string;
  factor: string | null;
}

/** The prices table's compact "per" cell: "100 MTR", "MTR" for a unit alone, '' for per order unit. */
export function baseCell(base: PriceBaseValue | null | undefined): string {
  return base ? `${base.value ? `${base.value} ` : ''}${base.unit}` : '';
}

/**
 * The "per" cell as a base: "100 MTR" (value and unit) or "MTR" (unit alone); empty is per
 * order unit (null). The factor is not edited in the table: `factor` (the price's former one) is
 * kept. A cell of another shape ("100 laufende Meter") is sent as it is, so the server's rule
 * names what is wrong (base.unit) instead of the table guessing.
 */
export function baseOfCell(cell: string, factor: string | null): PriceBaseValue | null {
  const parts = cell
    .trim()
    .split(/\s+/)
    .filter((p) => p !== '');
  if (parts.length === 0) return null;
  const [value, unit] = parts.length === 2 ? [parts[0]!, parts[1]!] : [null, parts.join(' ')];
  return { value, unit: unit.toUpperCase(), factor };
}
