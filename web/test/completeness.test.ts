import { describe, expect, it } from 'vitest';
import { fieldHref, fieldTarget, movement, scoreTone, sparkline } from '../src/lib/completeness';

describe('completeness in the browser', () => {
  it('opens the field a missing requirement names', () => {
    expect(fieldTarget('name')).toEqual({ tab: 'fields', focus: 'name' });
    expect(fieldTarget('name@eng')).toEqual({ tab: 'fields', language: 'eng', focus: 'name' });
    expect(fieldTarget('gtin')).toEqual({ tab: 'fields', focus: 'gtin' });
    expect(fieldTarget('values.colour')).toEqual({ tab: 'attributes', focus: 'values.colour' });
    expect(fieldTarget('values.colour@fra')).toEqual({ tab: 'fields', language: 'fra', focus: 'values.colour' });
    expect(fieldTarget('media')).toEqual({ tab: 'media' });
    expect(fieldTarget('prices')).toEqual({ tab: 'prices' });
    expect(fieldTarget('classification')).toEqual({ tab: 'classification' });
    expect(fieldTarget('quality.somethingNew')).toEqual({ tab: 'fields' });
    expect(fieldHref('p1', fieldTarget('name@eng'))).toBe('/products/p1?tab=fields&language=eng&focus=name');
    expect(fieldHref('p1', fieldTarget('media'))).toBe('/products/p1?tab=media');
  });

  it('shows a score in three tones', () => {
    expect(scoreTone(100)).toBe('complete');
    expect(scoreTone(99)).toBe('partial');
    expect(scoreTone(50)).toBe('partial');
    expect(scoreTone(49)).toBe('low');
    expect(scoreTone(0)).toBe('low');
  });

  it('draws the 30-day sparkline and its movement', () => {
    expect(sparkline([], 100, 20)).toBe('');
    expect(sparkline([50], 100, 20)).toBe('0,10 100,10');
    expect(sparkline([0, 50, 100], 100, 20)).toBe('0,20 50,10 100,0');
    expect(sparkline([150, -5], 10, 10)).toBe('0,0 10,10');
    expect(movement([40, 45, 70])).toBe(30);
    expect(movement([70])).toBe(0);
    expect(movement([80, 60])).toBe(-20);
  });
});
