import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { deleteCategory, moveCategory } from '../src/catalog/categories';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { getProduct } from '../src/catalog/product-queries';
import { deleteProduct, updateProduct } from '../src/catalog/products';
import { setValue } from '../src/catalog/values';
import { updateClassification } from '../src/classification/links';
import { products } from '../src/db/schema';
import { attachMedia, deleteMedia } from '../src/media/media';
import { fingerprintOf, fingerprintsOf, syncRecord } from '../src/records/sync-record';
import {
  classifyAsMcb,
  db,
  makeAttribute,
  makeCatalog,
  makeCategory,
  makeProduct,
  makeSession,
} from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function stored(masterId: string) {
  const row = (await db().query.products.findFirst({ where: eq(products.id, masterId) }))!;
  return { fingerprint: row.fingerprint, current: row.fingerprintRevision === row.revision };
}

/** Runs a write and checks that the master's fingerprint moved, is current and matches a recomputation. */
async function expectChange(session: Session, masterId: string, write: () => Promise<unknown>) {
  const before = await stored(masterId);
  await write();
  const after = await stored(masterId);
  expect(after.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  expect(after.fingerprint).not.toBe(before.fingerprint);
  expect(after.current).toBe(true);
  const [aggregate] = await loadProductAggregates(db(), session.companyId, [masterId]);
  expect(after.fingerprint).toBe(
    (await fingerprintsOf(db(), session.companyId, [aggregate!])).get(aggregate!.product.id),
  );
  return after.fingerprint;
}

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const master = await makeProduct(session, catalog.catalogId, { sku: 'FP-1', name: 'Fingerprinted' });
  return { session, catalog, master };
}

