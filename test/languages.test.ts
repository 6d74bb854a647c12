import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { translations } from '../src/db/schema';
import { deleteCatalog } from '../src/catalog/catalogs';
import { readTranslations, writeTranslationStatements } from '../src/model/translation-store';
import { languageTag, localizedPath, parseLanguage, splitLocalizedPath } from '../src/kernel/languages';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { send } from './oauth-helpers';

const setLanguages = (cookie: string, json: unknown) => send('POST', '/api/Catalog/SetLanguages', { cookie, json });
const addCatalog = (cookie: string, json: unknown) => send('POST', '/api/Catalog/AddCatalog', { cookie, json });

describe('Content languages of a company', () => {
  it('starts with German, lets an admin enable more and choose the default, and lists them', async () => {
    const admin = await makeSession({ role: 'admin' });
    const before = await send('GET', '/api/Catalog/GetLanguages', { cookie: admin.cookie });
    expect(before.status).toBe(200);
    expect(before.json.defaultLanguage).toBe('deu');
    expect(before.json.languages.map((l: { code: string }) => l.code)).toEqual(['deu']);
    expect(before.json.available.length).toBeGreaterThan(20);

    const res = await setLanguages(admin.cookie, { languages: ['fra', 'deu', 'eng'], defaultLanguage: 'eng' });
    expect(res.status).toBe(200);
    expect(res.json.defaultLanguage).toBe('eng');
    expect(res.json.languages.map((l: { code: string }) => l.code)).toEqual(['eng', 'fra', 'deu']);
    expect(res.json.languages[0]).toMatchObject({ code: 'eng', tag: 'en-GB', name: 'English' });
  });

  it('refuses an editor (403), an unknown code and a default outside the list (400), changing nothing', async () => {
    const editor = await makeSession();
    expect((await setLanguages(editor.cookie, { languages: ['deu', 'eng'], defaultLanguage: 'deu' })).status).toBe(403);
    const admin = await makeSession({ role: 'admin' });
    const unknown = await setLanguages(admin.cookie, { languages: ['deu', 'qqq'], defaultLanguage: 'deu' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('languages[1]');
    const outside = await setLanguages(admin.cookie, { languages: ['deu'], defaultLanguage: 'eng' });
    expect(outside.status).toBe(400);
    expect(outside.json.error).toContain('defaultLanguage');
    const after = await send('GET', '/api/Catalog/GetLanguages', { cookie: admin.cookie });
    expect(after.json.languages.map((l: { code: string }) => l.code)).toEqual(['deu']);
  });

  it('keeps a language a catalog publishes (409 naming the catalog)', async () => {
    const admin = await makeSession({ role: 'admin' });
    await setLanguages(admin.cookie, { languages: ['deu', 'eng'], defaultLanguage: 'deu' });
    await makeCatalog(admin.tenant, { name: 'Shop EN', languages: ['eng'] });
    const res = await setLanguages(admin.cookie, { languages: ['deu'], defaultLanguage: 'deu' });
    expect(res.status).toBe(409);
    expect(res.json.error).toContain('Shop EN');
  });
});

describe('Languages of a catalog', () => {
  it('publishes only enabled languages, default first; a language not enabled is a 400 naming the field', async () => {
    const admin = await makeSession({ role: 'admin' });
    const refused = await addCatalog(admin.cookie, {
      departmentId: admin.departmentId,
      name: 'Two languages',
      languages: ['eng'],
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain('languages[0]');
    expect(refused.json.error).toContain('not enabled');

    await setLanguages(admin.cookie, { languages: ['deu', 'eng', 'fra'], defaultLanguage: 'deu' });
    const ok = await addCatalog(admin.cookie, {
      departmentId: admin.departmentId,
      name: 'Two languages',
      languages: ['fra', 'eng', 'fra'],
    });
    expect(ok.status).toBe(200);
    expect(ok.json.language).toBe('deu');
    expect(ok.json.languages).toEqual(['deu', 'fra', 'eng']);
  });

  it('refuses to move the default language of a catalog with products (409), but adds languages to it', async () => {
    const admin = await makeSession({ role: 'admin' });
    await setLanguages(admin.cookie, { languages: ['deu', 'eng'], defaultLanguage: 'deu' });
    const catalog = await makeCatalog(admin.tenant);
    await makeProduct(admin.tenant, catalog.catalogId);
    const base = { departmentId: admin.departmentId, catalogId: catalog.catalogId, name: catalog.name };
    const moved = await send('POST', '/api/Catalog/UpdateCatalog', {
      cookie: admin.cookie,
      json: { ...base, language: 'eng' },
    });
    expect(moved.status).toBe(409);
    const added = await send('POST', '/api/Catalog/UpdateCatalog', {
      cookie: admin.cookie,
      json: { ...base, languages: ['eng'] },
    });
    expect(added.status).toBe(200);
    expect(added.json.languages).toEqual(['deu', 'eng']);
  });
});

describe('Translation rows', () => {
  it('write one language without touching another, read per language, and go with their element', async () => {
    const user = await makeSession();
    const catalog = await makeCatalog(user.tenant, { languages: ['eng', 'fra'] });
    const product = await makeProduct(user.tenant, catalog.catalogId, { name: 'Schalter' });
    await db().batch([
      ...writeTranslationStatements(db(), product.productId, 'eng', { name: 'Switch', description: 'A switch' }),
      ...writeTranslationStatements(db(), product.productId, 'fra', { name: 'Interrupteur' }),
    ] as never);
    await db().batch(writeTranslationStatements(db(), product.productId, 'eng', { description: null }) as never);
    const all = await readTranslations(db(), [product.productId]);
    expect(all.get(product.productId)).toEqual({ eng: { name: 'Switch' }, fra: { name: 'Interrupteur' } });
    const french = await readTranslations(db(), [product.productId], ['fra']);
    expect(french.get(product.productId)).toEqual({ fra: { name: 'Interrupteur' } });

    await deleteCatalog({ db: db(), files: (await import('cloudflare:workers')).env.FILES }, asActor(user.tenant), {
      departmentId: user.departmentId,
      catalogId: catalog.catalogId,
    });
    const left = await db().select().from(translations).where(eq(translations.elementId, product.productId));
    expect(left).toEqual([]);
  });
});

describe('Language codes', () => {
  it('reads every way files and browsers write a language, and maps it to BCP 47', () => {
    expect(['deu', 'ger', 'DEU', 'de', 'de-DE', 'de_AT', 'de-CH'].map(parseLanguage)).toEqual(Array(7).fill('deu'));
    expect(parseLanguage('nl-BE')).toBe('nld');
    expect(parseLanguage('fre')).toBe('fra');
    expect(parseLanguage('qqq')).toBeUndefined();
    expect(parseLanguage('xx')).toBeUndefined();
    expect(languageTag('fra')).toBe('fr-FR');
    expect(localizedPath('name', 'eng')).toBe('name@eng');
    expect(localizedPath('name')).toBe('name');
    expect(splitLocalizedPath('values.colour@fra')).toEqual({ field: 'values.colour', language: 'fra' });
    expect(splitLocalizedPath('name')).toEqual({ field: 'name' });
  });
});
