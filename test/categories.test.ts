import { describe, expect, it } from 'vitest';
import { getCatalog } from '../src/catalog/catalogs';
import { getCategoryTree, MAX_DEPTH } from '../src/catalog/categories';
import { newId } from '../src/kernel/ids';
import { asActor, db, makeCatalog, makeCategory, makeCompany, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

const tree = async (session: Session, catalogId: string) => (await getCategoryTree(db(), session, catalogId)).items;

async function chain(session: Session, catalogId: string, length: number) {
  const ids: string[] = [];
  for (let i = 0; i < length; i++)
    ids.push((await makeCategory(session, catalogId, { name: `L${i + 1}`, parentId: ids.at(-1) })).categoryId);
  return ids;
}

/** What a read of a category adds (docs/languages.md): the language of its texts and what is missing in it. */
const READ = { language: 'deu', missingTranslations: [] };

describe('AddCategory', () => {
  it('creates top-level and child categories and counts them on the catalog', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const top = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        name: 'Cables',
        description: 'All cables',
        sortOrder: 2,
      },
    });
    expect(top.status).toBe(200);
    expect(top.json).toEqual({
      categoryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      catalogId: catalog.catalogId,
      parentId: null,
      name: 'Cables',
      description: 'All cables',
      sortOrder: 2,
      productCount: 0,
    });
    const child = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        parentId: top.json.categoryId,
        name: 'Power cables',
      },
    });
    expect(child.json).toMatchObject({
      parentId: top.json.categoryId,
      name: 'Power cables',
      description: null,
      sortOrder: 0,
    });
    expect((await getCatalog(db(), session, catalog.catalogId)).categoryCount).toBe(2);
    const children = await call(
      'GET',
      `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}&parentId=${top.json.categoryId}`,
      { cookie: session.cookie },
    );
    expect(children.json).toEqual({ items: [{ ...child.json, subtreeProductCount: 0, ...READ }] });
    const treeRes = await call('GET', `/api/Catalog/GetCategoryTree?catalogId=${catalog.catalogId}`, {
      cookie: session.cookie,
    });
    expect(treeRes.json).toEqual({
      catalogId: catalog.catalogId,
      items: [
        {
          ...top.json,
          subtreeProductCount: 0,
          ...READ,
          children: [{ ...child.json, subtreeProductCount: 0, ...READ, children: [] }],
        },
      ],
    });
  });

  it('lists the top level in sortOrder, then name', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeCategory(session, catalog.catalogId, { name: 'B', sortOrder: 1 });
    await makeCategory(session, catalog.catalogId, { name: 'C', sortOrder: 0 });
    await makeCategory(session, catalog.catalogId, { name: 'A', sortOrder: 1 });
    const res = await call('GET', `/api/Catalog/GetCategories?catalogId=${catalog.catalogId}`, {
      cookie: session.cookie,
    });
    expect(res.json.items.map((c: { name: string }) => c.name)).toEqual(['C', 'A', 'B']);
  });

  it(`refuses a level deeper than ${MAX_DEPTH} and adds nothing`, async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const ids = await chain(session, catalog.catalogId, MAX_DEPTH);
    const res = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        parentId: ids.at(-1),
        name: 'Too deep',
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(`parentId: category trees are limited to ${MAX_DEPTH} levels`);
    expect((await getCatalog(db(), session, catalog.catalogId)).categoryCount).toBe(MAX_DEPTH);
  });

  it('answers 404 for a parent in another catalog and 400 for a categoryId already in use, adding nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const elsewhere = await makeCategory(session, (await makeCatalog(session)).catalogId);
    const wrongParent = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        parentId: elsewhere.categoryId,
        name: 'x',
      },
    });
    expect(wrongParent.status).toBe(404);
    expect(wrongParent.json.error).toBe('parent category not found');
    const taken = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        categoryId: elsewhere.categoryId,
        name: 'dup',
      },
    });
    expect(taken.status).toBe(400);
    expect(taken.json.error).toBe('categoryId: this id cannot be used; send a new UUIDv7 or leave it out');
    expect((await getCatalog(db(), session, catalog.catalogId)).categoryCount).toBe(0);
    expect(await tree(session, catalog.catalogId)).toEqual([]);
  });

  it('answers 404 for a catalog of another company and 403 for its department', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeCatalog(theirs);
    const notFound = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: foreign.catalogId, name: 'x' },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.json.error).toBe('catalog not found');
    const forbidden = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: { departmentId: theirs.departmentId, catalogId: foreign.catalogId, name: 'x' },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('departmentId does not name a department of your company');
    expect((await getCatalog(db(), asActor(theirs), foreign.catalogId)).categoryCount).toBe(0);
  });
});

