import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { getProduct } from '../src/catalog/product-queries';
import { skuTaken } from '../src/model/sku';
import { fingerprintsOf } from '../src/records/sync-record';
import { loadProductAggregates } from '../src/model/product-aggregate';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

describe('concurrent writes (docs/reliability.md)', () => {
  it('20 parallel AddProduct with one SKU: one wins, the rest 409, one row', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/api/Catalog/AddProduct', {
          cookie: session.cookie,
          body: { departmentId: session.departmentId, catalogId: catalog.catalogId, sku: 'SAME-SKU', name: `Try ${i}` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect(results.every((r) => r.status === 200 || typeof r.json.error === 'string')).toBe(true);
    expect(await db().$count(products, eq(products.catalogId, catalog.catalogId))).toBe(1);
    const stats = await call('GET', `/api/Catalog/GetCatalog?catalogId=${catalog.catalogId}`, {
      cookie: session.cookie,
    });
    expect(stats.json.productCount).toBe(1);
  });

  it('50 parallel writes to one product: the stored fingerprint matches the final record', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const product = await makeProduct(session, catalog.catalogId);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? call('POST', '/api/Catalog/UpdateProduct', {
              cookie: session.cookie,
              body: {
                departmentId: session.departmentId,
                catalogId: catalog.catalogId,
                productId: product.productId,
                name: `Name ${i}`,
                price: `${i}.50`,
              },
            })
          : call('POST', '/api/Catalog/SetValue', {
              cookie: session.cookie,
              body: {
                departmentId: session.departmentId,
                elementId: product.productId,
                field: 'description',
                value: `Text ${i}`,
              },
            }),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    const [aggregate] = await loadProductAggregates(db(), session.companyId, [product.productId]);
    const stored = (await db().query.products.findFirst({ where: eq(products.id, product.productId) }))!;
    expect(stored.fingerprint).toBe(
      (await fingerprintsOf(db(), session.companyId, [aggregate!])).get(aggregate!.product.id),
    );
    const final = await getProduct(db(), session, product.productId);
    expect(final.name).toMatch(/^Name \d+$/);
    expect(final.price).toBe(`${final.name!.slice(5)}.50`);
  });

  it('10 parallel UpsertProducts creating one SKU: no 5xx, a lost race answers the same 409 as AddProduct, one row', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call('POST', '/api/Catalog/UpsertProducts', {
          cookie: session.cookie,
          body: {
            departmentId: session.departmentId,
            catalogId: catalog.catalogId,
            items: [{ sku: 'RACE-SKU', name: `Try ${i}` }],
          },
        }),
      ),
    );
    expect(results.map((r) => r.status).filter((s) => s !== 200 && s !== 409)).toEqual([]);
    for (const r of results.filter((r) => r.status === 409)) {
      expect(r.json).toEqual({ error: skuTaken(null).message, code: 'conflict' });
    }
    const created = results.filter((r) => r.status === 200 && r.json.items[0].status === 'created');
    expect(created).toHaveLength(1);
    expect(await db().$count(products, eq(products.catalogId, catalog.catalogId))).toBe(1);
  });
});
