import { describe, expect, it } from 'vitest';
import { fieldList, reviewBodyOf, reviewDraftOf } from '../src/lib/review-rule-draft';

const channelId = '0196f7a0-0000-7000-8000-000000000001';

describe('the channel dialog review settings', () => {
  it('starts from the stored setting, and offers "any change" while review is off', () => {
    expect(reviewDraftOf({ enabled: false, rule: null })).toEqual({
      enabled: false,
      kind: 'any',
      fields: '',
      languages: [],
    });
    expect(
      reviewDraftOf({ enabled: true, rule: { kind: 'fields', fields: ['name', 'values.colour'], languages: ['eng'] } }),
    ).toEqual({ enabled: true, kind: 'fields', fields: 'name, values.colour', languages: ['eng'] });
    expect(reviewDraftOf({ enabled: true, rule: { kind: 'fields', languages: ['deu'] } })).toMatchObject({
      fields: '',
      languages: ['deu'],
    });
  });

  it('reads the typed fields at commas and spaces', () => {
    expect(fieldList(' name,price  values.colour,, ')).toEqual(['name', 'price', 'values.colour']);
    expect(fieldList('  ')).toEqual([]);
  });

  it('sends no rule when turning review off, and the chosen rule when turning it on', () => {
    const draft = { enabled: false, kind: 'fields' as const, fields: 'name', languages: ['eng'] };
    expect(reviewBodyOf(channelId, draft)).toEqual({ channelId, enabled: false });
    expect(reviewBodyOf(channelId, { ...draft, enabled: true, kind: 'any' })).toEqual({
      channelId,
      enabled: true,
      rule: { kind: 'any' },
    });
    expect(reviewBodyOf(channelId, { ...draft, enabled: true })).toEqual({
      channelId,
      enabled: true,
      rule: { kind: 'fields', fields: ['name'], languages: ['eng'] },
    });
  });

  it('leaves an empty list out, so the API names what is missing', () => {
    const body = reviewBodyOf(channelId, { enabled: true, kind: 'fields', fields: ' ', languages: [] });
    expect(body).toEqual({ channelId, enabled: true, rule: { kind: 'fields' } });
  });
});