describe('UpdateCategory and MoveCategory', () => {
  it('renames and re-describes a category, keeping what is left out', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const category = await makeCategory(session, catalog.catalogId, { name: 'Old', description: 'keep', sortOrder: 4 });
    const res = await call('POST', '/api/Catalog/UpdateCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        categoryId: category.categoryId,
        name: 'New',
      },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ...category, name: 'New' });
    expect(await tree(session, catalog.catalogId)).toEqual([
      { ...category, name: 'New', subtreeProductCount: 0, ...READ, children: [] },
    ]);
  });

  it('moves a category with its subtree below another parent and back to the top level', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const a = await makeCategory(session, catalog.catalogId, { name: 'A' });
    const b = await makeCategory(session, catalog.catalogId, { name: 'B' });
    const b1 = await makeCategory(session, catalog.catalogId, { name: 'B1', parentId: b.categoryId });
    const moved = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: b.categoryId, parentId: a.categoryId, sortOrder: 7 },
    });
    expect(moved.status).toBe(200);
    expect(moved.json).toEqual({ ...b, parentId: a.categoryId, sortOrder: 7 });
    expect(await tree(session, catalog.catalogId)).toEqual([
      {
        ...a,
        subtreeProductCount: 0,
        ...READ,
        children: [
          {
            ...b,
            parentId: a.categoryId,
            sortOrder: 7,
            subtreeProductCount: 0,
            ...READ,
            children: [{ ...b1, subtreeProductCount: 0, ...READ, children: [] }],
          },
        ],
      },
    ]);
    const top = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: b.categoryId, parentId: null },
    });
    expect(top.json.parentId).toBeNull();
    expect((await tree(session, catalog.catalogId)).map((n) => n.name)).toEqual(['A', 'B']);
  });

  it('moves through UpdateCategory when parentId changes', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const a = await makeCategory(session, catalog.catalogId, { name: 'A' });
    const b = await makeCategory(session, catalog.catalogId, { name: 'B' });
    const res = await call('POST', '/api/Catalog/UpdateCategory', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        categoryId: b.categoryId,
        parentId: a.categoryId,
        name: 'B2',
      },
    });
    expect(res.json).toEqual({ ...b, parentId: a.categoryId, name: 'B2' });
  });

  it('refuses to move a category below itself or its own descendant and changes nothing', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const [a, b, c] = await chain(session, catalog.catalogId, 3);
    const before = await tree(session, catalog.catalogId);
    for (const parentId of [a, c]) {
      const res = await call('POST', '/api/Catalog/MoveCategory', {
        cookie: session.cookie,
        body: { departmentId: session.departmentId, categoryId: a, parentId },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('parentId: a category cannot move below itself');
    }
    expect(await tree(session, catalog.catalogId)).toEqual(before);
    void b;
  });

  it(`refuses a move that would make the tree deeper than ${MAX_DEPTH} levels`, async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const deep = await chain(session, catalog.catalogId, MAX_DEPTH - 1);
    const sub = await makeCategory(session, catalog.catalogId, { name: 'Sub' });
    await makeCategory(session, catalog.catalogId, { name: 'Sub child', parentId: sub.categoryId });
    const before = await tree(session, catalog.catalogId);
    const res = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: sub.categoryId, parentId: deep.at(-1) },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe(`parentId: category trees are limited to ${MAX_DEPTH} levels`);
    expect(await tree(session, catalog.catalogId)).toEqual(before);
    // One level higher fits exactly.
    const ok = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: sub.categoryId, parentId: deep.at(-2) },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.parentId).toBe(deep.at(-2));
  });

  it('answers 404 for a category of another company and 404 for a parent in another catalog', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreign = await makeCategory(theirs, (await makeCatalog(theirs)).catalogId);
    const mine = await makeCategory(session, (await makeCatalog(session)).catalogId);
    const other = await makeCategory(session, (await makeCatalog(session)).catalogId);
    const res = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: foreign.categoryId, parentId: null },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('category not found');
    const cross = await call('POST', '/api/Catalog/MoveCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: mine.categoryId, parentId: other.categoryId },
    });
    expect(cross.status).toBe(404);
    expect(cross.json.error).toBe('parent category not found');
    expect((await tree(session, mine.catalogId))[0]!.parentId).toBeNull();
  });
});

describe('DeleteCategory', () => {
  it('deletes the subtree, keeps the products, drops their placement and updates the counter', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const keep = await makeCategory(session, catalog.catalogId, { name: 'Keep' });
    const [a, , c] = await chain(session, catalog.catalogId, 3);
    const product = await makeProduct(session, catalog.catalogId, { categoryIds: [c!, keep.categoryId] });
    const res = await call('POST', '/api/Catalog/DeleteCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: a },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ categoryId: a, deleted: 3 });
    expect((await tree(session, catalog.catalogId)).map((n) => n.name)).toEqual(['Keep']);
    expect((await getCatalog(db(), session, catalog.catalogId)).categoryCount).toBe(1);
    const stats = await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie });
    expect(stats.json).toEqual({ catalogs: 1, categories: 1, products: 1 });
    const after = await call('GET', `/api/Catalog/GetProduct?productId=${product.productId}`, {
      cookie: session.cookie,
    });
    expect(after.json.categoryIds).toEqual([keep.categoryId]);
  });

  it('answers 404 for a category of another company and 403 for a department of another company, deleting nothing', async () => {
    const session = await makeSession();
    const theirs = await makeCompany();
    const foreignCatalog = await makeCatalog(theirs);
    const foreign = await makeCategory(theirs, foreignCatalog.catalogId);
    const notFound = await call('POST', '/api/Catalog/DeleteCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: foreign.categoryId },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.json.error).toBe('category not found');
    const forbidden = await call('POST', '/api/Catalog/DeleteCategory', {
      cookie: session.cookie,
      body: { departmentId: theirs.departmentId, categoryId: foreign.categoryId },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toBe('departmentId does not name a department of your company');
    expect((await getCategoryTree(db(), asActor(theirs), foreignCatalog.catalogId)).items).toEqual([
      { ...foreign, subtreeProductCount: 0, ...READ, children: [] },
    ]);
    expect((await getCatalog(db(), asActor(theirs), foreignCatalog.catalogId)).categoryCount).toBe(1);
  });

  it('answers 404 for an unknown category id', async () => {
    const session = await makeSession();
    const res = await call('POST', '/api/Catalog/DeleteCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, categoryId: newId() },
    });
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('category not found');
  });
});
