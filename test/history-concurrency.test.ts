import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { updateProduct } from '../src/catalog/products';
import { setValue } from '../src/catalog/values';
import { setElementClassification } from '../src/classification/element-classification';
import { createClassification, deleteClassification, updateClassification } from '../src/classification/links';
import { historyVersions, products } from '../src/db/schema';
import { decodeChanges } from '../src/records/history-record';
import type { Json } from '../src/records/snapshot';
import { guardStatement, isWriteConflict } from '../src/records/write-guard';
import { revisionIs } from '../src/records/fingerprint-after';
import { fingerprintsOf } from '../src/records/sync-record';
import {
  asActor,
  classifyAsMcb,
  db,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { call } from './helpers/http';
import { countingDb } from './helpers/round-trips';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** What a write that kept losing races answers (docs/history.md, "Concurrency"): clean and retryable. */
const RETRY_MESSAGE = 'the element was changed by other writes at the same time; read it and send the change again';

/** Sends `count` requests at once and checks each answer is 200 or the documented 409; returns the 200 count. */
async function inParallel(count: number, request: (i: number) => Promise<{ status: number; json: unknown }>) {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => request(i)));
  for (const a of answers) {
    if (a.status !== 200)
      expect({ status: a.status, body: a.json }).toEqual({
        status: 409,
        body: { error: RETRY_MESSAGE, code: 'conflict' },
      });
  }
  return answers.filter((a) => a.status === 200).length;
}

const setValueCall = (session: Session, elementId: string, field: string, value: string) =>
  call('POST', '/api/Catalog/SetValue', {
    cookie: session.cookie,
    body: { departmentId: session.departmentId, elementId, field, value },
  });

/** The element's versions, oldest first, as (before, after) of `path` where they change it. */
async function chainOf(elementId: string, path: string) {
  const rows = await db()
    .select()
    .from(historyVersions)
    .where(eq(historyVersions.elementId, elementId))
    .orderBy(asc(historyVersions.id));
  return rows.flatMap((r) => decodeChanges(r.changes).filter((c) => c.path === path));
}

/** Every version's `before` is the previous version's `after`; the last `after` is what is stored. */
function expectUnbrokenChain(chain: { before: Json; after: Json }[], first: Json, stored: Json) {
  let previous = first;
  const broken: number[] = [];
  for (const [i, link] of chain.entries()) {
    if (JSON.stringify(link.before) !== JSON.stringify(previous)) broken.push(i);
    previous = link.after;
  }
  expect(broken).toEqual([]);
  expect(previous).toEqual(stored);
}

/** The master's stored fingerprint is current and equals a fresh computation from its rows. */
async function expectFreshFingerprint(companyId: string, masterId: string) {
  const row = await db().query.products.findFirst({ where: eq(products.id, masterId) });
  const [aggregate] = await loadProductAggregates(db(), companyId, [masterId]);
  const fresh = (await fingerprintsOf(db(), companyId, [aggregate!])).get(masterId);
  expect({ fingerprint: row!.fingerprint, revision: row!.fingerprintRevision }).toEqual({
    fingerprint: fresh,
    revision: row!.revision,
  });
}

async function productSetup(session: Session) {
  const catalog = await makeCatalog(session);
  const category = await makeCategory(session, catalog.catalogId, { name: 'Schutzschalter' });
  const product = await makeProduct(session, catalog.catalogId, {
    name: 'Start',
    sku: 'RACE-1',
    categoryIds: [category.categoryId],
  });
  // A variant makes the record (and its order by SKU) part of the fingerprint.
  await makeProduct(session, catalog.catalogId, { parentId: product.productId, sku: 'RACE-1-V', name: 'Variante' });
  return { catalog, category, product };
}

