import { badRequest } from './app-error';
import { DECIMAL, DECIMAL_RULE, gtinProblem, normaliseDecimal } from './code-rules';

/** The value types a field, attribute or classification feature can have. */
type ValueType = 'text' | 'integer' | 'number' | 'decimal' | 'boolean' | 'enum' | 'range';

export interface ValueRule {
  type: ValueType;
  /** Unit of a number or range; "230 V" is accepted for unit V, "230 A" is not. */
  unit?: string | null;
  enumValues?: readonly string[] | null;
  maxLength?: number;
  min?: number;
  /** Extra check on the normalised value, returning an error message or null. */
  check?: (value: string) => string | null;
}

export interface ParsedValue {
  /** Normalised string form, stored and echoed back. */
  value: string;
  number: number | null;
  numberTo: number | null;
}

const NUMBER = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?$/;

function parseNumber(field: string, raw: string, rule: ValueRule): number {
  let text = raw.trim();
  if (rule.unit && text.endsWith(rule.unit) && text.length > rule.unit.length) {
    text = text.slice(0, -rule.unit.length).trim();
  }
  if (!NUMBER.test(text)) {
    throw badRequest(`${field}: "${raw}" is not a number${rule.unit ? ` in ${rule.unit}` : ''}`);
  }
  const n = Number(text.replace(',', '.'));
  if (!Number.isFinite(n)) throw badRequest(`${field}: "${raw}" is out of range`);
  if (rule.min !== undefined && n < rule.min) throw badRequest(`${field}: must be at least ${rule.min}`);
  return n;
}

/**
 * Parses the string a client sent (SetValue always sends strings) against a field's rule.
 * Throws 400 naming the field when the text does not fit the type.
 */
export function parseValue(field: string, raw: string, rule: ValueRule): ParsedValue {
  switch (rule.type) {
    case 'text': {
      const max = rule.maxLength ?? 4000;
      if (raw.length > max) throw badRequest(`${field}: at most ${max} characters`);
      const problem = rule.check?.(raw);
      if (problem) throw badRequest(`${field}: ${problem}`);
      return { value: raw, number: null, numberTo: null };
    }
    case 'integer': {
      const n = parseNumber(field, raw, rule);
      if (!Number.isInteger(n)) throw badRequest(`${field}: "${raw}" is not a whole number`);
      return { value: String(n), number: n, numberTo: null };
    }
    case 'number': {
      const n = parseNumber(field, raw, rule);
      return { value: String(n), number: n, numberTo: null };
    }
    case 'decimal': {
      const text = raw.trim();
      if (!DECIMAL.test(text)) throw badRequest(`${field}: "${raw}" is not ${DECIMAL_RULE}`);
      const normalised = normaliseDecimal(text);
      const problem = rule.check?.(normalised);
      if (problem) throw badRequest(`${field}: ${problem}`);
      return { value: normalised, number: Number(normalised), numberTo: null };
    }
    case 'boolean': {
      const text = raw.trim().toLowerCase();
      if (text === 'true' || text === '1') return { value: 'true', number: 1, numberTo: null };
      if (text === 'false' || text === '0') return { value: 'false', number: 0, numberTo: null };
      throw badRequest(`${field}: "${raw}" is not a boolean (true or false)`);
    }
    case 'enum': {
      const allowed = rule.enumValues ?? [];
      const text = raw.trim();
      if (!allowed.includes(text)) {
        const list = allowed.slice(0, 20).join(', ');
        throw badRequest(`${field}: "${raw}" is not one of ${list}${allowed.length > 20 ? ', ...' : ''}`);
      }
      return { value: text, number: null, numberTo: null };
    }
    case 'range': {
      const parts = raw.split('..');
      if (parts.length !== 2) throw badRequest(`${field}: "${raw}" is not a range; write min..max, e.g. 10..20`);
      const from = parseNumber(field, parts[0]!, rule);
      const to = parseNumber(field, parts[1]!, rule);
      if (from > to) throw badRequest(`${field}: range minimum ${from} exceeds maximum ${to}`);
      return { value: `${from}..${to}`, number: from, numberTo: to };
    }
  }
}

/** GTIN-8/12/13/14 with a valid GS1 check digit. */
export function checkGtin(value: string): string | null {
  const problem = gtinProblem(value);
  if (problem === 'digits') return 'a GTIN has 8, 12, 13 or 14 digits';
  return problem === 'checkDigit' ? 'GTIN check digit is wrong' : null;
}
