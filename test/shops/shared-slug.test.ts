import { describe, expect, it } from 'vitest';
import { codeOf, shortHash, skuSlug, slugify } from '../../connector/src/adapters/common/slug';

describe('slugs', () => {
  it('folds German and accented letters into lower-case ASCII words', () => {
    expect(slugify('Größe & Maße – Câble')).toBe('grosse-masse-cable');
    expect(slugify('  --  ')).toBe('');
  });

  it('keeps a SKU that is a slug, and gives SKUs that slug alike different slugs', () => {
    expect(skuSlug('NYM-100')).toBe('nym-100');
    expect(skuSlug('A.1')).not.toBe(skuSlug('A-1'));
    expect(skuSlug('A.1')).toMatch(/^a-1-[0-9a-f]{12}$/);
    expect(skuSlug('äöü')).toMatch(/^aou-[0-9a-f]{12}$/);
    expect(skuSlug('***')).toMatch(/^sku-[0-9a-f]{12}$/);
  });

  it('derives the same short codes on every run', () => {
    expect(shortHash('EF000008')).toBe(shortHash('EF000008'));
    expect(shortHash('EF000008')).not.toBe(shortHash('EF000009'));
    expect(codeOf('Schalter & Dosen')).toBe(`schalter-dosen-${shortHash('Schalter & Dosen')}`);
    expect(codeOf('***', 40, 'o')).toBe(`o-${shortHash('***')}`);
  });
});
