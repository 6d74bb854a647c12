/**
 * Conversion factors of the units classification releases use (ETIM, eCl@ss, proficl@ss), for
 * release upgrades where a feature keeps its quantity but changes its unit (mm -> cm). Each unit
 * is known by its UN/ECE Recommendation 20 code and its usual symbols; `factor` converts a value
 * to the quantity's base unit. Units of different quantities never convert.
 */
type Quantity = 'length' | 'mass' | 'time' | 'power' | 'voltage' | 'current' | 'area' | 'volume';

const UNITS: [Quantity, number, string[]][] = [
  ['length', 1e-9, ['C45', 'nm']],
  ['length', 1e-6, ['4H', 'µm', 'μm', 'um']],
  ['length', 1e-3, ['MMT', 'mm']],
  ['length', 1e-2, ['CMT', 'cm']],
  ['length', 1e-1, ['DMT', 'dm']],
  ['length', 1, ['MTR', 'm']],
  ['length', 1e3, ['KMT', 'km']],
  ['length', 0.0254, ['INH', 'in', 'inch', '"']],
  ['length', 0.3048, ['FOT', 'ft']],
  ['mass', 1e-6, ['MGM', 'mg']],
  ['mass', 1e-3, ['GRM', 'g']],
  ['mass', 1, ['KGM', 'kg']],
  ['mass', 1e3, ['TNE', 't']],
  ['time', 1e-6, ['B98', 'µs', 'μs', 'us']],
  ['time', 1e-3, ['C26', 'ms']],
  ['time', 1, ['SEC', 's']],
  ['time', 60, ['MIN', 'min']],
  ['time', 3600, ['HUR', 'h']],
  ['time', 86400, ['DAY', 'd']],
  ['power', 1e-3, ['C31', 'mW']],
  ['power', 1, ['WTT', 'W']],
  ['power', 1e3, ['KWT', 'kW']],
  ['power', 1e6, ['MAW', 'MW']],
  ['voltage', 1e-6, ['D82', 'µV', 'μV']],
  ['voltage', 1e-3, ['2Z', 'mV']],
  ['voltage', 1, ['VLT', 'V']],
  ['voltage', 1e3, ['KVT', 'kV']],
  ['current', 1e-6, ['B84', 'µA', 'μA']],
  ['current', 1e-3, ['4K', 'mA']],
  ['current', 1, ['AMP', 'A']],
  ['current', 1e3, ['B22', 'kA']],
  ['area', 1e-6, ['MMK', 'mm²', 'mm2']],
  ['area', 1e-4, ['CMK', 'cm²', 'cm2']],
  ['area', 1e-2, ['DMK', 'dm²', 'dm2']],
  ['area', 1, ['MTK', 'm²', 'm2']],
  ['volume', 1e-9, ['MMQ', 'mm³', 'mm3']],
  ['volume', 1e-6, ['CMQ', 'cm³', 'cm3', 'MLT', 'ml', 'mL']],
  ['volume', 1e-3, ['DMQ', 'dm³', 'dm3', 'LTR', 'l', 'L']],
  ['volume', 1, ['MTQ', 'm³', 'm3']],
];

const BY_NAME = new Map(
  UNITS.flatMap(([quantity, factor, names]) => names.map((n) => [n, { quantity, factor }] as const)),
);

/** The quantity and factor of the first of `spellings` (UN/ECE code, symbol, ...) the table knows. */
function unitOf(spellings: readonly (string | null)[]) {
  for (const s of spellings) {
    const unit = s ? BY_NAME.get(s.trim()) : undefined;
    if (unit) return unit;
  }
  return undefined;
}

/**
 * The factor a value in unit `from` is multiplied by to be in unit `to` (each given by its
 * spellings), or null when either is unknown or they measure different quantities.
 */
export function conversionFactor(from: readonly (string | null)[], to: readonly (string | null)[]): number | null {
  const a = unitOf(from);
  const b = unitOf(to);
  if (!a || !b || a.quantity !== b.quantity) return null;
  return a.factor / b.factor;
}

/**
 * Converts a stored numeric value ("12.5", a range "-5..40") by `factor`, rounded to 12
 * significant digits so 12.5 mm is 1.25 cm and not 1.2500000000000002; null when a part is no number.
 */
export function convertValue(value: string, factor: number): string | null {
  const parts = value.split('..');
  const out: string[] = [];
  for (const part of parts) {
    const n = Number(part.trim());
    if (part.trim() === '' || !Number.isFinite(n)) return null;
    out.push(String(Number((n * factor).toPrecision(12))));
  }
  return out.join('..');
}
