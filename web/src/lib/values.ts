/**
 * Turning what a person types into the strings SetValue takes (docs/design.md section 4: values
 * travel as strings; the server parses and checks them), and back. The browser accepts German
 * habits ("12,5", "ja") so nobody has to know the wire format; the server stays the judge.
 */
import { DECIMAL, normaliseDecimal } from '../../../src/kernel/code-rules';

export type ValueKind = 'text' | 'number' | 'decimal' | 'integer' | 'boolean' | 'enum' | 'range';

type Parsed = { ok: true; value: string } | { ok: false; problem: ProblemCode };
type ProblemCode =
  | 'notNumber'
  | 'notWhole'
  | 'notAmount'
  | 'rangeOrder'
  | 'rangeIncomplete'
  | 'notBoolean'
  | 'notAllowed';

const NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)$/;

/** "1.234,5" (German grouping) and "1,234.5" both mean 1234.5; a lone comma is a decimal comma. */
export function normaliseNumber(text: string, unit?: string | null): string | null {
  let t = text.trim().replace(/\s+/g, ' ');
  if (unit && t.endsWith(unit) && t.length > unit.length) t = t.slice(0, -unit.length).trim();
  if (t.includes(',') && t.includes('.')) {
    t = t.lastIndexOf(',') > t.lastIndexOf('.') ? t.replace(/\./g, '').replace(',', '.') : t.replace(/,/g, '');
  } else {
    t = t.replace(',', '.');
  }
  if (!NUMBER.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? String(n) : null;
}

const YES = new Set(['true', '1', 'ja', 'yes', 'j', 'y', 'wahr']);
const NO = new Set(['false', '0', 'nein', 'no', 'n', 'falsch']);

export function parseInput(
  kind: ValueKind,
  raw: string,
  opts: { unit?: string | null; allowed?: readonly string[] } = {},
): Parsed {
  const text = raw.trim();
  // An empty input (or a range with both ends empty) clears the value: SetValue takes "" for that.
  if (kind !== 'text' && (text === '' || /^\.\.$/.test(text))) return { ok: true, value: '' };
  switch (kind) {
    case 'text':
      return { ok: true, value: raw };
    case 'number': {
      const n = normaliseNumber(text, opts.unit);
      return n === null ? { ok: false, problem: 'notNumber' } : { ok: true, value: n };
    }
    case 'integer': {
      const n = normaliseNumber(text, opts.unit);
      if (n === null) return { ok: false, problem: 'notNumber' };
      return Number.isInteger(Number(n)) ? { ok: true, value: n } : { ok: false, problem: 'notWhole' };
    }
    case 'decimal': {
      const t = text.replace(/\s*(€|EUR)$/i, '');
      return DECIMAL.test(t) ? { ok: true, value: normaliseDecimal(t) } : { ok: false, problem: 'notAmount' };
    }
    case 'boolean': {
      const t = text.toLowerCase();
      if (YES.has(t)) return { ok: true, value: 'true' };
      if (NO.has(t)) return { ok: true, value: 'false' };
      return { ok: false, problem: 'notBoolean' };
    }
    case 'enum':
      return !opts.allowed || opts.allowed.includes(text)
        ? { ok: true, value: text }
        : { ok: false, problem: 'notAllowed' };
    case 'range': {
      const parts = text.split(/\s*(?:\.\.|–|bis|to)\s*/);
      if (parts.length !== 2) return { ok: false, problem: 'rangeIncomplete' };
      return parseRange(parts[0]!, parts[1]!, opts.unit);
    }
  }
}

/** A range from its two inputs (the R form of ETIM, attributes of type range): "min..max". */
export function parseRange(minRaw: string, maxRaw: string, unit?: string | null): Parsed {
  if (!minRaw.trim() || !maxRaw.trim()) return { ok: false, problem: 'rangeIncomplete' };
  const min = normaliseNumber(minRaw, unit);
  const max = normaliseNumber(maxRaw, unit);
  if (min === null || max === null) return { ok: false, problem: 'notNumber' };
  if (Number(min) > Number(max)) return { ok: false, problem: 'rangeOrder' };
  return { ok: true, value: `${min}..${max}` };
}

/** Splits a stored range "10..20" into its two ends for the min/max inputs. */
export function splitRange(value: string | null | undefined): [string, string] {
  if (!value) return ['', ''];
  const [min = '', max = ''] = value.split('..');
  return [min, max];
}

/** A stored number in the user's locale ("12.5" -> "12,5" in German). */
export function displayNumber(value: string | null | undefined, lang: 'de' | 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  return lang === 'de' ? value.replace('.', ',') : value;
}

/** Maps the kind of an attribute (GetAttributes) to the way its input is parsed. */
export function attributeKind(type: string): ValueKind {
  return (['text', 'number', 'boolean', 'enum', 'range'] as const).find((k) => k === type) ?? 'text';
}

/** Maps an ETIM/eCl@ss feature type (A alphanumeric, N numeric, R range, L logical) to an input kind. */
export function featureKind(type: string): ValueKind {
  switch (type) {
    case 'A':
      return 'enum';
    case 'N':
      return 'number';
    case 'R':
      return 'range';
    case 'L':
      return 'boolean';
    default:
      return 'text';
  }
}
