import { LANGUAGES_2005 } from '../../exports/bmecat/code-lists';

/**
 * The content model of BMEcat 2005's FORMULA (schemas/bmecat/xsd/bmecat_2005.xsd), element by
 * element, as the import checks a file's FORMULAS before keeping them: what the export writes
 * back is then valid against the same XSD. Copied from the XSD's sequences, facets and
 * enumerations; a part the XSD leaves open (xsd:string) is open here too.
 */

/** A child in a sequence: its name (or a choice of names) and how often it may occur. */
export interface Particle {
  names: readonly string[];
  min: 0 | 1;
  max: 1 | typeof Infinity;
}

/** An attribute: required or not, and what its value may be. */
interface AttributeRule {
  required?: boolean;
  check: (value: string) => boolean;
}

export type ElementRule =
  | { kind: 'text'; max: number; check?: (value: string) => boolean; attrs?: Record<string, AttributeRule> }
  | { kind: 'sequence'; particles: readonly Particle[]; attrs?: Record<string, AttributeRule> };

const one = (...names: string[]): Particle => ({ names, min: 1, max: 1 });
const optional = (...names: string[]): Particle => ({ names, min: 0, max: 1 });
const many = (name: string): Particle => ({ names: [name], min: 1, max: Infinity });
const any = (name: string): Particle => ({ names: [name], min: 0, max: Infinity });

/** dtLANG: the ISO 639-2 codes of the XSD's enumeration. */
const LANG: Record<string, AttributeRule> = { lang: { check: (v) => LANGUAGES_2005.has(v) } };
const enumOf = (...values: string[]) => {
  const set = new Set(values);
  return (value: string) => set.has(value);
};

const text = (max: number, check?: (value: string) => boolean): ElementRule => ({ kind: 'text', max, check });
/** dtMLSTRING with a length facet: a text with an optional `lang`. */
const ml = (max: number, attrs: Record<string, AttributeRule> = LANG): ElementRule => ({ kind: 'text', max, attrs });
const sequence = (particles: Particle[], attrs?: Record<string, AttributeRule>): ElementRule => ({
  kind: 'sequence',
  particles,
  attrs,
});

const INTEGER = (v: string) => /^[+-]?\d+$/.test(v);
/** dtDATETIME's pattern. */
const DATETIME = (v: string) =>
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3])(:[0-5][0-9])(:[0-5][0-9](\.[0-9]+)?)?(([+-]([01][0-9]|2[0-3])(:[0-5][0-9]))|Z)?)?)?)?$/.test(
    v,
  );
/** XSD's `\w` (no punctuation, separators or controls), `-` and `.`: typeCLASSIFICATION_SYSTEM_NAME. */
const SYSTEM_NAME = (v: string) => /^[\p{L}\p{N}\p{M}\p{S}.-]+$/u.test(v);
/** MIME_TYPE's pattern: its named types, or XSD `\w` characters, `-` and `.` (so `image/png` is not one). */
const MIME_TYPE = (v: string) =>
  enumOf('application/pdf', 'application/xml', 'image/gif', 'image/jpeg', 'text/html', 'text/plain')(v) ||
  /^[\p{L}\p{N}\p{M}\p{S}.-]+$/u.test(v);
/** typePARTY_ID's `type`: its named values or XSD `\w` characters. */
const PARTY_TYPE = (v: string) =>
  enumOf('buyer_specific', 'customer_specific', 'party_specific', 'supplier_specific')(v) ||
  /^[\p{L}\p{N}\p{M}\p{S}]+$/u.test(v);

export const FORMULA_GRAMMAR: Record<string, ElementRule> = {
  FORMULA: sequence([
    one('FORMULA_ID'),
    optional('FORMULA_VERSION'),
    any('FORMULA_NAME'),
    any('FORMULA_DESCR'),
    optional('FORMULA_SOURCE'),
    optional('MIME_INFO'),
    optional('FORMULA_FUNCTION'),
    one('PARAMETER_DEFINITIONS'),
  ]),
  FORMULA_ID: text(60),
  FORMULA_VERSION: sequence([
    one('VERSION'),
    optional('VERSION_DATE'),
    optional('REVISION'),
    optional('REVISION_DATE'),
    optional('ORIGINAL_DATE'),
  ]),
  VERSION: text(20),
  VERSION_DATE: text(40, DATETIME),
  REVISION: text(20),
  REVISION_DATE: text(40, DATETIME),
  ORIGINAL_DATE: text(40, DATETIME),
  FORMULA_NAME: ml(100),
  FORMULA_DESCR: ml(250),
  FORMULA_SOURCE: sequence([any('SOURCE_NAME'), optional('SOURCE_URI'), optional('PARTY_IDREF')]),
  SOURCE_NAME: ml(80),
  SOURCE_URI: text(255),
  PARTY_IDREF: { kind: 'text', max: 250, attrs: { type: { check: PARTY_TYPE } } },
  MIME_INFO: sequence([many('MIME')]),
  MIME: sequence([
    optional('MIME_TYPE'),
    many('MIME_SOURCE'),
    any('MIME_DESCR'),
    any('MIME_ALT'),
    optional('MIME_PURPOSE'),
    optional('MIME_ORDER'),
  ]),
  MIME_TYPE: text(30, MIME_TYPE),
  MIME_SOURCE: ml(255),
  MIME_DESCR: ml(250),
  MIME_ALT: ml(80),
  MIME_PURPOSE: text(
    20,
    enumOf('data_sheet', 'detail', 'icon', 'logo', 'normal', 'safety_data_sheet', 'thumbnail', 'others'),
  ),
  MIME_ORDER: text(20, INTEGER),
  FORMULA_FUNCTION: sequence([many('TERM')]),
  TERM: sequence([one('TERM_ID'), optional('TERM_CONDITION'), one('TERM_EXPRESSION')], {
    type: { check: enumOf('function', 'constraint') },
  }),
  TERM_ID: text(20),
  TERM_CONDITION: text(3000),
  TERM_EXPRESSION: text(3000),
  PARAMETER_DEFINITIONS: sequence([many('PARAMETER_DEFINITION')]),
  PARAMETER_DEFINITION: sequence([
    one('PARAMETER_SYMBOL'),
    one('PARAMETER_BASICS', 'FREF'),
    optional('PARAMETER_ORIGIN'),
    optional('PARAMETER_DEFAULT_VALUE'),
    optional('PARAMETER_MEANING'),
    optional('PARAMETER_ORDER'),
  ]),
  PARAMETER_SYMBOL: text(60),
  PARAMETER_BASICS: sequence([many('PARAMETER_NAME'), any('PARAMETER_DESCR'), any('PARAMETER_UNIT')]),
  PARAMETER_NAME: ml(100),
  PARAMETER_DESCR: ml(250),
  PARAMETER_UNIT: ml(60),
  FREF: sequence([one('REFERENCE_FEATURE_SYSTEM_NAME'), one('FT_IDREF')]),
  REFERENCE_FEATURE_SYSTEM_NAME: text(80, SYSTEM_NAME),
  FT_IDREF: text(60),
  PARAMETER_ORIGIN: ml(6000, {
    ...LANG,
    type: { required: true, check: enumOf('config', 'formula', 'uri', 'xpath') },
  }),
  PARAMETER_DEFAULT_VALUE: text(250),
  PARAMETER_MEANING: text(20, enumOf('allow_or_charge', 'tax')),
  PARAMETER_ORDER: text(20, INTEGER),
};
