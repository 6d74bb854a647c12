import { describe, expect, it } from 'vitest';
import { readTranslations } from '../src/model/translation-store';
import { db, makeAttribute, makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { send } from './oauth-helpers';

type Session = Awaited<ReturnType<typeof makeSession>>;
const get = (s: Session, path: string) => send('GET', path, { cookie: s.cookie });
const post = (s: Session, op: string, json: unknown) => send('POST', `/api/Catalog/${op}`, { cookie: s.cookie, json });

/** A company with German (default), English and French, a catalog publishing all three, one product. */
async function threeLanguages() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant, { languages: ['eng', 'fra'] });
  const added = await post(s, 'AddProduct', {
    departmentId: s.departmentId,
    catalogId: catalog.catalogId,
    sku: `L-${crypto.randomUUID().slice(0, 8)}`,
    name: 'Kabel',
    description: 'Ein Kabel',
    translations: { eng: { name: 'Cable' } },
  });
  expect(added.status).toBe(200);
  return { s, catalog, product: added.json as { productId: string; sku: string } };
}

const productOf = (s: Session, id: string, query = '') => get(s, `/api/Catalog/GetProduct?productId=${id}${query}`);

describe('Reads per language', () => {
  it('answers the asked language, null and named where a translation is missing, never the default text', async () => {
    const { s, product } = await threeLanguages();
    const german = await productOf(s, product.productId);
    expect(german.json).toMatchObject({
      name: 'Kabel',
      description: 'Ein Kabel',
      language: 'deu',
      missingTranslations: [],
    });
    const english = await productOf(s, product.productId, '&language=eng');
    expect(english.status).toBe(200);
    expect(english.json).toMatchObject({ name: 'Cable', description: null, language: 'eng' });
    expect(english.json.missingTranslations).toEqual(['description']);
    expect(english.json.translations).toBeUndefined();
    const french = await productOf(s, product.productId, '&language=fra');
    expect(french.json).toMatchObject({ name: null, description: null, keywords: null });
    expect(french.json.missingTranslations).toEqual(['name', 'description']);
    const all = await productOf(s, product.productId, '&languages=all');
    expect(all.json.name).toBe('Kabel');
    expect(all.json.translations).toEqual({ eng: { name: 'Cable' }, fra: {} });
  });

  it('lists products (GetProducts) and variants (GetVariants) with names in the asked language', async () => {
    const { s, catalog, product } = await threeLanguages();
    const variant = await post(s, 'AddProduct', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      parentId: product.productId,
      sku: `${product.sku}-V`,
      name: 'Kabel rot',
      translations: { fra: { name: 'Câble rouge' } },
    });
    expect(variant.status).toBe(200);
    const list = await get(s, `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&language=eng`);
    expect(list.status).toBe(200);
    expect(list.json.items.map((p: { name: string }) => p.name)).toEqual(['Cable']);
    expect(list.json.items[0]).toMatchObject({ language: 'eng', missingTranslations: ['description'] });
    const variants = await get(s, `/api/Catalog/GetVariants?productId=${product.productId}&language=fra`);
    expect(variants.json.items).toHaveLength(1);
    expect(variants.json.items[0]).toMatchObject({ name: 'Câble rouge', language: 'fra', missingTranslations: [] });
  });

  it('refuses an unknown language and one the company has not enabled (400 naming language)', async () => {
    const { s, catalog, product } = await threeLanguages();
    for (const query of ['language=qqq', 'language=ita', 'language=', 'languages=some']) {
      const res = await productOf(s, product.productId, `&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error, query).toMatch(/language/);
    }
    const list = await get(s, `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&language=ita`);
    expect(list.status).toBe(400);
    expect(list.json.error).toContain('language: Italian (ita) is not enabled');
    const tree = await get(s, `/api/Catalog/GetCategoryTree?catalogId=${catalog.catalogId}&language=xyz`);
    expect(tree.status).toBe(400);
    expect(tree.json.error).toContain('language');
  });
});

describe('SetValue with a language', () => {
  it('writes the translation, leaves the default column, and records name@eng in history', async () => {
    const { s, product } = await threeLanguages();
    const base = { departmentId: s.departmentId, elementId: product.productId };
    const res = await post(s, 'SetValue', { ...base, field: 'description', value: 'A cable', language: 'eng' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ field: 'description', value: 'A cable', language: 'eng' });
    const english = await productOf(s, product.productId, '&language=eng');
    expect(english.json).toMatchObject({ name: 'Cable', description: 'A cable', missingTranslations: [] });
    expect((await productOf(s, product.productId)).json.description).toBe('Ein Kabel');
    // The default language named explicitly writes the column.
    await post(s, 'SetValue', { ...base, field: 'name', value: 'Kabel 3x1,5', language: 'deu' });
    expect((await productOf(s, product.productId)).json.name).toBe('Kabel 3x1,5');
    expect((await productOf(s, product.productId, '&language=eng')).json.name).toBe('Cable');
    const history = await get(s, `/api/Catalog/GetHistory?elementId=${product.productId}`);
    const paths = history.json.items.flatMap((v: { changes: { path: string }[] }) => v.changes.map((c) => c.path));
    expect(paths).toContain('description@eng');
    expect(paths).toContain('name');
  });

  it('refuses a language-neutral field, a language not enabled and an unknown one, changing nothing', async () => {
    const { s, product } = await threeLanguages();
    const base = { departmentId: s.departmentId, elementId: product.productId };
    const before = await readTranslations(db(), [product.productId]);
    const sku = await post(s, 'SetValue', { ...base, field: 'sku', value: 'NEW-SKU', language: 'eng' });
    expect(sku.status).toBe(400);
    expect(sku.json.error).toMatch(/^language: /);
    const italian = await post(s, 'SetValue', { ...base, field: 'name', value: 'Cavo', language: 'ita' });
    expect(italian.status).toBe(400);
    expect(italian.json.error).toContain('language: Italian (ita) is not enabled');
    const unknown = await post(s, 'SetValue', { ...base, field: 'name', value: 'X', language: 'xx1' });
    expect(unknown.status).toBe(400);
    expect(await readTranslations(db(), [product.productId])).toEqual(before);
    expect((await productOf(s, product.productId)).json.sku).toBe(product.sku);
  });

  it('keeps a localizable text attribute per language; other attributes refuse a language', async () => {
    const { s, product } = await threeLanguages();
    const refused = await post(s, 'AddAttribute', {
      code: 'weight_l',
      name: 'Weight',
      type: 'number',
      localizable: true,
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain('localizable');
    const colour = await post(s, 'AddAttribute', { code: 'colour_l', name: 'Colour', type: 'text', localizable: true });
    expect(colour.status).toBe(200);
    expect(colour.json.localizable).toBe(true);
    const plain = await makeAttribute(s.tenant, { code: 'plain_l', type: 'text' });
    const base = { departmentId: s.departmentId, elementId: product.productId };
    expect((await post(s, 'SetValue', { ...base, field: 'colour_l', value: 'rot' })).status).toBe(200);
    expect((await post(s, 'SetValue', { ...base, field: 'colour_l', value: 'red', language: 'eng' })).status).toBe(200);
    const neutral = await post(s, 'SetValue', { ...base, field: plain.code, value: 'x', language: 'eng' });
    expect(neutral.status).toBe(400);
    expect(neutral.json.error).toMatch(/^language: /);
    const english = await productOf(s, product.productId, '&language=eng');
    expect(english.json.values).toEqual([{ code: 'colour_l', type: 'text', value: 'red', unit: null }]);
    const french = await productOf(s, product.productId, '&language=fra');
    expect(french.json.values[0].value).toBeNull();
    expect(french.json.missingTranslations).toContain('values.colour_l');
    expect((await productOf(s, product.productId)).json.values[0].value).toBe('rot');
  });
});

describe('translations on AddProduct / UpdateProduct', () => {
  it('writes and removes per language and leaves languages it does not name', async () => {
    const { s, catalog, product } = await threeLanguages();
    const base = { departmentId: s.departmentId, catalogId: catalog.catalogId, productId: product.productId };
    const res = await post(s, 'UpdateProduct', {
      ...base,
      translations: { fra: { name: 'Câble', keywords: 'câble' }, eng: { name: null, description: 'A cable' } },
    });
    expect(res.status).toBe(200);
    const stored = await readTranslations(db(), [product.productId]);
    expect(stored.get(product.productId)).toEqual({
      eng: { description: 'A cable' },
      fra: { name: 'Câble', keywords: 'câble' },
    });
    expect((await productOf(s, product.productId)).json.name).toBe('Kabel');
    // The default language in translations writes the column.
    await post(s, 'UpdateProduct', { ...base, translations: { deu: { name: 'Leitung' } } });
    expect((await productOf(s, product.productId)).json.name).toBe('Leitung');
  });

  it('refuses a language-neutral field, a language not enabled and a too long text, writing nothing', async () => {
    const { s, catalog, product } = await threeLanguages();
    const base = { departmentId: s.departmentId, catalogId: catalog.catalogId, productId: product.productId };
    const before = await readTranslations(db(), [product.productId]);
    const cases: [unknown, string][] = [
      [{ fra: { name: 'Câble' }, eng: { sku: 'X' } }, 'translations.eng.sku'],
      [{ fra: { name: 'Câble' }, ita: { name: 'Cavo' } }, 'translations.ita'],
      [{ qq: { name: 'x' } }, 'translations.qq'],
      [{ fra: { name: 'x'.repeat(251) } }, 'translations.fra.name'],
      [{ deu: { name: 'Anders' } }, 'translations.deu.name'],
    ];
    for (const [translations, named] of cases) {
      const res = await post(s, 'UpdateProduct', { ...base, name: 'Kabel neu', translations });
      expect(res.status, named).toBe(400);
      expect(res.json.error, named).toContain(named);
    }
    const add = await post(s, 'AddProduct', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      sku: 'NEVER-WRITTEN',
      translations: { eng: { gtin: '4006381333931' } },
    });
    expect(add.status).toBe(400);
    expect(await readTranslations(db(), [product.productId])).toEqual(before);
    const german = await productOf(s, product.productId);
    expect(german.json.name).toBe('Kabel');
    const list = await get(s, `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&q=NEVER`);
    expect(list.json.items).toEqual([]);
  });
});

describe('Categories and media per language', () => {
  it('writes category names per language and reads list and tree in one', async () => {
    const { s, catalog } = await threeLanguages();
    const added = await post(s, 'AddCategory', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      name: 'Kabel',
      translations: { eng: { name: 'Cables' } },
    });
    expect(added.status).toBe(200);
    const id = added.json.categoryId;
    const updated = await post(s, 'UpdateCategory', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      categoryId: id,
      name: 'Kabel',
      translations: { fra: { name: 'Câbles', description: 'Tous' }, eng: { sortOrder: '1' } },
    });
    expect(updated.status).toBe(400);
    expect(updated.json.error).toContain('translations.eng.sortOrder');
    await post(s, 'UpdateCategory', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      categoryId: id,
      name: 'Kabel',
      translations: { fra: { name: 'Câbles' } },
    });
    const list = await get(s, `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}&language=fra`);
    expect(list.json.items[0]).toMatchObject({ name: 'Câbles', language: 'fra', missingTranslations: [] });
    const tree = await get(s, `/api/Catalog/GetCategoryTree?catalogId=${catalog.catalogId}&languages=all`);
    expect(tree.json.items[0]).toMatchObject({
      name: 'Kabel',
      translations: { eng: { name: 'Cables' }, fra: { name: 'Câbles' } },
    });
    const other = await makeCategory(s.tenant, catalog.catalogId, { name: 'Schalter' });
    const english = await get(s, `/api/Catalog/GetCategoryTree?catalogId=${catalog.catalogId}&language=eng`);
    const schalter = english.json.items.find((c: { categoryId: string }) => c.categoryId === other.categoryId);
    expect(schalter).toMatchObject({ name: null, missingTranslations: ['name'] });
  });

  it("keeps a media entry's description per language (UpdateMedia)", async () => {
    const { s, product } = await threeLanguages();
    const link = await send('POST', '/api/Media/AddLink', {
      cookie: s.cookie,
      json: {
        departmentId: s.departmentId,
        elementId: product.productId,
        url: 'https://cdn.example/a.png',
        description: 'Foto',
      },
    });
    expect(link.status).toBe(200);
    const update = (json: unknown) => send('POST', '/api/Media/UpdateMedia', { cookie: s.cookie, json });
    const res = await update({
      departmentId: s.departmentId,
      mediaId: link.json.mediaId,
      description: 'Photo',
      language: 'eng',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ description: 'Photo', language: 'eng' });
    const bad = await update({
      departmentId: s.departmentId,
      mediaId: link.json.mediaId,
      description: 'Foto',
      language: 'ita',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('language');
    const english = await productOf(s, product.productId, '&language=eng');
    expect(english.json.media[0]).toMatchObject({ description: 'Photo', missingTranslations: [] });
    const french = await productOf(s, product.productId, '&language=fra');
    expect(french.json.media[0]).toMatchObject({ description: null, missingTranslations: ['description'] });
    expect((await productOf(s, product.productId)).json.media[0].description).toBe('Foto');
  });
});
