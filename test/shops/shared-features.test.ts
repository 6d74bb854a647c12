import { describe, expect, it } from 'vitest';
import { nodeFeatures, variantOptions } from '../../connector/src/adapters/common/features';
import type { TargetMapping } from '../../connector/src/adapters/target-adapter';
import { wireClassification, wireFeature, wireProduct, wireVariant } from './fixtures/wire-product';

const MAPPING: TargetMapping = {
  languages: { deu: 'de', eng: 'en' },
  defaultLanguage: 'deu',
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
  features: { classification: true, values: true, featureBlocks: ['UDX'] },
  onDeactivate: 'disable',
  imagePurposes: [],
  references: false,
};

const amps = (value: string) => wireFeature('EF000010', 'Bemessungsstrom', value, 'A');
const poles = (value: string) => wireFeature('EF000020', 'Polzahl', value);
const lamp = (sku: string, features: ReturnType<typeof wireFeature>[], values: Record<string, string> = {}) =>
  wireVariant(sku, { classification: wireClassification(features), values });

describe('nodeFeatures', () => {
  const node = wireVariant('N-1', {
    classification: wireClassification([amps('16'), wireFeature('EF000099', null, '  ')]),
    values: { material: 'PA', colour: 'grau', empty: '' },
    featureBlocks: [
      {
        system: 'UDX',
        groupId: null,
        groupId2: null,
        groupName: null,
        features: [{ ftId: 'depth', ftName: 'Tiefe', values: ['70', '70'], unit: 'mm' }, { values: ['x'] }],
      },
      { system: 'OTHER', groupId: null, groupId2: null, groupName: null, features: [{ ftId: 'z', values: ['1'] }] },
    ],
  });

  it('sends classification features, attribute values and the mapped blocks, in that order, without blanks or repeats', () => {
    expect(nodeFeatures(node, MAPPING)).toEqual([
      {
        key: 'classification:EF000010',
        source: 'classification',
        group: 'ETIM',
        code: 'EF000010',
        name: 'Bemessungsstrom',
        value: '16',
        unit: 'A',
        text: '16 A',
      },
      {
        key: 'value:material',
        source: 'value',
        group: 'values',
        code: 'material',
        name: 'material',
        value: 'PA',
        unit: null,
        text: 'PA',
      },
      {
        key: 'value:colour',
        source: 'value',
        group: 'values',
        code: 'colour',
        name: 'colour',
        value: 'grau',
        unit: null,
        text: 'grau',
      },
      {
        key: 'block:UDX:depth',
        source: 'block',
        group: 'UDX',
        code: 'depth',
        name: 'Tiefe',
        value: '70',
        unit: 'mm',
        text: '70 mm',
      },
    ]);
  });

  it('follows the mapping: no classification, only the listed values, no blocks', () => {
    const mapping = { ...MAPPING, features: { classification: false, values: ['colour'], featureBlocks: [] } };
    expect(nodeFeatures(node, mapping).map((f) => f.key)).toEqual(['value:colour']);
    const none = { ...MAPPING, features: { classification: false, values: false as const, featureBlocks: [] } };
    expect(nodeFeatures(node, none)).toEqual([]);
  });
});

