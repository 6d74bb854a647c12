import { describe, expect, it } from 'vitest';
import { moveCategory } from '../src/catalog/categories';
import { newId } from '../src/kernel/ids';
import { asActor, db, makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { call } from './helpers/http';

/** GetCategory: one category by id with the names above it (what the channel dialog shows for a requirement's categoryId). */
describe('GetCategory', () => {
  const get = (cookie: string, categoryId: string) =>
    call('GET', `/api/Catalog/GetCategory?categoryId=${categoryId}`, { cookie });

  it('answers the category with its catalog and the path from the top level down to it', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const top = await makeCategory(session, catalog.catalogId, { name: 'Kabel' });
    const mid = await makeCategory(session, catalog.catalogId, { name: 'Erdkabel', parentId: top.categoryId });
    const leaf = await makeCategory(session, catalog.catalogId, { name: 'NYY-J', parentId: mid.categoryId });
    const res = await get(session.cookie, leaf.categoryId);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      categoryId: leaf.categoryId,
      catalogId: catalog.catalogId,
      parentId: mid.categoryId,
      name: 'NYY-J',
    });
    expect(res.json.path).toEqual([
      { categoryId: top.categoryId, name: 'Kabel' },
      { categoryId: mid.categoryId, name: 'Erdkabel' },
      { categoryId: leaf.categoryId, name: 'NYY-J' },
    ]);
    const atTop = await get(session.cookie, top.categoryId);
    expect(atTop.json.path).toEqual([{ categoryId: top.categoryId, name: 'Kabel' }]);
  });

  it('follows a move: the path is read from the parents as they are now', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const a = await makeCategory(session, catalog.catalogId, { name: 'A' });
    const b = await makeCategory(session, catalog.catalogId, { name: 'B' });
    const child = await makeCategory(session, catalog.catalogId, { name: 'C', parentId: a.categoryId });
    await moveCategory(db(), asActor(session), {
      departmentId: session.departmentId,
      categoryId: child.categoryId,
      parentId: b.categoryId,
    });
    const res = await get(session.cookie, child.categoryId);
    expect(res.json.path.map((p: { name: string }) => p.name)).toEqual(['B', 'C']);
  });

  it("answers 404 for another company's category or an unknown id, and 400 for no uuid", async () => {
    const session = await makeSession();
    const theirs = await makeSession();
    const foreign = await makeCategory(theirs, (await makeCatalog(theirs)).catalogId, { name: 'Secret' });
    for (const id of [foreign.categoryId, newId()]) {
      const res = await get(session.cookie, id);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ error: 'category not found', code: 'not_found' });
    }
    const bad = await get(session.cookie, 'not-an-id');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^categoryId/);
    expect((await get(theirs.cookie, foreign.categoryId)).json.name).toBe('Secret');
  });
});

describe('SearchCategories', () => {
  const search = (cookie: string, catalogId: string, q: string) =>
    call('GET', `/api/Catalog/SearchCategories?catalogId=${catalogId}&q=${encodeURIComponent(q)}`, { cookie });

  it('finds the categories of the catalog whose name contains q, by name, each with its path', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const other = await makeCatalog(session);
    const kabel = await makeCategory(session, catalog.catalogId, { name: 'Kabel' });
    const erd = await makeCategory(session, catalog.catalogId, { name: 'Erdkabel', parentId: kabel.categoryId });
    await makeCategory(session, catalog.catalogId, { name: 'Leuchten' });
    await makeCategory(session, other.catalogId, { name: 'Kabel anderswo' });
    const res = await search(session.cookie, catalog.catalogId, 'KABEL');
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([
      {
        categoryId: erd.categoryId,
        name: 'Erdkabel',
        path: [
          { categoryId: kabel.categoryId, name: 'Kabel' },
          { categoryId: erd.categoryId, name: 'Erdkabel' },
        ],
      },
      { categoryId: kabel.categoryId, name: 'Kabel', path: [{ categoryId: kabel.categoryId, name: 'Kabel' }] },
    ]);
  });

  it('matches % and _ literally and answers at most 20', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeCategory(session, catalog.catalogId, { name: '100% Kupfer' });
    await makeCategory(session, catalog.catalogId, { name: '100 Kupfer' });
    const literal = await search(session.cookie, catalog.catalogId, '0%');
    expect(literal.json.items.map((i: { name: string }) => i.name)).toEqual(['100% Kupfer']);
    expect((await search(session.cookie, catalog.catalogId, '_')).json.items).toEqual([]);
    for (let i = 0; i < 22; i++)
      await makeCategory(session, catalog.catalogId, { name: `Serie ${String(i).padStart(2, '0')}` });
    const many = await search(session.cookie, catalog.catalogId, 'serie');
    expect(many.json.items).toHaveLength(20);
    expect(many.json.items[0].name).toBe('Serie 00');
  });

  it('finds names by long non-Latin text (more than the 50 bytes D1 allows a LIKE pattern)', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const name = `Кабельные системы ${'💥'.repeat(20)}`;
    await makeCategory(session, catalog.catalogId, { name });
    const found = await search(session.cookie, catalog.catalogId, name.slice(3));
    expect([found.status, found.json.items?.map((i: { name: string }) => i.name)]).toEqual([200, [name]]);
    const none = await search(session.cookie, catalog.catalogId, '💥'.repeat(50));
    expect([none.status, none.json.items]).toEqual([200, []]);
  });

  it("answers 404 for another company's catalog and 400 for an empty q", async () => {
    const session = await makeSession();
    const theirs = await makeSession();
    const foreign = await makeCatalog(theirs);
    await makeCategory(theirs, foreign.catalogId, { name: 'Geheim' });
    const res = await search(session.cookie, foreign.catalogId, 'Geheim');
    expect(res.status).toBe(404);
    expect(res.json.error).toBe('catalog not found');
    const empty = await search(session.cookie, (await makeCatalog(session)).catalogId, '  ');
    expect(empty.status).toBe(400);
    expect(empty.json.error).toMatch(/^q/);
  });
});
