import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { resetSearchTidy, tidyIsDue, tidySearchIndex } from '../src/catalog/search-tidy';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

/** Segments of the product search index (a scan of its %_idx table: fine for a test). */
async function segments(): Promise<number> {
  const row = await env.DB.prepare('SELECT count(DISTINCT segid) AS n FROM products_fts_idx').first<{ n: number }>();
  return row!.n;
}

describe('tidySearchIndex (docs/search.md, "Index upkeep")', () => {
  it('merges the segments many small writes leave, step by step, and searches answer the same', async () => {
    // this test's searches must not tidy the index after their answers (tidyAfterSearch): the minute starts now
    tidyIsDue();
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session);
    // each product is its own request, i.e. its own transaction and FTS5 segment
    for (let i = 0; i < 12; i++)
      await makeProduct(session, catalogId, { sku: `TIDY-${i}`, name: `Tidy Leitung ${i} Schuko` });
    const search = async (q: string) => {
      const res = await call(
        'GET',
        `/api/Catalog/GetProducts?catalogId=${catalogId}&q=${encodeURIComponent(q)}&limit=100`,
        {
          cookie: session.cookie,
        },
      );
      expect(res.status).toBe(200);
      return (res.json.items as { sku: string }[]).map((p) => p.sku).sort();
    };
    const before = {
      leitung: await search('leitung'),
      seven: await search('Leitung 7'),
      prefix: await search('TIDY-1'),
    };
    expect(before.leitung).toHaveLength(12);
    expect(await segments()).toBeGreaterThan(1);

    // the step count says whether D1 reports the merge (changes >= 2) and its end (< 2): see below
    const merged = await tidySearchIndex(db(), { pages: 2, budgetMs: 60_000 });
    expect(merged).toBeGreaterThanOrEqual(1);
    expect(await segments()).toBe(1);
    expect(await search('leitung')).toEqual(before.leitung);
    expect(await search('Leitung 7')).toEqual(before.seven);
    expect(await search('TIDY-1')).toEqual(before.prefix);

    // one segment left: a tidy is one step that changes nothing
    expect(await tidySearchIndex(db())).toBe(0);
    expect(await segments()).toBe(1);
  });

  it('stops at its time budget and leaves the rest for the next run', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session);
    for (let i = 0; i < 8; i++) await makeProduct(session, catalogId, { sku: `BUDGET-${i}`, name: `Budget ${i}` });
    expect(await segments()).toBeGreaterThan(1);
    expect(await tidySearchIndex(db(), { pages: 1, budgetMs: 0 })).toBe(1);
  });

  it('a search tidies the index after its answer, at most once a minute per isolate (where no cron fires)', async () => {
    const session = await makeSession();
    const { catalogId } = await makeCatalog(session);
    const search = async (path: string) => {
      const res = await call('GET', `${path}?catalogId=${catalogId}&q=Nachtidy`, { cookie: session.cookie });
      expect(res.status).toBe(200);
      return res.json.items as unknown[];
    };
    await writeApart(session, catalogId, 'NACHTIDY-A', 6);
    expect(await segments()).toBeGreaterThan(1);
    resetSearchTidy();
    expect(await search('/api/Catalog/GetProducts')).toHaveLength(6);
    await expect.poll(segments, { timeout: 10_000, interval: 50 }).toBe(1);

    // within the minute another search leaves the new segments to the cron
    await writeApart(session, catalogId, 'NACHTIDY-B', 6);
    const left = await segments();
    expect(left).toBeGreaterThan(1);
    expect(await search('/api/Catalog/GetProducts')).toHaveLength(12);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await segments()).toBe(left);
    // a list without a search never tidies
    resetSearchTidy();
    const list = await call('GET', `/api/Catalog/GetProducts?catalogId=${catalogId}`, { cookie: session.cookie });
    expect(list.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await segments()).toBe(left);
  });
});

/** `count` products, each its own request (transaction), so each leaves an FTS5 segment. */
async function writeApart(
  session: Awaited<ReturnType<typeof makeSession>>,
  catalogId: string,
  prefix: string,
  count: number,
) {
  for (let i = 0; i < count; i++)
    await makeProduct(session, catalogId, { sku: `${prefix}-${i}`, name: `Nachtidy ${i}` });
}
