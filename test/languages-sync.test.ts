import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { updateProduct } from '../src/catalog/products';
import { updateCatalog } from '../src/catalog/catalogs';
import { setValue } from '../src/catalog/values';
import { catalogs } from '../src/db/schema';
import type { Product } from '../src/sync/protocol/wire';
import { FakeConnector } from './helpers/fake-connector';
import { db, enableLanguages } from './helpers/factories';
import { connect, product, runSync, syncDeps, syncSetup } from './helpers/sync-fixtures';

const sentSince = (fake: FakeConnector, from: number) =>
  fake.upserts.slice(from).flatMap((u) => u.records.map((r) => `${r.op} ${r.sku}`));

describe('translations in the sync record', () => {
  it('carries every language of the catalog, and one translation change sends exactly one update', async () => {
    const setup = await syncSetup();
    await enableLanguages(setup.company.companyId, ['eng', 'fra']);
    await db()
      .update(catalogs)
      .set({ languages: ['deu', 'eng', 'fra'] })
      .where(eq(catalogs.id, setup.catalogId));
    const a = await product(setup, 'TR-A', { translations: { eng: { name: 'Cable' }, fra: { name: 'Câble' } } }, true);
    const b = await product(setup, 'TR-B');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake);
    const first = await runSync(setup, connection.connectionId, deps);
    expect(first.report).toMatchObject({ created: 2 });
    const sentA = fake.products.get('TR-A')!.product as Product;
    expect(sentA.name).toBe('Product TR-A');
    expect(sentA.translations).toEqual({ eng: { name: 'Cable' }, fra: { name: 'Câble' } });
    // A product without translations keeps the record it had before languages existed.
    expect('translations' in (fake.products.get('TR-B')!.product as Product)).toBe(false);

    // SetValue in English: that product, once.
    await setValue(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: b.productId,
      field: 'description',
      value: 'A breaker',
      language: 'eng',
    });
    let mark = fake.upserts.length;
    const afterSet = await runSync(setup, connection.connectionId, deps);
    expect(afterSet.report).toMatchObject({ updated: 1, skipped: 1, created: 0 });
    expect(sentSince(fake, mark)).toEqual(['update TR-B']);
    expect((fake.products.get('TR-B')!.product as Product).translations).toEqual({ eng: { description: 'A breaker' } });

    // UpdateProduct's translations of a variant: its master, once; the fingerprint planned in
    // the write is the one a fresh load computes (no second update on the next run).
    const [variant] = await db().query.products.findMany({ where: (p, { eq }) => eq(p.parentId, a.productId) });
    await updateProduct(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      catalogId: setup.catalogId,
      productId: variant!.id,
      translations: { fra: { name: 'Variante' }, eng: { name: 'Variant' } },
    });
    mark = fake.upserts.length;
    const afterUpdate = await runSync(setup, connection.connectionId, deps);
    expect(afterUpdate.report).toMatchObject({ updated: 1, skipped: 1 });
    expect(sentSince(fake, mark)).toEqual(['update TR-A']);
    const sentVariant = (fake.products.get('TR-A')!.product as Product).variants[0]!;
    expect(sentVariant.translations).toEqual({ eng: { name: 'Variant' }, fra: { name: 'Variante' } });
    mark = fake.upserts.length;
    const again = await runSync(setup, connection.connectionId, deps);
    expect(again.report).toMatchObject({ updated: 0, skipped: 2 });
    expect(sentSince(fake, mark)).toEqual([]);
  });

  it('carries only the languages the catalog publishes: removing or adding one resends exactly the products with texts in it', async () => {
    const setup = await syncSetup();
    await enableLanguages(setup.company.companyId, ['eng', 'fra', 'ita']);
    const publish = (languages: string[]) =>
      updateCatalog(db(), setup.caller, {
        departmentId: setup.company.departmentId,
        catalogId: setup.catalogId,
        name: 'Published',
        languages,
      });
    await publish(['deu', 'eng', 'fra']);
    await product(setup, 'PL-A', { translations: { eng: { name: 'Cable' }, fra: { name: 'Câble' } } }, true);
    await product(setup, 'PL-B', { translations: { fra: { name: 'Disjoncteur' } } });
    // Italian is enabled for the company but not published by the catalog: kept, never sent.
    await product(setup, 'PL-C', { translations: { ita: { name: 'Cavo' } } });
    await product(setup, 'PL-D');
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake);
    const sent = (sku: string) => fake.products.get(sku)!.product as Product;
    const first = await runSync(setup, connection.connectionId, deps);
    expect(first.report).toMatchObject({ created: 4 });
    expect(sent('PL-A').translations).toEqual({ eng: { name: 'Cable' }, fra: { name: 'Câble' } });
    expect('translations' in sent('PL-C')).toBe(false);

    // French removed: A (now English only) and B (nothing left to send) once each; C and D untouched.
    await publish(['deu', 'eng']);
    let mark = fake.upserts.length;
    const removed = await runSync(setup, connection.connectionId, deps);
    expect(removed.report).toMatchObject({ updated: 2, skipped: 2, created: 0 });
    expect(sentSince(fake, mark).sort()).toEqual(['update PL-A', 'update PL-B']);
    expect(sent('PL-A').translations).toEqual({ eng: { name: 'Cable' } });
    expect('translations' in sent('PL-B')).toBe(false);
    mark = fake.upserts.length;
    const again = await runSync(setup, connection.connectionId, deps);
    expect(again.report).toMatchObject({ updated: 0, skipped: 4 });

    // Italian published: its text, kept all along, goes out with C, once.
    await publish(['deu', 'eng', 'ita']);
    mark = fake.upserts.length;
    const added = await runSync(setup, connection.connectionId, deps);
    expect(added.report).toMatchObject({ updated: 1, skipped: 3 });
    expect(sentSince(fake, mark)).toEqual(['update PL-C']);
    expect(sent('PL-C').translations).toEqual({ ita: { name: 'Cavo' } });
  });
});
