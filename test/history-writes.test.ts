import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { historyVersions } from '../src/db/schema';
import { addTemplate } from '../src/exports/templates';
import { historyStatements } from '../src/records/history-record';
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
import { send } from './oauth-helpers';

type Session = Awaited<ReturnType<typeof makeSession>>;

interface Fixture {
  s: Session;
  catalogId: string;
  categoryId: string;
  productId: string;
  post: (path: string, json: Record<string, unknown>) => Promise<any>;
  /** Export templates belong to the company, not to a department. */
  postCompany: (path: string, json: Record<string, unknown>) => Promise<any>;
}

async function fixture(): Promise<Fixture> {
  const s = await makeSession();
  const catalog = await makeCatalog(s);
  const category = await makeCategory(s, catalog.catalogId);
  const product = await makeProduct(s, catalog.catalogId, { name: 'P', categoryIds: [category.categoryId] });
  const postCompany = async (path: string, json: Record<string, unknown>) => {
    const res = await send('POST', path, { cookie: s.cookie, json });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json;
  };
  const post = (path: string, json: Record<string, unknown>) =>
    postCompany(path, { departmentId: s.departmentId, ...json });
  return {
    s,
    catalogId: catalog.catalogId,
    categoryId: category.categoryId,
    productId: product.productId,
    post,
    postCompany,
  };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function upload(f: Fixture) {
  const query = new URLSearchParams({ departmentId: f.s.departmentId, elementId: f.productId, fileName: 'front.png' });
  const res = await exports.default.fetch(
    new Request(`https://pim.test/api/Media/Upload?${query}`, {
      method: 'POST',
      headers: { Cookie: f.s.cookie, 'Content-Type': 'image/png' },
      body: PNG,
    }),
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { mediaId: string }).mediaId;
}

/** Each write operation: what it does, and the element, action and paths its newest version must show. */
const CASES: [string, (f: Fixture) => Promise<{ elementId: string; action: string; paths: string[] }>][] = [
  [
    'AddCatalog',
    async (f) => ({
      elementId: (await f.post('/api/Catalog/AddCatalog', { name: 'New' })).catalogId,
      action: 'create',
      paths: ['currency', 'departmentId', 'language', 'languages', 'name'],
    }),
  ],
  [
    'UpdateCatalog',
    async (f) => (
      await f.post('/api/Catalog/UpdateCatalog', { catalogId: f.catalogId, name: 'Renamed' }),
      { elementId: f.catalogId, action: 'update', paths: ['name'] }
    ),
  ],
  [
    'DeleteCatalog',
    async (f) => (
      await f.post('/api/Catalog/DeleteCatalog', { catalogId: f.catalogId }),
      { elementId: f.catalogId, action: 'delete', paths: ['currency', 'departmentId', 'language', 'languages', 'name'] }
    ),
  ],
  [
    'AddCategory',
    async (f) => ({
      elementId: (await f.post('/api/Catalog/AddCategory', { catalogId: f.catalogId, name: 'C' })).categoryId,
      action: 'create',
      paths: ['name', 'sortOrder'],
    }),
  ],
  [
    'UpdateCategory',
    async (f) => (
      await f.post('/api/Catalog/UpdateCategory', {
        catalogId: f.catalogId,
        categoryId: f.categoryId,
        name: 'C2',
        sortOrder: 4,
      }),
      { elementId: f.categoryId, action: 'update', paths: ['name', 'sortOrder'] }
    ),
  ],
  [
    'MoveCategory',
    async (f) => {
      const parent = await makeCategory(f.s, f.catalogId);
      await f.post('/api/Catalog/MoveCategory', { categoryId: f.categoryId, parentId: parent.categoryId });
      return { elementId: f.categoryId, action: 'update', paths: ['parentId'] };
    },
  ],
  [
    'DeleteCategory (the category)',
    async (f) => (
      await f.post('/api/Catalog/DeleteCategory', { categoryId: f.categoryId }),
      { elementId: f.categoryId, action: 'delete', paths: ['name', 'sortOrder'] }
    ),
  ],
  [
    'DeleteCategory (placements of its products)',
    async (f) => (
      await f.post('/api/Catalog/DeleteCategory', { categoryId: f.categoryId }),
      { elementId: f.productId, action: 'update', paths: ['categories'] }
    ),
  ],
  [
    'AddProduct',
    async (f) => ({
      elementId: (await f.post('/api/Catalog/AddProduct', { catalogId: f.catalogId, sku: 'N-1', name: 'N' })).productId,
      action: 'create',
      paths: ['name', 'sku', 'status'],
    }),
  ],
  [
    'AddProduct (variant, on its master)',
    async (f) => (
      await f.post('/api/Catalog/AddProduct', { catalogId: f.catalogId, parentId: f.productId, sku: 'V-1' }),
      { elementId: f.productId, action: 'update', paths: ['variants'] }
    ),
  ],
  [
    'UpdateProduct',
    async (f) => (
      await f.post('/api/Catalog/UpdateProduct', {
        catalogId: f.catalogId,
        productId: f.productId,
        price: '9.5',
        categoryIds: [],
      }),
      { elementId: f.productId, action: 'update', paths: ['categories', 'price'] }
    ),
  ],
  [
    'DeleteProduct',
    async (f) => (
      await f.post('/api/Catalog/DeleteProduct', { productId: f.productId }),
      { elementId: f.productId, action: 'delete', paths: ['categories', 'name', 'sku', 'status'] }
    ),
  ],
  [
    'SetValue (built-in)',
    async (f) => (
      await f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'gtin', value: '4006209123454' }),
      { elementId: f.productId, action: 'update', paths: ['gtin'] }
    ),
  ],
  [
    'SetValue (attribute)',
    async (f) => {
      const attr = await makeAttribute(f.s, { type: 'boolean' });
      await f.post('/api/Catalog/SetValue', { elementId: f.productId, field: attr.code, value: '1' });
      return { elementId: f.productId, action: 'update', paths: [`values.${attr.code}`] };
    },
  ],
  [
    'SetValue (classification feature)',
    async (f) => {
      await classifyAsMcb(f.s, f.productId);
      await f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'EF000008', value: '230' });
      return { elementId: f.productId, action: 'update', paths: ['classification.feature.ETIM.EF000008'] };
    },
  ],
  [
    'CreateClassification',
    async (f) => (
      await classifyAsMcb(f.s, f.productId),
      {
        elementId: f.productId,
        action: 'update',
        paths: ['classification.class.ETIM', 'classification.groups', 'classification.name'],
      }
    ),
  ],
  [
    'Media Upload',
    async (f) => {
      const mediaId = await upload(f);
      return { elementId: f.productId, action: 'update', paths: [`media.${mediaId}`] };
    },
  ],
  [
    'Media Delete',
    async (f) => {
      const mediaId = await upload(f);
      await f.post('/api/Media/Delete', { mediaId });
      return { elementId: f.productId, action: 'update', paths: [`media.${mediaId}`] };
    },
  ],
  [
    'AddProduct (the variant)',
    async (f) => ({
      elementId: (
        await f.post('/api/Catalog/AddProduct', { catalogId: f.catalogId, parentId: f.productId, sku: 'V-1' })
      ).productId,
      action: 'create',
      paths: ['sku', 'status'],
    }),
  ],
  [
    'SetValue (variant)',
    async (f) => {
      const variant = await makeProduct(f.s, f.catalogId, { parentId: f.productId });
      await f.post('/api/Catalog/SetValue', { elementId: variant.productId, field: 'gtin', value: '4006209123454' });
      return { elementId: variant.productId, action: 'update', paths: ['gtin'] };
    },
  ],
  [
    'DeleteProduct (variant)',
    async (f) => {
      const variant = await makeProduct(f.s, f.catalogId, { parentId: f.productId, name: 'V' });
      await f.post('/api/Catalog/DeleteProduct', { productId: variant.productId });
      return { elementId: variant.productId, action: 'delete', paths: ['name', 'sku', 'status'] };
    },
  ],
  [
    'SetPrices',
    async (f) => (
      await f.post('/api/Catalog/SetPrices', { productId: f.productId, prices: [{ type: 'nrp', amount: '9.90' }] }),
      { elementId: f.productId, action: 'update', paths: ['price', 'prices'] }
    ),
  ],
  [
    'SetReferences',
    async (f) => (
      await f.post('/api/Catalog/SetReferences', {
        productId: f.productId,
        references: [{ type: 'followup', targetSku: 'Z-3' }],
      }),
      { elementId: f.productId, action: 'update', paths: ['references'] }
    ),
  ],
  [
    'SetFeatureBlocks',
    async (f) => (
      await f.post('/api/Catalog/SetFeatureBlocks', {
        productId: f.productId,
        featureBlocks: [{ system: 'UNSPSC', groupId: '39121601', features: [{ name: 'Farbe', values: ['grau'] }] }],
      }),
      { elementId: f.productId, action: 'update', paths: ['featureBlocks'] }
    ),
  ],
  [
    'Media AddLink, UpdateLink, UpdateMedia and Reorder',
    async (f) => {
      const first = await f.post('/api/Media/AddLink', { elementId: f.productId, url: 'https://files.example/1.pdf' });
      const second = await f.post('/api/Media/AddLink', { elementId: f.productId, url: 'https://files.example/2.pdf' });
      await f.post('/api/Media/UpdateLink', { mediaId: first.mediaId, purpose: 'data_sheet' });
      await f.post('/api/Media/UpdateMedia', { mediaId: first.mediaId, description: 'Datenblatt' });
      await f.post('/api/Media/Reorder', { elementId: f.productId, mediaIds: [second.mediaId, first.mediaId] });
      return {
        elementId: f.productId,
        action: 'update',
        paths: [`media.${first.mediaId}`, `media.${second.mediaId}`].sort(),
      };
    },
  ],
  [
    'RestoreVersion',
    async (f) => {
      const { json } = await send('GET', `/api/Catalog/GetHistory?elementId=${f.productId}&limit=1`, {
        cookie: f.s.cookie,
      });
      await f.post('/api/Catalog/SetValue', { elementId: f.productId, field: 'gtin', value: '4006209123454' });
      await f.post('/api/Catalog/RestoreVersion', { elementId: f.productId, versionId: json.items[0].versionId });
      return { elementId: f.productId, action: 'restore', paths: ['gtin'] };
    },
  ],
  [
    'UpsertProducts (a master with a variant)',
    async (f) => {
      const res = await f.post('/api/Catalog/UpsertProducts', {
        catalogId: f.catalogId,
        items: [{ sku: 'U-1', name: 'U', variants: [{ sku: 'U-1-V' }] }],
      });
      const [item] = res.items;
      return { elementId: item.productId, action: 'create', paths: ['name', 'sku', 'status', 'variants'] };
    },
  ],
  [
    'AddTemplate',
    async (f) => ({
      elementId: (await f.postCompany('/api/Export/AddTemplate', { name: 'T', exportType: 'CSV' })).templateId,
      action: 'create',
      paths: ['exportType', 'language', 'name', 'options'],
    }),
  ],
  [
    'UpdateTemplate',
    async (f) => {
      const t = await addTemplate(db(), asActor(f.s), { name: 'T', exportType: 'CSV' });
      await f.postCompany('/api/Export/UpdateTemplate', { templateId: t.templateId, name: 'T2', exportType: 'CSV' });
      return { elementId: t.templateId, action: 'update', paths: ['name'] };
    },
  ],
  [
    'DeleteTemplate',
    async (f) => {
      const t = await addTemplate(db(), asActor(f.s), { name: 'T', exportType: 'CSV' });
      await f.postCompany('/api/Export/DeleteTemplate', { templateId: t.templateId });
      return { elementId: t.templateId, action: 'delete', paths: ['exportType', 'language', 'name', 'options'] };
    },
  ],
];

