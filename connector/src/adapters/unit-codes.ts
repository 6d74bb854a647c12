/**
 * Units the PIM may map onto in a shop that has no units of its own (Vendure, Medusa): common
 * UN/ECE Recommendation 20 codes, each its own id. The PIM refuses (quarantines) a product
 * whose unit has no mapping in GET /mappings, so such a shop still offers these.
 */
export const UNIT_CODES = [
  'C62',
  'H87',
  'PCE',
  'PR',
  'SET',
  'MTR',
  'MTK',
  'MTQ',
  'CMT',
  'MMT',
  'KMT',
  'KGM',
  'GRM',
  'TNE',
  'LTR',
  'MLT',
  'RO',
  'PK',
  'BX',
  'CT',
  'DZN',
  'HUR',
  'KWH',
] as const;

/** The units of GET /mappings for a shop without units: every code above, the code as its id. */
export function codeUnits(): { id: string; code: string }[] {
  return UNIT_CODES.map((code) => ({ id: code, code }));
}
