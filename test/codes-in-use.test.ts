import { describe, expect, it } from 'vitest';
import { setFeatureBlocks } from '../src/catalog/feature-blocks/feature-blocks';
import { setPrices } from '../src/catalog/prices/prices';
import { env } from 'cloudflare:workers';
import { and, asc, eq, gt, type SQL } from 'drizzle-orm';
import { codeContaining, codePrefix } from '../src/catalog/code-search';
import { deleteCatalog } from '../src/catalog/catalogs';
import { codesInUsePage } from '../src/catalog/codes-in-use';
import { deleteProduct } from '../src/catalog/products';
import { catalogCodesInUse } from '../src/db/schema';
import { asActor, db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** A catalog whose products use price types and feature systems, one of them only on a variant. */
async function catalogWithCodes(session: Session) {
  const { catalogId } = await makeCatalog(session.tenant);
  const actor = asActor(session.tenant);
  const departmentId = session.departmentId;
  const a = await makeProduct(session.tenant, catalogId, { sku: 'A' });
  const b = await makeProduct(session.tenant, catalogId, { sku: 'B' });
  const variant = await makeProduct(session.tenant, catalogId, { sku: 'B-1', parentId: b.productId });
  await setPrices(db(), actor, {
    departmentId,
    productId: a.productId,
    prices: [
      { type: 'net_list', amount: '1.00', currency: 'EUR' },
      { type: 'nrp', amount: '2.00', currency: 'EUR' },
    ],
  });
  await setPrices(db(), actor, {
    departmentId,
    productId: variant.productId,
    prices: [{ type: 'net_customer', amount: '1.50', currency: 'EUR' }],
  });
  const block = (system: string) => ({ system, features: [{ name: 'Farbe', values: ['rot'] }] });
  await setFeatureBlocks(db(), actor, {
    departmentId,
    productId: a.productId,
    featureBlocks: [block('UNSPSC'), block('udf_NMNG')],
  });
  await setFeatureBlocks(db(), actor, { departmentId, productId: b.productId, featureBlocks: [block('UNSPSC')] });
  return catalogId;
}

const get = (session: Session, query: Record<string, string | number>) =>
  call(
    'GET',
    `/api/Catalog/GetCodesInUse?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    {
      cookie: session.cookie,
    },
  );

describe('Catalog/GetCodesInUse', () => {
  it("lists a catalog's price types and feature systems once each, in code order, variants included", async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const prices = await get(session, { catalogId, list: 'priceTypes' });
    expect(prices.status, prices.text).toBe(200);
    expect(prices.json).toEqual({
      items: [{ code: 'net_customer' }, { code: 'net_list' }, { code: 'nrp' }],
      nextCursor: null,
    });
    const systems = await get(session, { catalogId, list: 'featureSystems' });
    expect(systems.json).toEqual({ items: [{ code: 'UNSPSC' }, { code: 'udf_NMNG' }], nextCursor: null });
  });

  it('pages by the code with limit and cursor', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const first = await get(session, { catalogId, list: 'priceTypes', limit: 2 });
    expect(first.json.items).toEqual([{ code: 'net_customer' }, { code: 'net_list' }]);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const next = await get(session, { catalogId, list: 'priceTypes', limit: 2, cursor: first.json.nextCursor });
    expect(next.json).toEqual({ items: [{ code: 'nrp' }], nextCursor: null });
  });

  it('filters by q on the server: codes containing it, ASCII case ignored, paged like the whole list', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const codes = async (query: Record<string, string | number>) => {
      const res = await get(session, { catalogId, ...query });
      expect(res.status, res.text).toBe(200);
      return res.json;
    };
    expect(await codes({ list: 'priceTypes', q: 'NET' })).toEqual({
      items: [{ code: 'net_customer' }, { code: 'net_list' }],
      nextCursor: null,
    });
    expect((await codes({ list: 'priceTypes', q: 'list' })).items).toEqual([{ code: 'net_list' }]);
    expect((await codes({ list: 'featureSystems', q: 'nmn' })).items).toEqual([{ code: 'udf_NMNG' }]);
    // `_` and `%` are the characters themselves, not LIKE's wildcards.
    expect((await codes({ list: 'priceTypes', q: 't_c' })).items).toEqual([{ code: 'net_customer' }]);
    expect((await codes({ list: 'priceTypes', q: 'n_t' })).items).toEqual([]);
    expect((await codes({ list: 'priceTypes', q: '%' })).items).toEqual([]);
    // Blank is no filter; another catalog's codes never match.
    expect((await codes({ list: 'priceTypes', q: '  ' })).items).toHaveLength(3);
    const { catalogId: empty } = await makeCatalog(session.tenant);
    expect((await get(session, { catalogId: empty, list: 'priceTypes', q: 'net' })).json.items).toEqual([]);
    const first = await codes({ list: 'priceTypes', q: 'n', limit: 2 });
    expect(first.items).toEqual([{ code: 'net_customer' }, { code: 'net_list' }]);
    const next = await codes({ list: 'priceTypes', q: 'n', limit: 2, cursor: first.nextCursor });
    expect(next).toEqual({ items: [{ code: 'nrp' }], nextCursor: null });
    const long = await get(session, { catalogId, list: 'priceTypes', q: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.json.error).toContain('q');
  });

  it("reads a search from the catalog list's key range, never the products", async () => {
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT code FROM catalog_codes_in_use
        WHERE catalog_id = ?1 AND list = ?2 AND code LIKE ?3 ESCAPE '\\' AND code > ?4 ORDER BY code LIMIT 501`,
    )
      .bind('c', 'priceTypes', '%net%', '')
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH catalog_codes_in_use USING PRIMARY KEY \(catalog_id=\? AND list=\? AND code>\?\)/);
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('filters by prefix as a range of an index: codes beginning with it, ASCII case ignored, paged', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const codes = async (query: Record<string, string | number>) => {
      const res = await get(session, { catalogId, ...query });
      expect(res.status, res.text).toBe(200);
      return res.json;
    };
    expect(await codes({ list: 'priceTypes', prefix: 'net_' })).toEqual({
      items: [{ code: 'net_customer' }, { code: 'net_list' }],
      nextCursor: null,
    });
    // ASCII case ignored, as the web's pick lists type: "NET" finds net_*, "u" finds UNSPSC and udf_NMNG.
    expect((await codes({ list: 'priceTypes', prefix: 'NET' })).items).toEqual([
      { code: 'net_customer' },
      { code: 'net_list' },
    ]);
    expect((await codes({ list: 'featureSystems', prefix: 'u' })).items).toEqual([
      { code: 'UNSPSC' },
      { code: 'udf_NMNG' },
    ]);
    expect((await codes({ list: 'featureSystems', prefix: 'UDF_nm' })).items).toEqual([{ code: 'udf_NMNG' }]);
    expect((await codes({ list: 'featureSystems', prefix: 'unspsc-' })).items).toEqual([]);
    expect((await codes({ list: 'priceTypes', prefix: 'net_list' })).items).toEqual([{ code: 'net_list' }]);
    const first = await codes({ list: 'priceTypes', prefix: 'n', limit: 2 });
    expect(first.items).toEqual([{ code: 'net_customer' }, { code: 'net_list' }]);
    expect(await codes({ list: 'priceTypes', prefix: 'n', limit: 2, cursor: first.nextCursor })).toEqual({
      items: [{ code: 'nrp' }],
      nextCursor: null,
    });
    // With q too: both hold.
    expect((await codes({ list: 'priceTypes', prefix: 'net', q: 'LIST' })).items).toEqual([{ code: 'net_list' }]);
    expect((await get(session, { catalogId, list: 'priceTypes', prefix: 'x'.repeat(101) })).status).toBe(400);
  });

  it('reads only the matches of a prefix among 20,000 codes, where q reads them all', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 19999)
       INSERT INTO catalog_codes_in_use (catalog_id, list, code, uses)
       SELECT ?1, 'featureSystems', printf('SYS-%05d', i), 1 FROM n`,
    )
      .bind(catalogId)
      .run();
    const read = async (filter: SQL | undefined) => {
      const query = db()
        .select({ code: catalogCodesInUse.code })
        .from(catalogCodesInUse)
        .where(and(eq(catalogCodesInUse.catalogId, catalogId), eq(catalogCodesInUse.list, 'featureSystems'), filter))
        .orderBy(asc(catalogCodesInUse.code))
        .limit(501)
        .toSQL();
      const started = performance.now();
      const answer = await env.DB.prepare(query.sql)
        .bind(...query.params)
        .all<{ code: string }>();
      return { rows: answer.results.length, rowsRead: answer.meta.rows_read, ms: performance.now() - started };
    };
    /** GetCodesInUse's page query as it runs (codesInUsePage), first page of 500. */
    const page = async (input: Parameters<typeof codesInUsePage>[1]) => {
      const query = codesInUsePage(db(), input, {
        after: undefined,
        orderBy: asc(catalogCodesInUse.code),
        limit: 501,
      }).toSQL();
      const started = performance.now();
      const answer = await env.DB.prepare(query.sql)
        .bind(...query.params)
        .all<{ code: string }>();
      return { rows: answer.results.length, rowsRead: answer.meta.rows_read, ms: performance.now() - started };
    };
    const prefix = await read(codePrefix(catalogCodesInUse.code, 'SYS-1234'));
    const folded = await page({ catalogId, list: 'featureSystems', prefix: 'sys-1234' });
    const contains = await read(codeContaining(catalogCodesInUse.code, 'SYS-1234'));
    expect(prefix.rows).toBe(10);
    expect(contains.rows).toBe(10);
    expect(prefix.rowsRead).toBeLessThanOrEqual(11);
    // Ignoring case, GetCodesInUse's own query reads the prefix's range of the NOCASE index, not the list:
    // D1 counts its 10 matches (and the end of the range) once for the seek and once for their sort.
    expect(folded.rows).toBe(10);
    expect(folded.rowsRead).toBeLessThanOrEqual(21);
    expect(contains.rowsRead).toBeGreaterThanOrEqual(20_000);
    console.info(
      `GetCodesInUse over 20,000 codes: exact prefix read ${prefix.rowsRead} rows (${prefix.ms.toFixed(1)} ms), prefix ignoring case ${folded.rowsRead} (${folded.ms.toFixed(1)} ms), q ${contains.rowsRead} (${contains.ms.toFixed(1)} ms)`,
    );
    const res = await get(session, { catalogId, list: 'featureSystems', prefix: 'SYS-1999' });
    expect(res.json.items).toHaveLength(10);
  });

  it('seeks a prefix in the NOCASE index whatever its case and answers in the code order of the key', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session.tenant);
    await env.DB.prepare(
      `INSERT INTO catalog_codes_in_use (catalog_id, list, code, uses)
       SELECT ?1, 'featureSystems', value, 1 FROM json_each(?2)`,
    )
      .bind(catalogId, JSON.stringify(['ETIM-9.0', 'etim-8.0', 'Etim-7', 'ETIM[x', 'ETIM@', 'ETIMA', 'eclass']))
      .run();
    const codes = async (prefix: string, limit = 100, cursor?: string) => {
      const res = await get(session, {
        catalogId,
        list: 'featureSystems',
        prefix,
        limit,
        ...(cursor ? { cursor } : {}),
      });
      expect(res.status, res.text).toBe(200);
      return res.json as { items: { code: string }[]; nextCursor: string | null };
    };
    // Byte order of the answer (upper case first), as without a prefix.
    expect((await codes('etim-')).items.map((c) => c.code)).toEqual(['ETIM-9.0', 'Etim-7', 'etim-8.0']);
    const first = await codes('Etim-', 2);
    expect(first.items.map((c) => c.code)).toEqual(['ETIM-9.0', 'Etim-7']);
    expect((await codes('Etim-', 2, first.nextCursor as string)).items.map((c) => c.code)).toEqual(['etim-8.0']);
    // "@" sorts before the letters: its range ends at "[", never taking in the letters folded after it.
    expect((await codes('ETIM@')).items.map((c) => c.code)).toEqual(['ETIM@']);
    expect((await codes('etim[')).items.map((c) => c.code)).toEqual(['ETIM[x']);
    expect((await codes('E')).items).toHaveLength(7);

    const query = codesInUsePage(
      db(),
      { catalogId, list: 'featureSystems', prefix: 'etim' },
      { after: gt(catalogCodesInUse.code, 'ETIM-9.0'), orderBy: asc(catalogCodesInUse.code), limit: 101 },
    ).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .bind(...query.params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join('\n');
    expect(plan).toMatch(
      /SEARCH catalog_codes_in_use USING COVERING INDEX catalog_codes_in_use_nocase_idx \(catalog_id=\? AND list=\? AND code>\? AND code<\?\)/,
    );
    // Only the range's matches are sorted for the answer.
    expect(plan).toContain('USE TEMP B-TREE FOR ORDER BY');
  });

  it('answers an empty list for a catalog without any, and nothing of another catalog', async () => {
    const session = await makeSession();
    await catalogWithCodes(session);
    const { catalogId } = await makeCatalog(session.tenant);
    expect((await get(session, { catalogId, list: 'featureSystems' })).json).toEqual({ items: [], nextCursor: null });
  });

  it("answers 404 for another company's catalog and 400 for a bad list, limit or cursor", async () => {
    const session = await makeSession();
    const other = await makeSession();
    const foreign = await catalogWithCodes(other);
    const res = await get(session, { catalogId: foreign, list: 'priceTypes' });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ error: expect.any(String) });
    const { catalogId } = await makeCatalog(session.tenant);
    for (const [query, field] of [
      [{ catalogId, list: 'units' }, 'list'],
      [{ catalogId, list: 'priceTypes', limit: 501 }, 'limit'],
      [{ catalogId, list: 'priceTypes', limit: 0 }, 'limit'],
      [{ catalogId, list: 'priceTypes', cursor: '%%%' }, 'cursor'],
      [{ list: 'priceTypes' }, 'catalogId'],
    ] as const) {
      const bad = await get(session, query);
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.json.error).toContain(field);
    }
  });
});

/** The kept counts of a catalog, as `list:code=uses`. */
async function kept(catalogId: string) {
  const rows = await db()
    .select()
    .from(catalogCodesInUse)
    .where(eq(catalogCodesInUse.catalogId, catalogId))
    .orderBy(asc(catalogCodesInUse.list), asc(catalogCodesInUse.code));
  return rows.map((r) => `${r.list}:${r.code}=${r.uses}`);
}

/** The same counts read from the rows themselves (what GetCodesInUse used to scan for). */
async function counted(catalogId: string) {
  const { results } = await env.DB.prepare(
    `SELECT 'featureSystems' AS list, fb.system AS code, count(*) AS uses
       FROM product_feature_blocks fb JOIN products p ON p.id = fb.product_id WHERE p.catalog_id = ?1 GROUP BY fb.system
     UNION ALL
     SELECT 'priceTypes', pp.type, count(*)
       FROM product_prices pp JOIN products p ON p.id = pp.product_id WHERE p.catalog_id = ?1 GROUP BY pp.type
     ORDER BY 1, 2`,
  )
    .bind(catalogId)
    .all<{ list: string; code: string; uses: number }>();
  return results.map((r) => `${r.list}:${r.code}=${r.uses}`);
}

describe('the codes in use kept by migration 0065', () => {
  it('follow every write of prices and feature blocks, and a code leaves with its last row', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    expect(await kept(catalogId)).toEqual([
      'featureSystems:UNSPSC=2',
      'featureSystems:udf_NMNG=1',
      'priceTypes:net_customer=1',
      'priceTypes:net_list=1',
      'priceTypes:nrp=1',
    ]);
    expect(await kept(catalogId)).toEqual(await counted(catalogId));
    const actor = asActor(session.tenant);
    const [a] = await db().query.products.findMany({
      where: (p, { and: both, eq: is }) => both(is(p.catalogId, catalogId), is(p.sku, 'A')),
    });
    // Replacing A's prices: nrp goes (its only row), net_list stays once, gross comes.
    await setPrices(db(), actor, {
      departmentId: session.departmentId,
      productId: a!.id,
      prices: [
        { type: 'net_list', amount: '1.10', currency: 'EUR' },
        { type: 'gross_list', amount: '1.31', currency: 'EUR' },
      ],
    });
    await setFeatureBlocks(db(), actor, {
      departmentId: session.departmentId,
      productId: a!.id,
      featureBlocks: [],
      clear: true,
    });
    expect(await kept(catalogId)).toEqual([
      'featureSystems:UNSPSC=1',
      'priceTypes:gross_list=1',
      'priceTypes:net_customer=1',
      'priceTypes:net_list=1',
    ]);
    expect(await kept(catalogId)).toEqual(await counted(catalogId));
    const listed = await get(session, { catalogId, list: 'priceTypes' });
    expect(listed.json.items.map((i: { code: string }) => i.code)).toEqual(['gross_list', 'net_customer', 'net_list']);
  });

  it('take a deleted product and its variants away (the cascade), and go with a deleted catalog', async () => {
    const session = await makeSession();
    const catalogId = await catalogWithCodes(session);
    const deps = { db: db(), files: env.FILES };
    const [b] = await db().query.products.findMany({
      where: (p, { and: both, eq: is }) => both(is(p.catalogId, catalogId), is(p.sku, 'B')),
    });
    await deleteProduct(deps, session, { departmentId: session.departmentId, productId: b!.id });
    // B's UNSPSC block and its variant's net_customer price are gone; A's rows stay, counted once.
    expect(await kept(catalogId)).toEqual(await counted(catalogId));
    expect(await kept(catalogId)).toEqual([
      'featureSystems:UNSPSC=1',
      'featureSystems:udf_NMNG=1',
      'priceTypes:net_list=1',
      'priceTypes:nrp=1',
    ]);
    await deleteCatalog(deps, session, { departmentId: session.departmentId, catalogId });
    expect(await kept(catalogId)).toEqual([]);
  });

  it('keep each catalog apart: the same code in two catalogs is counted in each', async () => {
    const session = await makeSession();
    const first = await catalogWithCodes(session);
    const second = await catalogWithCodes(session);
    const rows = await db()
      .select()
      .from(catalogCodesInUse)
      .where(and(eq(catalogCodesInUse.list, 'featureSystems'), eq(catalogCodesInUse.code, 'UNSPSC')));
    expect(rows.filter((r) => r.catalogId === first || r.catalogId === second).map((r) => r.uses)).toEqual([2, 2]);
  });
});
