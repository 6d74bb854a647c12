import type { XmlNode } from '../imports/read/xml-node';

/**
 * What a row of a release file turns into: rows of the release tables (without the release id,
 * which the writer adds). Every format (release-formats-*.ts) maps its files onto these.
 */
export type FeatureType = 'A' | 'N' | 'R' | 'L';
export type NameKind = 'C' | 'F' | 'V' | 'U' | 'K' | 'G';

export interface ParsedRows {
  units?: { code: string; unece: string | null; symbol: string | null }[];
  classes?: {
    code: string;
    parentCode: string | null;
    level: number | null;
    deprecated: boolean;
    successor: string | null;
    /** The class's group where the release has groups besides its classes (ETIM IXF `EG...`). */
    groupCode?: string | null;
    /** The class's own version number (ETIM IXF). */
    version?: number | null;
  }[];
  features?: {
    code: string;
    type: FeatureType | null;
    unitCode?: string | null;
    deprecated: boolean;
    successor: string | null;
  }[];
  values?: { code: string; deprecated: boolean; successor: string | null }[];
  names?: { kind: NameKind; code: string; lang: string; name: string }[];
  synonyms?: { classCode: string; lang: string; synonym: string }[];
  classFeatures?: {
    classCode: string;
    featureCode: string;
    sort: number;
    type: FeatureType | null;
    unitCode: string | null;
    mandatory: boolean | null;
    ref: number | null;
  }[];
  classFeatureValues?: { classCode: string; featureCode: string; valueCode: string; sort: number }[];
}

/** The roles a file of a release plays, in the order they load (later roles reference earlier ones). */
export const ROLE_ORDER = [
  'featureSystem',
  'units',
  'classes',
  'features',
  'values',
  'keywords',
  'synonyms',
  'classFeatures',
  'classFeatureValues',
] as const;
export type Role = (typeof ROLE_ORDER)[number];

/** Codes already loaded into the release being written, for checking a row's references. */
export interface Known {
  /** G: a group (ETIM IXF), known by its names (`release_names` kind G). */
  has(kind: 'C' | 'F' | 'V' | 'U' | 'G', code: string): boolean;
  keyword(code: string): string | undefined;
  classFeature(ref: number): readonly [string, string] | undefined;
  /** The class code of a class IRDI (eCl@ss). */
  classOfIrdi(irdi: string): string | undefined;
}

export interface RowContext {
  /** The language of the file's names (a LANGUAGE column overrides it per row). */
  lang: string;
  known: Known;
  /** The row's number among the file's data rows (1-based): the order where a file has no order column. */
  row: number;
  /** The version the request names (9.0, DYNAMIC-2025-06): a file that states another one is refused. */
  version?: string;
}

/** A row the loader refuses: the reason, without file and line (the runner adds them). */
export class RowReject extends Error {}

export interface RoleSpec {
  role: Role;
  /** Columns that tell this file apart: all of them are in its header. */
  identify: readonly string[];
  /** A row's cells (CSV), or its element (BMEcat XML, where cells is empty). */
  parse(cells: Record<string, string>, ctx: RowContext, node?: XmlNode): ParsedRows;
}

export interface FormatSpec {
  /** The default language of the names when neither the request nor a column gives one. */
  defaultLanguage: string;
  roles: readonly RoleSpec[];
}

/**
 * The spec of an XML release format (BMEcat feature systems, ETIM IXF): one featureSystem role
 * whose rows are the reader's elements, each parsed by `parseNode`; a row without an element
 * (a CSV cell row reaching an XML format) is refused with `notAnElement`.
 */
export function xmlFormatSpec(
  notAnElement: string,
  parseNode: (node: XmlNode, ctx: RowContext) => ParsedRows,
): FormatSpec {
  return {
    defaultLanguage: 'en',
    roles: [
      {
        role: 'featureSystem',
        identify: [],
        parse: (_cells, ctx, node) => {
          if (!node) throw new RowReject(notAnElement);
          return parseNode(node, ctx);
        },
      },
    ],
  };
}

