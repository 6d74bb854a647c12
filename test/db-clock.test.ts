import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dbNow } from '../src/kernel/clock';
import { db, makeCatalog, makeCategory, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The Worker's clock is set to this during the writes; D1's clock is not affected. */
const WORKER_CLOCK = new Date('2001-02-03T04:05:06.789Z');

const databaseNow = async () => (await db().get<{ now: string }>(sql`SELECT ${dbNow} AS now`)).now;

describe('row timestamps come from one clock, the database', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the same ISO format as the column defaults (so updatedAt sorts and keyset cursors compare as strings)', async () => {
    const now = await databaseNow();
    expect(now).toMatch(ISO);
    expect(Math.abs(Date.parse(now) - Date.now())).toBeLessThan(60_000);
  });

  it('takes updatedAt of catalogs, categories, products and templates from D1, not from the Worker clock', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId);
    const product = await makeProduct(session, catalog.catalogId);
    const template = await call('POST', '/api/Export/AddTemplate', {
      cookie: session.cookie,
      body: { name: 'Clock', exportType: 'BMEcat' },
    });
    expect(template.status).toBe(200);
    const before = await databaseNow();
    const base = { cookie: session.cookie };
    const dept = { departmentId: session.departmentId, catalogId: catalog.catalogId };

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(WORKER_CLOCK);
    expect(new Date().toISOString()).toBe(WORKER_CLOCK.toISOString());
    const writes = [
      await call('POST', '/api/Catalog/UpdateCatalog', { ...base, body: { ...dept, name: 'Renamed' } }),
      await call('POST', '/api/Catalog/UpdateCategory', {
        ...base,
        body: { ...dept, categoryId: category.categoryId, name: 'Renamed' },
      }),
      await call('POST', '/api/Catalog/UpdateProduct', {
        ...base,
        body: { ...dept, productId: product.productId, name: 'Renamed' },
      }),
      await call('POST', '/api/Export/UpdateTemplate', {
        ...base,
        body: { templateId: template.json.templateId, name: 'Clock 2', exportType: 'BMEcat' },
      }),
    ];
    vi.useRealTimers();
    const after = await databaseNow();

    const categoryRow = await db().get<{ updated_at: string }>(
      sql`SELECT updated_at FROM categories WHERE id = ${category.categoryId}`,
    );
    const [catalogOut, , productOut, templateOut] = writes.map((w) => w.json?.updatedAt as string);
    const stamps = [catalogOut, categoryRow.updated_at, productOut, templateOut];
    for (const [i, w] of writes.entries()) expect(w.status, `write ${i}: ${w.text}`).toBe(200);
    for (const stamp of stamps as string[]) {
      expect(stamp).toMatch(ISO);
      expect(stamp >= before && stamp <= after, `${stamp} within [${before}, ${after}]`).toBe(true);
    }
  });
});