describe('variantOptions', () => {
  it('makes the features whose values differ the options, in the first variant’s order, with each variant’s value', () => {
    const product = wireProduct({
      variants: [
        lamp('A-16', [amps('16'), poles('1')]),
        lamp('A-20', [amps('20'), poles('1')]),
        lamp('A-25', [amps('25'), poles('3')]),
      ],
    });
    const { bySku, options } = variantOptions(product, MAPPING);
    expect(bySku).toBe(false);
    expect(options.map((o) => [o.key, o.name, o.values])).toEqual([
      ['classification:EF000010', 'Bemessungsstrom', ['16 A', '20 A', '25 A']],
      ['classification:EF000020', 'Polzahl', ['1', '1', '3']],
    ]);
  });

  it('counts attribute values the mapping sends as defining features', () => {
    const product = wireProduct({
      variants: [lamp('L-R', [], { colour: 'rot' }), lamp('L-B', [], { colour: 'blau' })],
    });
    expect(variantOptions(product, MAPPING).options.map((o) => [o.name, o.values])).toEqual([
      ['colour', ['rot', 'blau']],
    ]);
    const without = { ...MAPPING, features: { ...MAPPING.features, values: false as const } };
    expect(variantOptions(product, without)).toMatchObject({
      bySku: true,
      options: [{ key: 'sku', name: 'SKU', values: ['L-R', 'L-B'] }],
    });
  });

  it('does not count a feature some variant lacks', () => {
    const product = wireProduct({ variants: [lamp('A-16', [amps('16'), poles('1')]), lamp('A-20', [poles('3')])] });
    expect(variantOptions(product, MAPPING).options.map((o) => o.key)).toEqual(['classification:EF000020']);
  });

  it('falls back to the SKU option when the defining features do not tell every variant apart', () => {
    const product = wireProduct({
      variants: [
        lamp('A-1', [amps('16'), poles('1')]),
        lamp('A-2', [amps('16'), poles('3')]),
        lamp('A-3', [amps('20'), poles('1')]),
        lamp('A-4', [amps('16'), poles('1')]),
      ],
    });
    expect(variantOptions(product, MAPPING)).toEqual({
      bySku: true,
      options: [{ key: 'sku', name: 'SKU', feature: null, values: ['A-1', 'A-2', 'A-3', 'A-4'] }],
    });
  });

  it('falls back to the SKU option when the variants differ in nothing, and gives a master without variants none', () => {
    const same = wireProduct({ variants: [lamp('A-1', [amps('16')]), lamp('A-2', [amps('16')])] });
    expect(variantOptions(same, MAPPING).bySku).toBe(true);
    expect(variantOptions(wireProduct(), MAPPING)).toEqual({ bySku: false, options: [] });
  });

  it('takes at most `max` options and falls back to the SKU when those do not tell the variants apart', () => {
    const product = wireProduct({
      variants: [
        lamp('A-1', [amps('16'), poles('1')]),
        lamp('A-2', [amps('16'), poles('3')]),
        lamp('A-3', [amps('20'), poles('1')]),
      ],
    });
    expect(variantOptions(product, MAPPING).options).toHaveLength(2);
    expect(variantOptions(product, MAPPING, { max: 1 }).bySku).toBe(true);
    const distinct = wireProduct({
      variants: [lamp('B-1', [amps('16'), poles('1')]), lamp('B-2', [amps('20'), poles('3')])],
    });
    expect(variantOptions(distinct, MAPPING, { max: 1 }).options.map((o) => o.key)).toEqual([
      'classification:EF000010',
    ]);
  });

  it('names two defining features of the same name apart by their codes', () => {
    const width = (v: string) => wireFeature('EF000001', 'Breite', v);
    const product = wireProduct({
      variants: [lamp('W-1', [width('1')], { Breite: 'schmal' }), lamp('W-2', [width('2')], { Breite: 'breit' })],
    });
    expect(variantOptions(product, MAPPING).options.map((o) => o.name)).toEqual([
      'Breite (EF000001)',
      'Breite (Breite)',
    ]);
  });

  it('joins a feature’s several values, and leaves texts longer than 255 characters out', () => {
    const long = 'x'.repeat(256);
    const product = wireProduct({
      variants: [
        lamp('M-1', [wireFeature('EF1', 'Farbe', 'rot'), wireFeature('EF1', 'Farbe', 'blau')], { note: long }),
        lamp('M-2', [wireFeature('EF1', 'Farbe', 'grün')], { note: `${long}y` }),
      ],
    });
    expect(variantOptions(product, MAPPING).options.map((o) => [o.key, o.values])).toEqual([
      ['classification:EF1', ['rot, blau', 'grün']],
    ]);
  });
});