/** A cell that must not be empty. */
export function required(cells: Record<string, string>, column: string): string {
  const value = cells[column];
  if (value === undefined || value === '') throw new RowReject(`${column} is empty`);
  return value;
}

/** An optional cell: its value, or null when the column is missing or empty. */
export function optional(cells: Record<string, string>, column: string): string | null {
  const value = cells[column];
  return value === undefined || value === '' ? null : value;
}

/** A class's own version (ETIM IXF Version, ETIM CSV ARTCLASSVERSION): a whole number, null when not given. */
export function classVersionOf(given: string | null, column: string): number | null {
  if (given === null) return null;
  if (!/^\d{1,9}$/.test(given)) throw new RowReject(`${column} "${given}" is not a whole number`);
  return Number(given);
}

export function integerCell(cells: Record<string, string>, column: string, fallback?: number): number {
  const value = cells[column];
  if ((value === undefined || value === '') && fallback !== undefined) return fallback;
  if (value === undefined || !/^-?\d{1,9}$/.test(value))
    throw new RowReject(`${column} "${value ?? ''}" is not a whole number`);
  return Number(value);
}

const TRUE = new Set(['true', '1', 'yes', 'y', 'ja', 'wahr', 'x']);
const FALSE = new Set(['false', '0', 'no', 'n', 'nein', 'falsch', '']);

export function booleanCell(cells: Record<string, string>, column: string): boolean | null {
  const value = cells[column];
  if (value === undefined) return null;
  const lower = value.toLowerCase();
  if (TRUE.has(lower)) return true;
  if (FALSE.has(lower)) return false;
  throw new RowReject(`${column} "${value}" is not true or false`);
}

/** A code the row references that an earlier file of the release must have defined. */
export function mustKnow(known: Known, kind: 'C' | 'F' | 'V' | 'U' | 'G', code: string, what: string): string {
  if (!known.has(kind, code)) throw new RowReject(`${what} ${code} is not in the release's ${what} file`);
  return code;
}

/** Language tags as BCP 47 writes them: `de`, `de-DE`, `en-GB` (a release may say `DE` or `de_de`). */
/** ISO 639-2 codes (as BMEcat writes them) of the languages ETIM and eCl@ss publish, as ISO 639-1. */
const ISO_639_2: Record<string, string> = {
  deu: 'de',
  ger: 'de',
  eng: 'en',
  fra: 'fr',
  fre: 'fr',
  nld: 'nl',
  dut: 'nl',
  ita: 'it',
  spa: 'es',
  por: 'pt',
  pol: 'pl',
  ces: 'cs',
  cze: 'cs',
  dan: 'da',
  swe: 'sv',
  nor: 'no',
  fin: 'fi',
  hun: 'hu',
  rus: 'ru',
  zho: 'zh',
  chi: 'zh',
  jpn: 'ja',
  tur: 'tr',
  ell: 'el',
  gre: 'el',
  ron: 'ro',
  rum: 'ro',
  slk: 'sk',
  slo: 'sk',
  slv: 'sl',
};

export function normalizeLanguage(tag: string): string {
  const [given, region] = tag.trim().replace('_', '-').split('-');
  const primary = given ? (ISO_639_2[given.toLowerCase()] ?? given) : given;
  if (!primary || !/^[a-zA-Z]{2,3}$/.test(primary) || (region !== undefined && !/^[a-zA-Z0-9]{2,3}$/.test(region)))
    throw new RowReject(`"${tag}" is not a language tag`);
  return region ? `${primary.toLowerCase()}-${region.toUpperCase()}` : primary.toLowerCase();
}

/** The language of one row: its LANGUAGE column where the file has one, else the file's. */
export function languageOf(cells: Record<string, string>, ctx: RowContext): string {
  const column = cells.LANGUAGE ?? cells.LANGUAGECODE ?? cells.Sprache;
  return column ? normalizeLanguage(column) : ctx.lang;
}

/** A name row, or none when the release leaves the name empty. */
export function nameRow(kind: NameKind, code: string, lang: string, name: string | null): ParsedRows['names'] {
  return name ? [{ kind, code, lang, name }] : [];
}
