import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { sql } from 'drizzle-orm';
import { asActor, db, enableLanguages, makeCatalog, makeProduct, makeSession } from './helpers/factories';

/** The gaps the triggers keep for a catalog, as `lang:sku`. */
async function gapRows(catalogId: string) {
  const rows = await db().all<{ k: string }>(
    sql`SELECT g.lang || ':' || p.sku AS k FROM translation_gaps g JOIN products p ON p.id = g.product_id WHERE g.catalog_id = ${catalogId} ORDER BY k`,
  );
  return rows.map((r) => r.k);
}
import { send } from './oauth-helpers';

type Session = Awaited<ReturnType<typeof makeSession>>;
const post = (s: Session, op: string, json: unknown) => send('POST', `/api/Catalog/${op}`, { cookie: s.cookie, json });

async function missingSkus(s: Session, catalogId: string, language: string) {
  const res = await send('GET', `/api/Catalog/GetProducts?catalogId=${catalogId}&missingTranslation=${language}`, {
    cookie: s.cookie,
  });
  expect(res.status, res.text).toBe(200);
  return res.json.items.map((p: { sku: string }) => p.sku).sort();
}

/** A catalog in German with English and French, four masters and a variant in the states the filter tells apart. */
async function catalogWithGaps() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant, { languages: ['eng', 'fra'] });
  const make = (sku: string, fields: Record<string, unknown>) =>
    makeProduct(s.tenant, catalog.catalogId, { sku, ...fields });
  const a = await make('A', { name: 'Kabel' });
  const b = await make('B', { name: 'Schalter', translations: { eng: { name: 'Switch' } } });
  const c = await make('C', { name: 'Dose', description: 'Eine Dose', translations: { eng: { name: 'Box' } } });
  const d = await make('D', { name: null });
  await make('A-1', { parentId: a.productId, name: 'Kabel rot' });
  return { s, catalog, a, b, c, d };
}

describe('GetProducts missingTranslation', () => {
  it('lists the masters whose name or description has no text in that language, and follows every write', async () => {
    const { s, catalog, b, c, d } = await catalogWithGaps();
    expect(await missingSkus(s, catalog.catalogId, 'eng')).toEqual(['A', 'C']);
    expect(await missingSkus(s, catalog.catalogId, 'fra')).toEqual(['A', 'B', 'C']);

    const base = { departmentId: s.departmentId };
    await post(s, 'SetValue', {
      ...base,
      elementId: c.productId,
      field: 'description',
      value: 'A box',
      language: 'eng',
    });
    await post(s, 'UpdateProduct', {
      ...base,
      catalogId: catalog.catalogId,
      productId: b.productId,
      translations: { eng: { name: null } },
    });
    await post(s, 'SetValue', { ...base, elementId: d.productId, field: 'name', value: 'Neu' });
    expect(await missingSkus(s, catalog.catalogId, 'eng')).toEqual(['A', 'B', 'D']);
    // A name cleared in the default language is nothing to translate.
    await post(s, 'SetValue', { ...base, elementId: d.productId, field: 'name', value: '' });
    expect(await missingSkus(s, catalog.catalogId, 'eng')).toEqual(['A', 'B']);

    // A language the catalog starts to publish: every master with a text misses it.
    const updated = await send('POST', '/api/Catalog/UpdateCatalog', {
      cookie: s.cookie,
      json: { ...base, catalogId: catalog.catalogId, name: 'Test catalog', languages: ['eng', 'fra', 'nld'] },
    });
    expect(updated.status, updated.text).toBe(400); // nld is not enabled yet
    await enableLanguages(s.tenant.companyId, ['nld']);
    const published = await send('POST', '/api/Catalog/UpdateCatalog', {
      cookie: s.cookie,
      json: { ...base, catalogId: catalog.catalogId, name: 'Test catalog', languages: ['eng', 'fra', 'nld'] },
    });
    expect(published.status, published.text).toBe(200);
    expect(await missingSkus(s, catalog.catalogId, 'nld')).toEqual(['A', 'B', 'C']);
    expect(await missingSkus(s, catalog.catalogId, 'eng')).toEqual(['A', 'B']);
    // ... and one it stops publishing is no longer a filter.
    await send('POST', '/api/Catalog/UpdateCatalog', {
      cookie: s.cookie,
      json: { ...base, catalogId: catalog.catalogId, name: 'Test catalog', languages: ['eng'] },
    });
    const dropped = await send(
      'GET',
      `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&missingTranslation=fra`,
      {
        cookie: s.cookie,
      },
    );
    expect(dropped.status).toBe(400);
    expect(await gapRows(catalog.catalogId)).toEqual(['eng:A', 'eng:B']);
  });

  it('answers the same when the filter is read from its gaps and when it is checked along the sort order', async () => {
    const { s, catalog } = await catalogWithGaps();
    const input = { catalogId: catalog.catalogId, missingTranslation: 'fra', limit: 2 };
    const driven = await listProducts(db(), asActor(s.tenant), input);
    const walked = await listProducts(db(), asActor(s.tenant), input, { driveLimit: 0 });
    expect(driven.items.map((p) => p.sku)).toEqual(['A', 'B']);
    expect(walked.items.map((p) => p.sku)).toEqual(['A', 'B']);
    const next = await listProducts(
      db(),
      asActor(s.tenant),
      { ...input, cursor: walked.nextCursor! },
      { driveLimit: 0 },
    );
    expect(next.items.map((p) => p.sku)).toEqual(['C']);
  });

  it('refuses a language not enabled, the default and one the catalog does not publish (400 naming the parameter)', async () => {
    const { s, catalog } = await catalogWithGaps();
    for (const [language, message] of [
      ['ita', 'not enabled'],
      ['deu', "catalog's default"],
      ['EN', 'language code'],
    ]) {
      const res = await send(
        'GET',
        `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&missingTranslation=${language}`,
        {
          cookie: s.cookie,
        },
      );
      expect(res.status, language).toBe(400);
      expect(res.json.error, language).toContain('missingTranslation');
      expect(res.json.error, language).toContain(message);
    }
  });
});
