import { describe, expect, it } from 'vitest';
import { displayNumber, featureKind, normaliseNumber, parseInput, parseRange, splitRange } from '../src/lib/values';

describe('normaliseNumber', () => {
  it('reads a German decimal comma and an English point alike', () => {
    expect(normaliseNumber('2,5')).toBe('2.5');
    expect(normaliseNumber('2.5')).toBe('2.5');
  });
  it('reads German and English thousands grouping', () => {
    expect(normaliseNumber('1.234,5')).toBe('1234.5');
    expect(normaliseNumber('1,234.5')).toBe('1234.5');
  });
  it('drops the unit of the field after the number', () => {
    expect(normaliseNumber('230 V', 'V')).toBe('230');
    expect(normaliseNumber('230V', 'V')).toBe('230');
  });
  it('refuses text that is not a number', () => {
    expect(normaliseNumber('zwei')).toBeNull();
    expect(normaliseNumber('230 A', 'V')).toBeNull();
  });
});

describe('parseInput', () => {
  it('turns ja/nein and yes/no into the API booleans', () => {
    expect(parseInput('boolean', 'Ja')).toEqual({ ok: true, value: 'true' });
    expect(parseInput('boolean', 'no')).toEqual({ ok: true, value: 'false' });
    expect(parseInput('boolean', 'vielleicht')).toEqual({ ok: false, problem: 'notBoolean' });
  });
  it('checks amounts like the API (at most 20 decimals kept as written, a comma allowed)', () => {
    expect(parseInput('decimal', '12,50')).toEqual({ ok: true, value: '12.50' });
    expect(parseInput('decimal', '12,50 €')).toEqual({ ok: true, value: '12.50' });
    expect(parseInput('decimal', '21,157010')).toEqual({ ok: true, value: '21.157010' });
    expect(parseInput('decimal', '1,234567890123456789012')).toEqual({ ok: false, problem: 'notAmount' });
    expect(parseInput('decimal', '-3')).toEqual({ ok: false, problem: 'notAmount' });
  });
  it('refuses a fraction where a whole number is needed', () => {
    expect(parseInput('integer', '3,5')).toEqual({ ok: false, problem: 'notWhole' });
    expect(parseInput('integer', '14')).toEqual({ ok: true, value: '14' });
  });
  it('accepts only the allowed enum values', () => {
    expect(parseInput('enum', 'EV000041', { allowed: ['EV000040', 'EV000041'] })).toEqual({
      ok: true,
      value: 'EV000041',
    });
    expect(parseInput('enum', 'EV999999', { allowed: ['EV000040'] })).toEqual({ ok: false, problem: 'notAllowed' });
  });
  it('reads ranges written with .., a dash or "bis"', () => {
    expect(parseInput('range', '-25..55')).toEqual({ ok: true, value: '-25..55' });
    expect(parseInput('range', '10 bis 20,5')).toEqual({ ok: true, value: '10..20.5' });
    expect(parseInput('range', '10 – 20')).toEqual({ ok: true, value: '10..20' });
    expect(parseInput('range', '30..20')).toEqual({ ok: false, problem: 'rangeOrder' });
  });
  it('treats an empty input as "clear the value"', () => {
    expect(parseInput('number', '  ')).toEqual({ ok: true, value: '' });
    expect(parseInput('range', '..')).toEqual({ ok: true, value: '' });
  });
  it('keeps text exactly as typed', () => {
    expect(parseInput('text', '  NYM-J 3x1,5 ')).toEqual({ ok: true, value: '  NYM-J 3x1,5 ' });
  });
});

describe('ranges and display', () => {
  it('needs both ends of a range', () => {
    expect(parseRange('10', '')).toEqual({ ok: false, problem: 'rangeIncomplete' });
    expect(parseRange('10 °C', '20', '°C')).toEqual({ ok: true, value: '10..20' });
  });
  it('splits a stored range for the min and max inputs', () => {
    expect(splitRange('-25..55')).toEqual(['-25', '55']);
    expect(splitRange(null)).toEqual(['', '']);
  });
  it('shows stored numbers with the decimal comma in German', () => {
    expect(displayNumber('12.5', 'de')).toBe('12,5');
    expect(displayNumber('12.5', 'en')).toBe('12.5');
  });
  it('maps ETIM feature types to inputs', () => {
    expect(['A', 'N', 'R', 'L', 'X'].map(featureKind)).toEqual(['enum', 'number', 'range', 'boolean', 'text']);
  });
});

describe('unit symbols', async () => {
  const { unitLabel } = await import('../src/lib/units');
  it('shows symbols for UN/ECE codes and unknown codes as they are', () => {
    expect(['VLT', 'CEL', 'MMK', 'XYZ', null].map(unitLabel)).toEqual(['V', '°C', 'mm²', 'XYZ', '']);
  });
});
