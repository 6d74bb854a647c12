import { describe, expect, it } from 'vitest';
import { CategoryImageRefused, categoryImage } from '../../connector/src/adapters/common/category-image';
import { imagesFor } from '../../connector/src/adapters/common/images';
import { localesOf, textIn, translatedLocalesOf } from '../../connector/src/adapters/common/texts';
import type { TargetMapping } from '../../connector/src/adapters/target-adapter';
import { refusedUrlReason } from '../../connector/src/targets/url-guard';
import type { MediaLink } from '../../src/sync/protocol/wire';
import { categoryLink, wireImage, wireVariant } from './fixtures/wire-product';

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

describe('categoryImage', () => {
  const allowAll = () => null;
  const category = (links: MediaLink[]) => ({ id: 'c-1', path: ['Werkzeug', 'Zangen'], links });

  it('picks the normal picture before a detail view or thumbnail, by position, never a data sheet or a non-image', () => {
    const links = [
      categoryLink('https://cdn.example/z.pdf', { contentType: 'application/pdf' }),
      categoryLink('https://cdn.example/sheet.jpg', { purpose: 'data_sheet', position: 1 }),
      categoryLink('https://cdn.example/thumb.jpg', { purpose: 'thumbnail', position: 2 }),
      categoryLink('https://cdn.example/detail.jpg', { purpose: 'detail', position: 3 }),
      categoryLink('https://cdn.example/b.jpg', { position: 5, description: 'Zangen aller Art' }),
      categoryLink('https://cdn.example/a.JPG', { position: 4, contentType: 'IMAGE/JPEG' }),
    ];
    expect(categoryImage(category(links), 2, MAPPING, allowAll)).toEqual({
      link: links[5],
      field: 'product.categories.2.links.5',
      alt: 'Zangen',
    });
    expect(categoryImage(category(links.slice(0, 5)), 0, MAPPING, allowAll)?.alt).toBe('Zangen aller Art');
    expect(categoryImage(category(links.slice(0, 4)), 0, MAPPING, allowAll)?.link.purpose).toBe('detail');
    expect(categoryImage(category(links.slice(0, 2)), 0, MAPPING, allowAll)).toBeNull();
    expect(categoryImage({ id: 'c-2', path: ['Leer'] }, 0, MAPPING, allowAll)).toBeNull();
  });

  it("keeps to the mapping's image purposes when it names any", () => {
    const links = [
      categoryLink('https://cdn.example/n.jpg'),
      categoryLink('https://cdn.example/t.jpg', { purpose: 'thumbnail', position: 1 }),
    ];
    const thumbnails = { ...MAPPING, imagePurposes: ['thumbnail'] };
    expect(categoryImage(category(links), 0, thumbnails, allowAll)?.link.url).toBe('https://cdn.example/t.jpg');
    expect(categoryImage(category(links), 0, { ...MAPPING, imagePurposes: ['logo'] }, allowAll)).toBeNull();
  });

  it('throws CategoryImageRefused naming the link when the SSRF rule refuses the picture', () => {
    const links = [
      categoryLink('https://cdn.example/a.pdf', { contentType: 'application/pdf' }),
      categoryLink('http://127.0.0.1/a.jpg', { position: 1 }),
    ];
    const refuse = (url: string) => refusedUrlReason(url, false);
    expect(() => categoryImage(category(links), 1, MAPPING, refuse)).toThrow(
      new CategoryImageRefused(
        'product.categories.1.links.1',
        'the category image URL is refused: the URL points to a private, loopback or link-local address',
      ),
    );
    // Only the picture is judged: a refused data sheet is never sent, so it never fails a record.
    expect(categoryImage(category([{ ...links[0]!, url: 'http://127.0.0.1/a.pdf' }]), 0, MAPPING, refuse)).toBeNull();
  });
});
