/**
 * Conversion factors of the units classification releases use (ETIM, eCl@ss, proficl@ss), for
 * release upgrades where a feature keeps its quantity but changes its unit (mm -> cm). Each unit
 * is known by its UN/ECE Recommendation 20 code and its usual symbols; `factor` (and `offset`,
 * for temperatures) converts a value to the quantity's base unit: base = value x factor + offset.
 * Units of different quantities never convert. Covered: length, mass, time, power, voltage,
 * current, area, volume, temperature, pressure, frequency, energy, speed, illuminance and
 * luminous flux (lumen only: Rec. 20 has no kilolumen).
 */
type Quantity =
  | 'length'
  | 'mass'
  | 'time'
  | 'power'
  | 'voltage'
  | 'current'
  | 'area'
  | 'volume'
  | 'temperature'
  | 'pressure'
  | 'frequency'
  | 'energy'
  | 'speed'
  | 'illuminance'
  | 'luminousFlux';

/** Temperatures have a zero of their own: the offset to kelvin (the base) besides the factor. */
const OFFSETS: Record<string, number> = { CEL: 273.15, FAH: 273.15 - (32 * 5) / 9 };

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
  ['temperature', 1, ['KEL', 'K']],
  ['temperature', 1, ['CEL', '°C', '℃', 'degC']],
  ['temperature', 5 / 9, ['FAH', '°F', '℉', 'degF']],
  // Pressure, base pascal; psi is pound-force per square inch (6,894.757293168 Pa).
  ['pressure', 1, ['PAL', 'Pa']],
  ['pressure', 1e2, ['A97', 'hPa', 'MBR', 'mbar']],
  ['pressure', 1e3, ['KPA', 'kPa']],
  ['pressure', 1e5, ['BAR', 'bar']],
  ['pressure', 1e6, ['MPA', 'MPa', 'C56', 'N/mm²', 'N/mm2']],
  ['pressure', 6894.757293168, ['PS', 'psi', 'lbf/in²']],
  ['frequency', 1, ['HTZ', 'Hz']],
  ['frequency', 1e3, ['KHZ', 'kHz']],
  ['frequency', 1e6, ['MHZ', 'MHz']],
  ['frequency', 1e9, ['A86', 'GHz']],
  // Energy, base joule; a watt hour is 3,600 J.
  ['energy', 1, ['JOU', 'J']],
  ['energy', 1e3, ['KJO', 'kJ']],
  ['energy', 3600, ['WHR', 'Wh']],
  ['energy', 3.6e6, ['KWH', 'kWh']],
  ['energy', 3.6e9, ['MWH', 'MWh']],
  ['speed', 1e-3, ['C16', 'mm/s']],
  ['speed', 1, ['MTS', 'm/s']],
  ['speed', 1 / 3.6, ['KMH', 'km/h']],
  ['illuminance', 1, ['LUX', 'lx']],
  ['illuminance', 1e3, ['KLX', 'klx']],
  ['luminousFlux', 1, ['LUM', 'lm']],
];

const BY_NAME = new Map(
  UNITS.flatMap(([quantity, factor, names]) =>
    names.map((n) => [n, { quantity, factor, offset: OFFSETS[names[0]!] ?? 0 }] as const),
  ),
);

/** The quantity and factor of the first of `spellings` (UN/ECE code, symbol, ...) the table knows. */
function unitOf(spellings: readonly (string | null)[]) {
  for (const s of spellings) {
    const unit = s ? BY_NAME.get(s.trim()) : undefined;
    if (unit) return unit;
  }
  return undefined;
}

/** A conversion between two units of one quantity: target = value x factor + offset. */
export interface UnitConversion {
  factor: number;
  offset: number;
}

const round12 = (n: number) => Number(n.toPrecision(12));

/**
 * How a value in unit `from` becomes a value in unit `to` (each given by its spellings): a
 * factor, and an offset between temperature scales (°C -> °F: x 1.8 + 32); null when either is
 * unknown or they measure different quantities.
 */
export function unitConversion(
  from: readonly (string | null)[],
  to: readonly (string | null)[],
): UnitConversion | null {
  const a = unitOf(from);
  const b = unitOf(to);
  if (!a || !b || a.quantity !== b.quantity) return null;
  return { factor: round12(a.factor / b.factor), offset: round12((a.offset - b.offset) / b.factor) };
}

/**
 * The factor a value in unit `from` is multiplied by to be in unit `to`, or null when either is
 * unknown, they measure different quantities, or the conversion needs an offset (temperatures:
 * use unitConversion).
 */
export function conversionFactor(from: readonly (string | null)[], to: readonly (string | null)[]): number | null {
  const c = unitConversion(from, to);
  return c && c.offset === 0 ? c.factor : null;
}

/** The report line of a conversion: "x 0.1", "x 1.8 + 32", "x 1 - 273.15". */
export function describeConversion(c: UnitConversion): string {
  if (c.offset === 0) return `x ${c.factor}`;
  return `x ${c.factor} ${c.offset < 0 ? '-' : '+'} ${Math.abs(c.offset)}`;
}

/**
 * Converts a stored numeric value ("12.5", a range "-5..40") by `factor` (and `offset`, for
 * temperatures), rounded to 12 significant digits so 12.5 mm is 1.25 cm and not
 * 1.2500000000000002; null when a part is no number.
 */
export function convertValue(value: string, factor: number, offset = 0): string | null {
  const parts = value.split('..');
  const out: string[] = [];
  for (const part of parts) {
    const n = Number(part.trim());
    if (part.trim() === '' || !Number.isFinite(n)) return null;
    out.push(String(round12(n * factor + offset)));
  }
  return out.join('..');
}