describe('The write guard', () => {
  it('rolls back a batch whose master revision moved since the read, as a recognised conflict', async () => {
    const session = await makeSession();
    const { product } = await productSetup(session);
    const read = (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!;
    const rename = (name: string) => db().update(products).set({ name }).where(eq(products.id, product.productId));
    const stale = revisionIs(session.companyId, product.productId, read.revision - 1);
    const error = await db()
      .batch([guardStatement(db(), stale), rename('Stale')])
      .catch((err: unknown) => err);
    expect(isWriteConflict(error)).toBe(true);
    expect((await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!.name).toBe('Start');
    await db().batch([
      guardStatement(db(), revisionIs(session.companyId, product.productId, read.revision)),
      rename('Fresh'),
    ]);
    expect((await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!.name).toBe('Fresh');
  });
});

describe('History under concurrency', () => {
  it.each([20, 100])(
    'keeps an unbroken chain for %i parallel SetValues of one product name',
    async (count) => {
      const session = await makeSession();
      const { product } = await productSetup(session);
      const ok = await inParallel(count, (i) => setValueCall(session, product.productId, 'name', `Name ${i}`));
      // After three lost races SetValue writes with its before read by SQL in the batch: never a 409.
      expect(ok).toBe(count);
      const stored = (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!;
      const chain = await chainOf(product.productId, 'name');
      expect(chain.length - 1).toBe(ok); // the creation plus one version per successful write
      expectUnbrokenChain(chain, null, stored.name);
      await expectFreshFingerprint(session.companyId, product.productId);
    },
    60_000,
  );

  it('keeps an unbroken chain for parallel SetValues of an attribute, a variant field and a feature', async () => {
    const session = await makeSession();
    const { product } = await productSetup(session);
    const variant = (await db().query.products.findFirst({ where: eq(products.parentId, product.productId) }))!;
    const attribute = await makeAttribute(session, { type: 'number', unit: 'mm' });
    await classifyAsMcb(session, product.productId, [{ code: 'EF000008', value: '230' }]);
    const writes = Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? () => setValueCall(session, product.productId, attribute.code, String(i))
        : i % 3 === 1
          ? () => setValueCall(session, variant.id, 'name', `Variante ${i}`)
          : () => setValueCall(session, product.productId, 'EF000008', String(100 + i)),
    );
    const ok = await inParallel(writes.length, (i) => writes[i]!());
    expect(ok).toBeGreaterThan(0);
    const features = await chainOf(product.productId, 'classification.feature.ETIM.EF000008');
    expectUnbrokenChain(features.slice(1), '230', features.at(-1)!.after);
    expectUnbrokenChain(
      await chainOf(product.productId, `values.${attribute.code}`),
      null,
      (await chainOf(product.productId, `values.${attribute.code}`)).at(-1)!.after,
    );
    const storedVariant = (await db().query.products.findFirst({ where: eq(products.id, variant.id) }))!;
    expectUnbrokenChain(await chainOf(variant.id, 'name'), null, storedVariant.name);
    await expectFreshFingerprint(session.companyId, product.productId);
  });

  it('keeps an unbroken chain for parallel SetValues of a category name (no revision: guarded on the value)', async () => {
    const session = await makeSession();
    const { category, product } = await productSetup(session);
    const ok = await inParallel(20, (i) => setValueCall(session, category.categoryId, 'name', `Kategorie ${i}`));
    expect(ok).toBeGreaterThan(0);
    const stored = (await db().query.categories.findFirst({ where: (c, { eq }) => eq(c.id, category.categoryId) }))!;
    expectUnbrokenChain(await chainOf(category.categoryId, 'name'), null, stored.name);
    // The products below carry the category's path: their fingerprints follow the last name.
    await expectFreshFingerprint(session.companyId, product.productId);
  });
});

describe('History under concurrency: UpdateProduct', () => {
  it('keeps unbroken chains of name, price and placements for 20 parallel UpdateProducts', async () => {
    const session = await makeSession();
    const { catalog, category, product } = await productSetup(session);
    const other = await makeCategory(session, catalog.catalogId, { name: 'Leitungen' });
    const ok = await inParallel(20, (i) =>
      call('POST', '/api/Catalog/UpdateProduct', {
        cookie: session.cookie,
        body: {
          departmentId: session.departmentId,
          catalogId: catalog.catalogId,
          productId: product.productId,
          name: `Update ${i}`,
          price: `${i}.50`,
          categoryIds: i % 2 === 0 ? [other.categoryId] : [category.categoryId, other.categoryId],
        },
      }),
    );
    expect(ok).toBeGreaterThan(0);
    const stored = (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!;
    expectUnbrokenChain(await chainOf(product.productId, 'name'), null, stored.name);
    expectUnbrokenChain(await chainOf(product.productId, 'price'), null, stored.price);
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [product.productId]);
    expectUnbrokenChain(await chainOf(product.productId, 'categories'), null, aggregate!.categoryIds);
    await expectFreshFingerprint(session.companyId, product.productId);
  });
});

describe('History under concurrency: classification writes', () => {
  /** A save of the class with one feature value, or (withClass false) the explicit removal. */
  const save = (session: Session, elementId: string, voltage: string, withClass = true) =>
    withClass
      ? call('POST', '/api/Classification/SetElementClassification', {
          cookie: session.cookie,
          body: {
            departmentId: session.departmentId,
            elementId,
            classes: [{ group: 'ETIM', code: 'EC000042' }],
            features: [{ code: 'EF000008', value: voltage }],
          },
        })
      : call('POST', '/api/Classification/DeleteElementClassification', {
          cookie: session.cookie,
          body: { departmentId: session.departmentId, elementId },
          // A removal that finds nothing left to remove (another removal came first) is a right
          // answer of the race, not a failure: counted like a success.
        }).then((a) => (a.status === 404 ? { ...a, status: 200 } : a));

  it('keeps an unbroken chain of a feature for 20 parallel classification saves and SetValues of a product', async () => {
    const session = await makeSession();
    const { product } = await productSetup(session);
    await classifyAsMcb(session, product.productId, [{ code: 'EF000008', value: '230' }]);
    const ok = await inParallel(20, (i) =>
      i % 2 === 0
        ? save(session, product.productId, String(200 + i))
        : setValueCall(session, product.productId, 'EF000008', String(300 + i)),
    );
    expect(ok).toBeGreaterThan(0);
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [product.productId]);
    const stored = aggregate!.classification!.features.find((f) => f.code === 'EF000008')!.value;
    expectUnbrokenChain(await chainOf(product.productId, 'classification.feature.ETIM.EF000008'), null, stored);
    expectUnbrokenChain(await chainOf(product.productId, 'classification.class.ETIM'), null, 'EC000042');
    await expectFreshFingerprint(session.companyId, product.productId);
  });

  it('keeps an unbroken chain for 20 parallel saves and removals of a category classification (guarded on its state)', async () => {
    const session = await makeSession();
    const { category } = await productSetup(session);
    const ok = await inParallel(20, (i) => save(session, category.categoryId, String(100 + i), i % 4 !== 3));
    expect(ok).toBeGreaterThan(0);
    const after = await call('GET', `/api/Classification/GetElementClassification?elementId=${category.categoryId}`, {
      cookie: session.cookie,
    });
    const stored = after.json.classification?.features.find((f: { code: string }) => f.code === 'EF000008')?.value;
    expectUnbrokenChain(
      await chainOf(category.categoryId, 'classification.feature.ETIM.EF000008'),
      null,
      stored ?? null,
    );
    expectUnbrokenChain(
      await chainOf(category.categoryId, 'classification.name'),
      null,
      after.json.classification?.name ?? null,
    );
  });
});

describe('Round trips per write', () => {
  it('the classification writes take 2 round trips each (at most 3) and answer what a read shows', async () => {
    const session = await makeSession();
    const { product } = await productSetup(session);
    const actor = asActor(session);
    const counting = countingDb();
    const created = await createClassification(counting.db, actor, {
      elementId: product.productId,
      name: 'MCB',
      classificationGroups: 1,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000008', value: '230' }],
    });
    expect(counting.trips()).toBe(2);
    await expectFreshFingerprint(session.companyId, product.productId);
    counting.reset();
    const updated = await updateClassification(counting.db, actor, {
      linkId: created.linkId,
      features: [{ code: 'EF000008', value: '400' }],
    });
    expect(counting.trips()).toBe(2);
    const read = await call('GET', `/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      cookie: session.cookie,
    });
    expect(read.json.classification).toEqual(updated);
    await expectFreshFingerprint(session.companyId, product.productId);
    counting.reset();
    const saved = await setElementClassification(counting.db, actor, {
      departmentId: session.departmentId,
      elementId: product.productId,
      classes: [{ group: 'ETIM', code: 'EC000042' }],
      features: [{ code: 'EF000008', value: '230' }],
    });
    expect(counting.trips()).toBe(2);
    expect(saved.classification).toMatchObject({ features: [{ code: 'EF000008', value: '230', unit: 'VLT' }] });
    await expectFreshFingerprint(session.companyId, product.productId);
    counting.reset();
    await deleteClassification(counting.db, actor, created.linkId);
    expect(counting.trips()).toBe(2);
    await expectFreshFingerprint(session.companyId, product.productId);
  });

  it('UpdateProduct of fields and placements takes 2 round trips (at most 3) and answers the stored product', async () => {
    const session = await makeSession();
    const { catalog, category, product } = await productSetup(session);
    const counting = countingDb();
    const out = await updateProduct(counting.db, asActor(session), {
      departmentId: session.departmentId,
      catalogId: catalog.catalogId,
      productId: product.productId,
      name: 'Gezählt',
      price: '7.25',
      categoryIds: [category.categoryId],
    });
    expect(counting.trips()).toBe(2);
    const row = (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!;
    expect(out).toMatchObject({ name: 'Gezählt', price: '7.25', categoryIds: [category.categoryId] });
    expect({ updatedAt: out.updatedAt, fingerprint: out.fingerprint }).toEqual({
      updatedAt: row.updatedAt,
      fingerprint: row.fingerprint,
    });
    await expectFreshFingerprint(session.companyId, product.productId);
  });

  it('SetValue of a product field, an attribute and a feature takes 2 round trips (at most 3)', async () => {
    const session = await makeSession();
    const { product } = await productSetup(session);
    const attribute = await makeAttribute(session, { type: 'text' });
    await classifyAsMcb(session, product.productId, [{ code: 'EF000008', value: '230' }]);
    const counting = countingDb();
    for (const [field, value] of [
      ['name', 'Gezählt'],
      [attribute.code, 'rot'],
      ['EF000008', '400'],
    ] as const) {
      counting.reset();
      await setValue(counting.db, asActor(session), {
        departmentId: session.departmentId,
        elementId: product.productId,
        field,
        value,
      });
      expect({ field, trips: counting.trips() }).toEqual({ field, trips: 2 });
    }
    await expectFreshFingerprint(session.companyId, product.productId);
  });
});