/**
 * Every product or variant version of the fixture's company records where the element lies
 * (migration 0088, docs/history.md): the fixture's catalog (every product of a case is in it)
 * and its master (its own id for a master, another for a variant); any other element's none.
 * A writer that forgets it fails here (and `historyStatements` refuses such an entry).
 */
async function expectPlacesRecorded(f: Fixture) {
  const { results } = await env.DB.prepare(
    `SELECT h.element_kind AS kind, h.element_id AS id, h.catalog_id AS catalogId, h.master_id AS masterId,
       (SELECT p.parent_id FROM products p WHERE p.id = h.element_id) AS parentNow
     FROM history_versions h WHERE h.company_id = ?`,
  )
    .bind(f.s.companyId)
    .all<{ kind: string; id: string; catalogId: string | null; masterId: string | null; parentNow: string | null }>();
  expect(results.some((r) => r.kind === 'product')).toBe(true);
  for (const r of results) {
    const place = { kind: r.kind, catalogId: r.catalogId, master: r.masterId === r.id ? 'itself' : r.masterId };
    if (r.kind === 'product') expect(place).toEqual({ kind: 'product', catalogId: f.catalogId, master: 'itself' });
    else if (r.kind === 'variant')
      expect(place).toEqual({ kind: 'variant', catalogId: f.catalogId, master: r.parentNow ?? expect.any(String) });
    else expect(place).toEqual({ kind: r.kind, catalogId: null, master: null });
  }
}

