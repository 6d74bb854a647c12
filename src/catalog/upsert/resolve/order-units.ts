/**
 * Order units as suppliers write them, mapped to UN/ECE Recommendation 20 codes (what the
 * `unit` field stores and BMEcat's ORDER_UNIT means). Keys are compared without case, spaces
 * or a trailing dot. A value that is neither a code (two or three capitals or digits) nor in
 * this table is kept as written (`keptUnit`) with a warning (docs/import.md, "Field problems").
 */
const ALIASES: Record<string, string> = {
  // piece
  stück: 'C62',
  stueck: 'C62',
  stuck: 'C62',
  stck: 'C62',
  stk: 'C62',
  st: 'C62',
  pce: 'C62',
  pcs: 'C62',
  pc: 'C62',
  piece: 'C62',
  pieces: 'C62',
  stuk: 'C62',
  ea: 'EA',
  each: 'EA',
  // packages
  box: 'BX',
  karton: 'CT',
  carton: 'CT',
  packung: 'PK',
  pack: 'PK',
  pkg: 'PK',
  paket: 'PK',
  beutel: 'BG',
  bag: 'BG',
  paar: 'PR',
  pair: 'PR',
  satz: 'SET',
  set: 'SET',
  // lengths, areas, volumes
  meter: 'MTR',
  metre: 'MTR',
  m: 'MTR',
  mtr: 'MTR',
  lfm: 'MTR',
  km: 'KMT',
  cm: 'CMT',
  mm: 'MMT',
  m2: 'MTK',
  'm²': 'MTK',
  qm: 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  cbm: 'MTQ',
  l: 'LTR',
  liter: 'LTR',
  litre: 'LTR',
  ltr: 'LTR',
  ml: 'MLT',
  // weights, time
  kg: 'KGM',
  kilogramm: 'KGM',
  g: 'GRM',
  gramm: 'GRM',
  t: 'TNE',
  tonne: 'TNE',
  h: 'HUR',
  std: 'HUR',
  stunde: 'HUR',
  hour: 'HUR',
};

const CODE = /^[A-Z0-9]{2,3}$/;

/**
 * The Rec. 20 code for an order unit as written: `code` when it is one (or a known alias),
 * with `alias` set when the file's text was mapped; null when it is neither.
 */
export function orderUnit(raw: string): { code: string; alias: boolean } | null {
  const key = raw.trim().replace(/\.$/, '').replace(/\s+/g, '').toLowerCase();
  const mapped = ALIASES[key];
  if (mapped) return { code: mapped, alias: mapped !== raw };
  return CODE.test(raw) ? { code: raw, alias: false } : null;
}

/** The longest order unit kept as written (a supplier's "Rolle à 50 m" fits; longer text is cut). */
export const KEPT_UNIT_MAX = 20;

/**
 * An order unit that is neither a Rec. 20 code nor an alias, as the `unit` field keeps it: the
 * file's text trimmed, inner white space single, cut to KEPT_UNIT_MAX characters. The exports
 * write ORDER_UNIT C62 for it with a warning (BMEcat's ORDER_UNIT takes only codes, so files
 * stay schema-valid); the sync sends it like any unit, so a shop without a mapping for it
 * quarantines the product with the reason (docs/import.md "Field problems").
 */
export function keptUnit(raw: string): string {
  return [...raw.trim().replace(/\s+/g, ' ')].slice(0, KEPT_UNIT_MAX).join('');
}
