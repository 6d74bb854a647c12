import { describe, expect, it } from 'vitest';
import { media } from '../src/db/schema';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { groupedTranslations, writeTranslationStatements } from '../src/model/translation-store';
import { newId } from '../src/kernel/ids';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';

describe('Translations in the product aggregate (one packed row per element)', () => {
  it('unpacks texts into language, then field, in code order whatever order they came in', () => {
    const rows = [
      {
        elementId: 'p1',
        texts: JSON.stringify([
          ['fra', 'name', 'Interrupteur'],
          ['eng', 'name', 'Switch'],
          ['fra', 'description', 'Un interrupteur'],
          ['eng', 'description', 'A switch'],
        ]),
      },
      { elementId: 'm1', texts: JSON.stringify([['eng', 'description', 'Front "view"\nwith ü']]) },
    ];
    const grouped = groupedTranslations(rows);
    const p1 = grouped.get('p1')!;
    expect(Object.keys(p1)).toEqual(['eng', 'fra']);
    expect(Object.keys(p1.eng!)).toEqual(['description', 'name']);
    expect(p1).toEqual({
      eng: { description: 'A switch', name: 'Switch' },
      fra: { description: 'Un interrupteur', name: 'Interrupteur' },
    });
    expect(grouped.get('m1')).toEqual({ eng: { description: 'Front "view"\nwith ü' } });
    expect(grouped.has('other')).toBe(false);
  });

  it("reads a master's, its variant's and its media's texts from D1 in one statement, and nothing of another product", async () => {
    const user = await makeSession();
    const catalog = await makeCatalog(user.tenant, { languages: ['eng', 'fra'] });
    const master = await makeProduct(user.tenant, catalog.catalogId, { name: 'Schalter' });
    const variant = await makeProduct(user.tenant, catalog.catalogId, {
      name: 'Schalter rot',
      parentId: master.productId,
    });
    const other = await makeProduct(user.tenant, catalog.catalogId, { name: 'Anderes' });
    const mediaId = newId();
    await db()
      .insert(media)
      .values({
        id: mediaId,
        elementId: master.productId,
        fileName: 'front.jpg',
        contentType: 'image/jpeg',
        size: 1,
        storageKey: `k/${mediaId}`,
        description: 'Vorderseite',
      });
    await db().batch([
      // Written field by field and French first: the aggregate still lists eng before fra, description before name.
      ...writeTranslationStatements(db(), master.productId, 'fra', { name: 'Interrupteur' }),
      ...writeTranslationStatements(db(), master.productId, 'eng', { name: 'Switch' }),
      ...writeTranslationStatements(db(), master.productId, 'eng', { description: 'A switch' }),
      ...writeTranslationStatements(db(), variant.productId, 'eng', { name: 'Switch red' }),
      ...writeTranslationStatements(db(), mediaId, 'fra', { description: 'Face avant' }),
      ...writeTranslationStatements(db(), other.productId, 'eng', { name: 'Other' }),
    ] as never);

    const [aggregate] = await loadProductAggregates(db(), user.tenant.companyId, [master.productId]);
    expect(aggregate!.translations).toEqual({
      eng: { description: 'A switch', name: 'Switch' },
      fra: { name: 'Interrupteur' },
    });
    expect(Object.keys(aggregate!.translations!)).toEqual(['eng', 'fra']);
    expect(Object.keys(aggregate!.translations!.eng!)).toEqual(['description', 'name']);
    expect(aggregate!.variants.map((v) => v.translations)).toEqual([{ eng: { name: 'Switch red' } }]);
    expect(aggregate!.media.map((m) => m.descriptions)).toEqual([{ fra: 'Face avant' }]);
  });
});