describe('Every write is recorded', () => {
  it.each(CASES)('%s records a version by the web user with the changed paths', async (_name, run) => {
    const f = await fixture();
    const expected = await run(f);
    const res = await send('GET', `/api/Catalog/GetHistory?elementId=${expected.elementId}&limit=1`, {
      cookie: f.s.cookie,
    });
    expect(res.status, res.text).toBe(200);
    const [top] = res.json.items;
    expect(top).toMatchObject({
      action: expected.action,
      surface: 'web',
      user: { userId: f.s.userId, name: 'Test User' },
    });
    expect(top.changes.map((c: any) => c.path)).toEqual(expected.paths);
    for (const change of top.changes) expect(change.before).not.toEqual(change.after);
    await expectPlacesRecorded(f);
  });
});

describe('historyStatements', () => {
  it("refuses a product's or variant's entry that does not say where it lies", async () => {
    const s = await makeSession();
    const entry = { elementId: crypto.randomUUID(), before: { name: 'a' }, after: { name: 'b' } };
    for (const kind of ['product', 'variant'] as const)
      for (const place of [undefined, { catalogId: '', masterId: entry.elementId }, { catalogId: 'k', masterId: null }])
        expect(() => historyStatements(db(), asActor(s), [{ ...entry, kind, place } as never])).toThrow(
          `history: a ${kind} version needs its catalog and master`,
        );
    // a category's records none, whatever it is given
    const { statements } = historyStatements(db(), asActor(s), [
      { ...entry, kind: 'category', place: { catalogId: 'k', masterId: 'm' } },
    ]);
    await db().batch(statements as never);
    const [row] = await db().select().from(historyVersions).where(eq(historyVersions.elementId, entry.elementId));
    expect([row?.catalogId, row?.masterId]).toEqual([null, null]);
  });
});
