import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/kernel/ids';
import { ftsMatchExpression } from '../src/catalog/product-search';
import { listProducts } from '../src/catalog/product-list';
import { db, makeCatalog, makeCompany, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function search(session: Session, catalogId: string, q: string, extra = '') {
  const res = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalogId}&q=${encodeURIComponent(q)}${extra}`, {
    cookie: session.cookie,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return (res.json.items as { sku: string }[]).map((p) => p.sku);
}

async function catalogWithProducts(session: Session) {
  const catalog = await makeCatalog(session);
  const make = (sku: string, fields: Record<string, string> = {}) =>
    makeProduct(session, catalog.catalogId, { sku, ...fields });
  await make('NYM-J-3X1.5', {
    name: 'Mantelleitung NYM-J 3x1,5 mm²',
    manufacturerPid: 'KW-100200',
    gtin: '4006209123454',
  });
  await make('LS-B16', { name: 'Leitungsschutzschalter B16 1-polig', keywords: 'Sicherungsautomat MCB' });
  await make('LS-C16', { name: 'Leitungsschutzschalter C16 1-polig' });
  await make('SCH-001', { name: 'Schütz 4 kW, 230 V Spule' });
  await make('STK-1', { name: 'Steckdose Schuko weiß' });
  return catalog;
}

describe('GetProducts q (full-text search)', () => {
  it('finds by SKU prefix, name word, GTIN, manufacturer part number and keyword', async () => {
    const session = await makeSession();
    const catalog = await catalogWithProducts(session);
    const find = (q: string) => search(session, catalog.catalogId, q);
    expect(await find('LS-B')).toEqual(['LS-B16']);
    expect((await find('LS')).sort()).toEqual(['LS-B16', 'LS-C16']);
    expect(await find('NYM-J-3')).toEqual(['NYM-J-3X1.5']);
    expect(await find('Mantelleitung')).toEqual(['NYM-J-3X1.5']);
    expect(await find('4006209123454')).toEqual(['NYM-J-3X1.5']);
    expect(await find('KW-100200')).toEqual(['NYM-J-3X1.5']);
    expect(await find('sicherungsautomat')).toEqual(['LS-B16']);
    expect(await find('Leitungsschutz C16')).toEqual(['LS-C16']);
    expect(await find('Kabeltrommel')).toEqual([]);
  });

  it('ignores case and accents in both directions', async () => {
    const session = await makeSession();
    const catalog = await catalogWithProducts(session);
    const find = (q: string) => search(session, catalog.catalogId, q);
    expect(await find('SCHUTZ')).toEqual(['SCH-001']);
    expect(await find('schütz')).toEqual(['SCH-001']);
    expect(await find('WEISS')).toEqual([]); // ß is a letter of its own, not "ss"
    expect(await find('weiß')).toEqual(['STK-1']);
    expect(await find('WEIß')).toEqual(['STK-1']);
    expect(await find('nym-j-3x1.5')).toEqual(['NYM-J-3X1.5']);
  });

  it('ranks a SKU match above a mention in the keywords', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, {
      sku: 'ZUB-1',
      name: 'Zubehör',
      keywords: 'passend zu MCB-16 und weiteren Schaltern der Reihe',
    });
    await makeProduct(session, catalog.catalogId, { sku: 'MCB-16', name: 'Automat' });
    expect(await search(session, catalog.catalogId, 'MCB-16')).toEqual(['MCB-16', 'ZUB-1']);
    // An explicit sort overrides the ranking.
    expect(await search(session, catalog.catalogId, 'MCB-16', '&sort=sku&order=desc')).toEqual(['ZUB-1', 'MCB-16']);
  });

  it('stays current after AddProduct, UpdateProduct, SetValue and DeleteProduct', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const find = (q: string) => search(session, catalog.catalogId, q);
    const product = await makeProduct(session, catalog.catalogId, { sku: 'OLD-1', name: 'Abzweigdose' });
    expect(await find('abzweigdose')).toEqual(['OLD-1']);

    const update = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: product.productId,
        sku: 'NEW-1',
        name: 'Verbindungsdose',
      },
    });
    expect(update.status).toBe(200);
    expect(await find('abzweigdose')).toEqual([]);
    expect(await find('OLD')).toEqual([]);
    expect(await find('verbindungsdose')).toEqual(['NEW-1']);

    const set = (field: string, value: string) =>
      call('POST', '/api/Catalog/SetValue', {
        cookie: session.cookie,
        body: { departmentId: session.departmentId, elementId: product.productId, field, value },
      });
    expect((await set('keywords', 'Feuchtraum IP65')).status).toBe(200);
    expect(await find('feuchtraum')).toEqual(['NEW-1']);
    expect((await set('manufacturerPid', 'HX-77')).status).toBe(200);
    expect(await find('HX-77')).toEqual(['NEW-1']);
    expect((await set('keywords', '')).status).toBe(200);
    expect(await find('feuchtraum')).toEqual([]);

    const del = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: product.productId },
    });
    expect(del.status).toBe(200);
    expect(await find('verbindungsdose')).toEqual([]);
    expect(await find('HX-77')).toEqual([]);
  });

  it("finds a master through its variants' SKU, manufacturer part number, GTIN and name", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    const master = await makeProduct(session, catalog.catalogId, { sku: 'M-1', name: 'Leuchte' });
    const variant = await makeProduct(session, catalog.catalogId, {
      sku: 'M-1-V1',
      name: 'Leuchte Variante',
      parentId: master.productId,
      gtin: '4006209000014',
      manufacturerPid: 'LX-77',
    });
    const find = (q: string) => search(session, catalog.catalogId, q);
    expect(await find('Leuchte')).toEqual(['M-1']);
    expect(await find('Variante')).toEqual(['M-1']); // a word of the variant's own name (migration 0032)
    expect(await find('m-1-v1')).toEqual(['M-1']);
    expect(await find('M-1')).toEqual(['M-1']); // master and variant match: the master once
    expect(await find('4006209000014')).toEqual(['M-1']);
    expect(await find('LX-77')).toEqual(['M-1']);
    const update = await call('POST', '/api/Catalog/UpdateProduct', {
      cookie: session.cookie,
      body: {
        departmentId: session.departmentId,
        catalogId: catalog.catalogId,
        productId: variant.productId,
        sku: 'M-1-BLUE',
        name: 'Leuchte blau',
      },
    });
    expect(update.status, JSON.stringify(update.json)).toBe(200);
    expect(await find('M-1-V1')).toEqual([]);
    expect(await find('m-1-blue')).toEqual(['M-1']);
    expect(await find('blau')).toEqual(['M-1']);
    expect(await find('Variante')).toEqual([]);
    const del = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: variant.productId },
    });
    expect(del.status, JSON.stringify(del.json)).toBe(200);
    expect(await find('M-1-BLUE')).toEqual([]);
    expect(await find('LX-77')).toEqual([]);
  });

  it("never shows another company's products, nor another catalog's", async () => {
    const session = await makeSession();
    const mine = await makeCatalog(session);
    const other = await makeCatalog(session);
    const stranger = await makeCompany();
    const theirs = await makeCatalog(stranger);
    await makeProduct(session, mine.catalogId, { sku: 'TEN-1', name: 'Isolationsprüfer' });
    await makeProduct(session, other.catalogId, { sku: 'TEN-2', name: 'Isolationsprüfer' });
    await makeProduct(stranger, theirs.catalogId, { sku: 'TEN-3', name: 'Isolationsprüfer' });
    expect(await search(session, mine.catalogId, 'isolationsprufer')).toEqual(['TEN-1']);
    const res = await call('GET', `/api/Catalog/GetProducts?catalogId=${theirs.catalogId}&q=isolationsprufer`, {
      cookie: session.cookie,
    });
    expect(res.status).toBe(404);
  });

  it('answers hostile q with 200 or 400, never 500', async () => {
    const session = await makeSession();
    const catalog = await catalogWithProducts(session);
    const hostile = [
      '"',
      '""',
      "'",
      '*',
      '* *',
      'LS*',
      '^LS',
      'NEAR(LS B16)',
      'LS OR 1=1',
      'AND',
      'NOT',
      '(',
      ')',
      ':',
      'sku:LS',
      '-',
      '+',
      '\u0000',
      'LS\u0000B16',
      '\\',
      '%',
      '_',
      '{sku name}: x',
      'a'.repeat(200),
    ];
    for (const q of hostile) {
      const res = await call(
        'GET',
        `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&q=${encodeURIComponent(q)}`,
        { cookie: session.cookie },
      );
      expect([200, 400], `q=${JSON.stringify(q)}: ${JSON.stringify(res.json)}`).toContain(res.status);
      if (res.status === 400) expect(res.json.error).toMatch(/^q/);
    }
    // Syntax is text: LS* and ^LS find the LS products as the word LS would.
    expect((await search(session, catalog.catalogId, 'LS*')).sort()).toEqual(['LS-B16', 'LS-C16']);
    expect(await search(session, catalog.catalogId, 'LS OR 1=1')).toEqual([]);
    expect(await search(session, catalog.catalogId, '*')).toEqual([]);
    const huge = await call(
      'GET',
      `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&q=${'x'.repeat(1024 * 1024)}`,
      { cookie: session.cookie },
    );
    expect([400, 414, 431]).toContain(huge.status);
    if (huge.status === 400) expect(huge.json.error).toBe('q: must be at most 200 characters');
  });

  it('keeps user text out of FTS syntax', () => {
    expect(ftsMatchExpression('NYM-J "3x1,5"')).toBe('"NYM-J"* """3x1,5"""*');
    expect(ftsMatchExpression('a\u0000b')).toBe('"a"* "b"*');
    expect(ftsMatchExpression('* " ( )')).toBeNull();
  });

  it('pages through many hits by relevance without duplicates or gaps', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    for (let i = 0; i < 12; i++) {
      await makeProduct(session, catalog.catalogId, {
        sku: `R-${i}`,
        name: i % 3 === 0 ? 'Rohr Rohr' : `Rohr ${newId().slice(-4)}`,
      });
    }
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await call(
        'GET',
        `/api/Catalog/GetProducts?catalogId=${catalog.catalogId}&q=rohr&limit=5${cursor ? `&cursor=${cursor}` : ''}`,
        { cookie: session.cookie },
      );
      expect(res.status).toBe(200);
      seen.push(...res.json.items.map((p: { sku: string }) => p.sku));
      if (!res.json.nextCursor) break;
      cursor = res.json.nextCursor;
    }
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
    // The repeated word ranks first.
    expect(seen.slice(0, 4).sort()).toEqual(['R-0', 'R-3', 'R-6', 'R-9']);
  });

  it('lists a broad search (every word common) in index order, or in the order asked for, through every page', async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    for (const sku of ['K-3', 'K-1', 'K-5', 'K-2', 'K-4'])
      await makeProduct(session, catalog.catalogId, { sku, name: `Kabel ${sku}` });
    await makeProduct(session, catalog.catalogId, { sku: 'X-1', name: 'Schelle' });
    const walk = async (extra: Record<string, string>) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await listProducts(
          db(),
          session,
          { catalogId: catalog.catalogId, q: 'kabel', limit: 2, cursor, ...extra },
          { rankLimit: 2 },
        );
        seen.push(...page.items.map((p) => p.sku!));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return seen;
    };
    expect(await walk({})).toEqual(['K-3', 'K-1', 'K-5', 'K-2', 'K-4']); // the order they were indexed
    expect(await walk({ sort: 'sku', order: 'desc' })).toEqual(['K-5', 'K-4', 'K-3', 'K-2', 'K-1']);
    expect(await walk({ sort: 'name' })).toEqual(['K-1', 'K-2', 'K-3', 'K-4', 'K-5']);
  });

  it("drops a deleted catalog's products from the index (cascade through the triggers)", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session);
    await makeProduct(session, catalog.catalogId, { sku: 'CASC-1', name: 'Kaskadenprodukt' });
    const indexed = () =>
      env.DB.prepare(
        `SELECT count(*) AS n FROM products_fts WHERE products_fts MATCH '"kaskadenprodukt"'`,
      ).first<number>('n');
    expect(await indexed()).toBe(1);
    const res = await call('POST', '/api/Catalog/DeleteCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId },
    });
    expect(res.status).toBe(200);
    expect(await indexed()).toBe(0);
  });
});
