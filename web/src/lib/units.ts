/**
 * Readable symbols for the UN/ECE Recommendation 20 unit codes the reference data and attributes
 * use ("VLT" is what the API stores, "V" is what a product manager reads). Unknown codes show as-is.
 */
const SYMBOLS: Record<string, string> = {
  VLT: 'V',
  AMP: 'A',
  MAM: 'mA',
  WTT: 'W',
  KWT: 'kW',
  CEL: '°C',
  KEL: 'K',
  MTR: 'm',
  MMT: 'mm',
  CMT: 'cm',
  MMK: 'mm²',
  KGM: 'kg',
  GRM: 'g',
  HTZ: 'Hz',
  LUM: 'lm',
  P1: '%',
  C62: 'Stk.',
};

export function unitLabel(code: string | null | undefined): string {
  if (!code) return '';
  return SYMBOLS[code] ?? code;
}
