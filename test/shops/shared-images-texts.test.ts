import { describe, expect, it } from 'vitest';
import { imagesFor } from '../../connector/src/adapters/common/images';
import { localesOf, textIn, translatedLocalesOf } from '../../connector/src/adapters/common/texts';
import type { TargetMapping } from '../../connector/src/adapters/target-adapter';
import { wireImage, wireVariant } from './fixtures/wire-product';

const MAPPING = {
  languages: { eng: 'en', deu: 'de', fra: 'fr' },
  defaultLanguage: 'deu',
  imagePurposes: [],
} as unknown as TargetMapping;

describe('imagesFor', () => {
  const node = wireVariant('N-1', {
    media: [
      wireImage('b', 2),
      wireImage('a', 1, { purpose: 'detail' }),
      wireImage('c', 0, { contentType: 'application/pdf', fileName: 'c.pdf' }),
      wireImage('b', 3),
    ],
  });

  it('sends the image media by position, each file once', () => {
    expect(imagesFor(node, MAPPING).map((m) => [m.sha256[0], m.position])).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('sends only the purposes the mapping names', () => {
    expect(imagesFor(node, { ...MAPPING, imagePurposes: ['normal'] }).map((m) => m.position)).toEqual([2]);
  });
});

describe('texts', () => {
  const node = wireVariant('N-1', {
    name: 'Leuchte',
    description: '',
    translations: { eng: { name: 'Lamp', description: '' }, fra: { description: 'Lampe murale' } },
  });

  it('lists the mapped languages with their locales, the default first', () => {
    expect(localesOf(MAPPING)).toEqual([
      ['deu', 'de'],
      ['eng', 'en'],
      ['fra', 'fr'],
    ]);
    expect(translatedLocalesOf(MAPPING)).toEqual([
      ['eng', 'en'],
      ['fra', 'fr'],
    ]);
  });

  it('reads the default language from the node and others from its translations; an empty text is none', () => {
    expect(textIn(node, 'name', 'deu', MAPPING)).toBe('Leuchte');
    expect(textIn(node, 'name', 'eng', MAPPING)).toBe('Lamp');
    expect(textIn(node, 'name', 'fra', MAPPING)).toBeNull();
    expect(textIn(node, 'description', 'fra', MAPPING)).toBe('Lampe murale');
    expect(textIn(node, 'description', 'deu', MAPPING)).toBeNull();
    expect(textIn(node, 'description', 'eng', MAPPING)).toBeNull();
    expect(textIn(node, 'name', 'ita', MAPPING)).toBeNull();
  });
});
