import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { moveCategory, updateCategory } from '../../src/catalog/categories';
import { setValue } from '../../src/catalog/values';
import { products } from '../../src/db/schema';
import type { Product } from '../../src/sync/protocol/wire';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeCategory } from '../helpers/factories';
import { connect, product, runSync, syncDeps, syncSetup, type Setup } from '../helpers/sync-fixtures';

/** The SKUs and ops of the upsert records sent since `from` (index into fake.upserts). */
function sentSince(fake: FakeConnector, from: number): string[] {
  return fake.upserts.slice(from).flatMap((u) => u.records.map((r) => `${r.op} ${r.sku}`));
}

async function current(productId: string) {
  const row = (await db().query.products.findFirst({ where: eq(products.id, productId) }))!;
  return row.fingerprintRevision === row.revision;
}

async function tree(setup: Setup) {
  const root = await makeCategory(setup.company, setup.catalogId, { name: 'Elektro' });
  const leaf = await makeCategory(setup.company, setup.catalogId, {
    name: 'Schutzschalter',
    parentId: root.categoryId,
  });
  const other = await makeCategory(setup.company, setup.catalogId, { name: 'Kabel' });
  const a = await product(setup, 'CN-A', { categoryIds: [leaf.categoryId] }, true);
  const b = await product(setup, 'CN-B', { categoryIds: [leaf.categoryId] });
  const c = await product(setup, 'CN-C', { categoryIds: [root.categoryId] });
  const d = await product(setup, 'CN-D', { categoryIds: [other.categoryId] });
  await product(setup, 'CN-E');
  return { root, leaf, other, a, b, c, d };
}

describe('category names in the sync record', () => {
  it('a renamed or moved category sends exactly the products placed in it or below it as updates', async () => {
    const setup = await syncSetup();
    const { root, leaf, other, a, b, c } = await tree(setup);
    const connection = await connect(setup);
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake);
    const first = await runSync(setup, connection.connectionId, deps);
    expect(first.report).toMatchObject({ created: 5 });
    const base = { departmentId: setup.company.departmentId, catalogId: setup.catalogId };

    // UpdateCategory renames the leaf: its two products change, nothing else.
    await updateCategory(db(), setup.caller, { ...base, categoryId: leaf.categoryId, name: 'Leitungsschutzschalter' });
    expect(await current(a.productId)).toBe(true);
    let mark = fake.upserts.length;
    const afterLeaf = await runSync(setup, connection.connectionId, deps);
    expect(afterLeaf.report).toMatchObject({ updated: 2, skipped: 3, created: 0 });
    expect(sentSince(fake, mark)).toEqual(['update CN-A', 'update CN-B']);
    expect((fake.products.get('CN-B')!.product as Product).categories).toEqual([
      { id: leaf.categoryId, path: ['Elektro', 'Leitungsschutzschalter'] },
    ]);

    // SetValue renames the root: the path of every product in the subtree changes.
    await setValue(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: root.categoryId,
      field: 'name',
      value: 'Elektroinstallation',
    });
    mark = fake.upserts.length;
    const afterRoot = await runSync(setup, connection.connectionId, deps);
    expect(afterRoot.report).toMatchObject({ updated: 3, skipped: 2 });
    expect(sentSince(fake, mark)).toEqual(['update CN-A', 'update CN-B', 'update CN-C']);
    expect((fake.products.get('CN-C')!.product as Product).categories).toEqual([
      { id: root.categoryId, path: ['Elektroinstallation'] },
    ]);
    expect(await current(c.productId)).toBe(true);

    // A move changes the path too; a description or the same name changes nothing the shop gets.
    await moveCategory(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      categoryId: other.categoryId,
      parentId: root.categoryId,
    });
    await updateCategory(db(), setup.caller, {
      ...base,
      categoryId: leaf.categoryId,
      name: 'Leitungsschutzschalter',
      description: 'Nur die Beschreibung',
    });
    mark = fake.upserts.length;
    const afterMove = await runSync(setup, connection.connectionId, deps);
    expect(afterMove.report).toMatchObject({ updated: 1, skipped: 4 });
    expect(sentSince(fake, mark)).toEqual(['update CN-D']);
    expect((fake.products.get('CN-D')!.product as Product).categories[0]!.path).toEqual([
      'Elektroinstallation',
      'Kabel',
    ]);

    const noop = await runSync(setup, connection.connectionId, deps);
    expect(noop.report).toMatchObject({ updated: 0, skipped: 5 });
    expect(await current(b.productId)).toBe(true);
  });

  it('a renamed category leaves the products of other companies and catalogs alone', async () => {
    const mine = await syncSetup();
    const theirs = await syncSetup();
    const { leaf } = await tree(mine);
    const foreign = await product(theirs, 'CN-X');
    const before = (await db().query.products.findFirst({ where: eq(products.id, foreign.productId) }))!;
    await updateCategory(db(), mine.caller, {
      departmentId: mine.company.departmentId,
      catalogId: mine.catalogId,
      categoryId: leaf.categoryId,
      name: 'Umbenannt',
    });
    const after = (await db().query.products.findFirst({ where: eq(products.id, foreign.productId) }))!;
    expect(after.revision).toBe(before.revision);
  });
});
