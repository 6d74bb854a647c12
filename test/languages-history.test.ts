import { describe, expect, it } from 'vitest';
import { readTranslations } from '../src/model/translation-store';
import { db, makeCatalog, makeSession } from './helpers/factories';
import { send } from './oauth-helpers';

type Session = Awaited<ReturnType<typeof makeSession>>;
const post = (s: Session, op: string, json: unknown) => send('POST', `/api/Catalog/${op}`, { cookie: s.cookie, json });

interface Version {
  versionId: string;
  action: string;
  changes: { path: string; before: unknown; after: unknown }[];
}

async function versions(s: Session, elementId: string): Promise<Version[]> {
  const res = await send('GET', `/api/Catalog/GetHistory?elementId=${elementId}`, { cookie: s.cookie });
  expect(res.status).toBe(200);
  return res.json.items;
}

async function productWithTexts() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant, { languages: ['eng', 'fra'] });
  const added = await post(s, 'AddProduct', {
    departmentId: s.departmentId,
    catalogId: catalog.catalogId,
    sku: `H-${crypto.randomUUID().slice(0, 8)}`,
    name: 'Kabel',
  });
  const id = added.json.productId as string;
  const set = (field: string, value: string, language?: string) =>
    post(s, 'SetValue', { departmentId: s.departmentId, elementId: id, field, value, language });
  return { s, catalog, id, set };
}

describe('History per language', () => {
  it('records each language under its own path and restores one language leaving the others untouched', async () => {
    const { s, id, set } = await productWithTexts();
    expect((await set('name', 'Cable', 'eng')).status).toBe(200);
    expect((await set('name', 'Câble', 'fra')).status).toBe(200);
    const [french] = await versions(s, id);
    expect(french!.changes).toEqual([{ path: 'name@fra', before: null, after: 'Câble' }]);

    await set('name', 'Cable, 3 cores', 'eng');
    const [english] = await versions(s, id);
    expect(english!.changes).toEqual([{ path: 'name@eng', before: 'Cable', after: 'Cable, 3 cores' }]);

    const restored = await post(s, 'RestoreVersion', {
      departmentId: s.departmentId,
      elementId: id,
      versionId: french!.versionId,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json.changes).toEqual([{ path: 'name@eng', before: 'Cable, 3 cores', after: 'Cable' }]);
    expect((await readTranslations(db(), [id])).get(id)).toEqual({ eng: { name: 'Cable' }, fra: { name: 'Câble' } });
    const product = await send('GET', `/api/Catalog/GetProduct?productId=${id}&languages=all`, { cookie: s.cookie });
    expect(product.json).toMatchObject({
      name: 'Kabel',
      translations: { eng: { name: 'Cable' }, fra: { name: 'Câble' } },
    });
  });

  it("brings back a version's texts in every language: translations added since go, removed ones return", async () => {
    const { s, catalog, id, set } = await productWithTexts();
    await set('description', 'Ein Kabel');
    await set('description', 'A cable', 'eng');
    const [withEnglish] = await versions(s, id);
    await post(s, 'UpdateProduct', {
      departmentId: s.departmentId,
      catalogId: catalog.catalogId,
      productId: id,
      translations: { eng: { description: null }, fra: { name: 'Câble' } },
    });
    const [update] = await versions(s, id);
    expect(update!.changes).toEqual([
      { path: 'description@eng', before: 'A cable', after: null },
      { path: 'name@fra', before: null, after: 'Câble' },
    ]);
    const restored = await post(s, 'RestoreVersion', {
      departmentId: s.departmentId,
      elementId: id,
      versionId: withEnglish!.versionId,
    });
    expect(restored.status, restored.text).toBe(200);
    expect((await readTranslations(db(), [id])).get(id)).toEqual({ eng: { description: 'A cable' } });
    // The restore is itself a version with the language paths.
    const [restore] = await versions(s, id);
    expect(restore!.action).toBe('restore');
    expect(restore!.changes.map((c) => c.path).sort()).toEqual(['description@eng', 'name@fra']);
  });
});