describe('sync fingerprint', () => {
  it('is set when a master is created and matches its sync record', async () => {
    const { session, master } = await setup();
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [master.productId]);
    expect(master.fingerprint).toBe(
      (await fingerprintsOf(db(), session.companyId, [aggregate!])).get(aggregate!.product.id),
    );
    expect((await stored(master.productId)).current).toBe(true);
  });

  it('changes when a built-in field changes (UpdateProduct and SetValue)', async () => {
    const { session, catalog, master } = await setup();
    await expectChange(session, master.productId, () =>
      updateProduct(db(), session, {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: master.productId,
        price: '9.99',
      }),
    );
    await expectChange(session, master.productId, () =>
      setValue(db(), session, {
        departmentId: session.departmentId,
        elementId: master.productId,
        field: 'name',
        value: 'Renamed',
      }),
    );
  });

  it('changes when an attribute value is set or removed', async () => {
    const { session, master } = await setup();
    const attribute = await makeAttribute(session, { type: 'number', unit: 'V' });
    const input = { departmentId: session.departmentId, elementId: master.productId, field: attribute.code };
    await expectChange(session, master.productId, () => setValue(db(), session, { ...input, value: '230' }));
    await expectChange(session, master.productId, () => setValue(db(), session, { ...input, value: '400' }));
    await expectChange(session, master.productId, () => setValue(db(), session, { ...input, value: '' }));
  });

  it('changes when a variant is added, changed or removed', async () => {
    const { session, catalog, master } = await setup();
    let variantId = '';
    await expectChange(session, master.productId, async () => {
      variantId = (await makeProduct(session, catalog.catalogId, { parentId: master.productId, sku: 'FP-1-A' }))
        .productId;
    });
    await expectChange(session, master.productId, () =>
      setValue(db(), session, {
        departmentId: session.departmentId,
        elementId: variantId,
        field: 'price',
        value: '1.50',
      }),
    );
    await expectChange(session, master.productId, () =>
      deleteProduct({ db: db(), files: env.FILES }, session, {
        departmentId: session.departmentId,
        productId: variantId,
      }),
    );
  });

  it('changes when the classification or a feature value changes', async () => {
    const { session, master } = await setup();
    let linkId = '';
    await expectChange(session, master.productId, async () => {
      linkId = (await classifyAsMcb(session, master.productId)).linkId;
    });
    await expectChange(session, master.productId, () =>
      setValue(db(), session, {
        departmentId: session.departmentId,
        elementId: master.productId,
        field: 'EF000008',
        value: '230',
      }),
    );
    await expectChange(session, master.productId, () =>
      updateClassification(db(), session, {
        linkId,
        classificationGroups: 1,
        classes: [{ group: 'ETIM', code: 'EC000044' }],
      }),
    );
  });

  it('changes when media is attached or removed', async () => {
    const { session, master } = await setup();
    const deps = { db: db(), files: env.FILES };
    let mediaId = '';
    await expectChange(session, master.productId, async () => {
      mediaId = (
        await attachMedia(deps, session, {
          departmentId: session.departmentId,
          elementId: master.productId,
          fileName: 'a.pdf',
          purpose: 'data_sheet',
          contentType: 'application/pdf',
          bytes: new TextEncoder().encode('%PDF-1.4'),
        })
      ).mediaId;
    });
    await expectChange(session, master.productId, () =>
      deleteMedia(deps, session, { departmentId: session.departmentId, mediaId }),
    );
  });

  it('changes when the category placement changes, including by deleting the category', async () => {
    const { session, catalog, master } = await setup();
    const a = await makeCategory(session, catalog.catalogId);
    const b = await makeCategory(session, catalog.catalogId);
    const placeIn = (categoryIds: string[]) =>
      updateProduct(db(), session, {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: master.productId,
        categoryIds,
      });
    await expectChange(session, master.productId, () => placeIn([a.categoryId]));
    await expectChange(session, master.productId, () => placeIn([a.categoryId, b.categoryId]));
    await expectChange(session, master.productId, () =>
      deleteCategory({ db: db(), files: env.FILES }, session, {
        departmentId: session.departmentId,
        categoryId: b.categoryId,
      }),
    );
    expect((await getProduct(db(), session, master.productId)).categoryIds).toEqual([a.categoryId]);
  });

  it('does not change on reads or on writes to other products, and changes when its category moves', async () => {
    const { session, catalog, master } = await setup();
    const a = await makeCategory(session, catalog.catalogId);
    const b = await makeCategory(session, catalog.catalogId);
    await updateProduct(db(), session, {
      departmentId: session.departmentId,
      catalogId: catalog.catalogId,
      productId: master.productId,
      categoryIds: [a.categoryId],
    });
    const before = await stored(master.productId);
    await call('GET', `/api/Catalog/GetProduct?productId=${master.productId}`, { cookie: session.cookie });
    await call('GET', `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}`, { cookie: session.cookie });
    await getProduct(db(), session, master.productId);
    const other = await makeProduct(session, catalog.catalogId);
    await setValue(db(), session, {
      departmentId: session.departmentId,
      elementId: other.productId,
      field: 'name',
      value: 'Other',
    });
    expect(await stored(master.productId)).toEqual(before);
    // The sync record carries each category's path of names (docs/sync.md "Category names"):
    // moving the product's category below another changes it, and the new hash is current.
    await moveCategory(db(), session, {
      departmentId: session.departmentId,
      categoryId: a.categoryId,
      parentId: b.categoryId,
    });
    const moved = await stored(master.productId);
    expect(moved.fingerprint).not.toBe(before.fingerprint);
    expect(moved.current).toBe(true);
  });

  it('changes when a link of its category is added, changed, moved or removed, not for a product in a subcategory', async () => {
    // A placement carries its category's media links on the wire (docs/shops.md "Category
    // images"), so the records of the products placed in it go stale with them, as on a rename.
    const { session, catalog, master } = await setup();
    const parent = await makeCategory(session, catalog.catalogId, { name: 'Zangen' });
    const child = await makeCategory(session, catalog.catalogId, {
      name: 'Seitenschneider',
      parentId: parent.categoryId,
    });
    const below = await makeProduct(session, catalog.catalogId, { sku: 'FP-2' });
    const placeIn = (productId: string, categoryId: string) =>
      updateProduct(db(), session, {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId,
        categoryIds: [categoryId],
      });
    await placeIn(master.productId, parent.categoryId);
    await placeIn(below.productId, child.categoryId);
    const belowBefore = await stored(below.productId);
    const placed = await stored(master.productId);
    const media = (path: string, body: Record<string, unknown>) =>
      call('POST', `/api/Media/${path}`, {
        cookie: session.cookie,
        body: { departmentId: session.departmentId, ...body },
      });
    let picture = '';
    await expectChange(session, master.productId, async () => {
      const res = await media('AddLink', {
        elementId: parent.categoryId,
        url: 'https://cdn.example.com/cat/zangen.jpg',
        purpose: 'normal',
      });
      expect(res.status).toBe(200);
      picture = res.json.mediaId;
    });
    let banner = '';
    await expectChange(session, master.productId, async () => {
      const res = await media('AddLink', {
        elementId: parent.categoryId,
        url: 'https://cdn.example.com/cat/banner.png',
        purpose: 'detail',
      });
      expect(res.status).toBe(200);
      banner = res.json.mediaId;
    });
    await expectChange(session, master.productId, async () => {
      const res = await media('UpdateLink', { mediaId: picture, url: 'https://cdn.example.com/cat/zangen-2.jpg' });
      expect(res.status).toBe(200);
    });
    await expectChange(session, master.productId, async () => {
      const res = await media('Reorder', { elementId: parent.categoryId, mediaIds: [banner, picture] });
      expect(res.status).toBe(200);
    });
    await expectChange(session, master.productId, async () => {
      const res = await media('Delete', { mediaId: banner });
      expect(res.status).toBe(200);
    });
    // The subcategory's placement carries the subcategory's links only: nothing moved there.
    expect(await stored(below.productId)).toEqual(belowBefore);
    // Without links the record is the one of a category that never had any.
    await expectChange(session, master.productId, () => media('Delete', { mediaId: picture }));
    expect(await stored(master.productId)).toEqual(placed);
  });

  it('is the same for a category without links as before links reached the record', async () => {
    const { session, catalog, master } = await setup();
    const a = await makeCategory(session, catalog.catalogId);
    await updateProduct(db(), session, {
      departmentId: session.departmentId,
      catalogId: catalog.catalogId,
      productId: master.productId,
      categoryIds: [a.categoryId],
    });
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [master.productId]);
    const names = await stored(master.productId);
    const path = (id: string) => (id === a.categoryId ? [a.name] : undefined);
    expect(names.fingerprint).toBe(await fingerprintOf(syncRecord(aggregate!, { path, links: () => undefined })));
    expect(syncRecord(aggregate!, { path, links: () => undefined }).categories).toEqual([
      { id: a.categoryId, path: [a.name] },
    ]);
  });

  it('is not exposed on variants', async () => {
    const { session, catalog, master } = await setup();
    const variant = await makeProduct(session, catalog.catalogId, { parentId: master.productId });
    expect(variant.fingerprint).toBeNull();
    expect((await getProduct(db(), session, master.productId)).fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});
