import { describe, expect, it } from 'vitest';
import { listProducts } from '../src/catalog/product-list';
import { MAX_PREFIX_WORDS, planSearch } from '../src/catalog/search-plan';
import { searchWords } from '../src/catalog/product-search';
import { runBatch } from '../src/db/client';
import { writeTranslationStatements } from '../src/model/translation-store';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';

/**
 * Search plans (src/catalog/search-plan.ts, docs/search.md): with a small rank limit, a word
 * every product has is "common" and the plans switch exactly as they do on a million products.
 */
async function catalogOfSwitches() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  // Every product has "Schalter" and "Typ"; the numbers are rare. Created out of SKU order.
  for (const n of [7, 3, 12, 5, 1, 70])
    await makeProduct(session, catalog.catalogId, {
      sku: `SW-${String(n).padStart(3, '0')}`,
      name: `Schalter Typ ${n}`,
    });
  const list = (q: string, extra: Record<string, unknown> = {}, rankLimit = 3) =>
    listProducts(db(), session, { catalogId: catalog.catalogId, q, limit: 50, ...extra }, { rankLimit });
  const skus = async (q: string, extra: Record<string, unknown> = {}, rankLimit = 3) =>
    (await list(q, extra, rankLimit)).items.map((p) => p.sku);
  return { session, catalog, list, skus };
}

describe('search plans', () => {
  it('matches a common whole word exactly and a rare word as a prefix', async () => {
    await catalogOfSwitches();
    const plan = await planSearch(db(), 'Typ 7', 3);
    expect(plan).not.toBeNull();
    // "Typ" is in every product here (more than 3): whole word, checked per candidate.
    expect(plan!.checks).toContain('"Typ"');
    // "7" begins the words 7 and 70 of the index: matched as those two words, each whole. (Tests
    // share the index: the ones adding more products come last, so "7" stays rare here.)
    expect(plan!.match).toBe('("7" OR "70")');
    expect(plan!.selective).toBe(true);
  });

  it('answers a common word plus a rare one from the rare one, ranked, with the same results as one MATCH', async () => {
    const { skus } = await catalogOfSwitches();
    expect((await skus('Typ 7')).sort()).toEqual(['SW-007', 'SW-070']);
    expect(await skus('Typ 12')).toEqual(['SW-012']);
    expect(await skus('schalter typ 5')).toEqual(['SW-005']);
    expect(await skus('Typ 7', {}, 5000)).toEqual(await skus('Typ 7'));
    expect(await skus('Typ 7', { sort: 'sku', order: 'desc' })).toEqual(['SW-070', 'SW-007']);
    expect(await skus('Typ 99')).toEqual([]);
  });

  it('lists a broad search in index order and honours an explicit sort, through every page', async () => {
    const { list, skus } = await catalogOfSwitches();
    expect(await skus('schalter')).toEqual(['SW-007', 'SW-003', 'SW-012', 'SW-005', 'SW-001', 'SW-070']);
    expect(await skus('Schalter typ', { sort: 'sku' })).toEqual([
      'SW-001',
      'SW-003',
      'SW-005',
      'SW-007',
      'SW-012',
      'SW-070',
    ]);
    for (const extra of [{}, { sort: 'name', order: 'desc' }]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await list('typ', { ...extra, limit: 4, cursor });
        seen.push(...page.items.map((p) => p.sku!));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(new Set(seen).size, JSON.stringify(extra)).toBe(6);
    }
    // A prefix of a common word that is not itself a word stays a prefix (merged once).
    expect(await skus('schal', { sort: 'sku' })).toHaveLength(6);
    expect(await skus('schal 12')).toEqual(['SW-012']);
  });

  it('refuses a cursor of the index order for another order', async () => {
    const { list } = await catalogOfSwitches();
    const first = await list('schalter', { limit: 2 });
    expect(first.nextCursor).not.toBeNull();
    await expect(list('schalter', { limit: 2, sort: 'sku', cursor: first.nextCursor })).rejects.toThrow(
      'cursor belongs to another sort order',
    );
  });
  it('matches a prefix that begins few words as those words, read lazily, with the results of the prefix', async () => {
    const { skus } = await catalogOfSwitches();
    // "schal" begins one word, "schalter", common here: a broad search in index order, as the word itself.
    const plan = await planSearch(db(), 'Schäl', 3);
    expect(plan).toMatchObject({ all: '"schalter"', allLazy: true, selective: false, checks: [] });
    expect(await skus('Schäl')).toEqual(await skus('schalter'));
    // An identifier's head stays in each phrase: "0" of SW-0 begins 001, 003, 005, 007, 012 and 070.
    expect((await planSearch(db(), 'SW-0', 3))?.all).toBe(
      '("SW-001" OR "SW-003" OR "SW-005" OR "SW-007" OR "SW-012" OR "SW-070")',
    );
    expect(await skus('SW-0', { sort: 'sku' })).toEqual(['SW-001', 'SW-003', 'SW-005', 'SW-007', 'SW-012', 'SW-070']);
    // A prefix no word begins matches nothing, without reading any document.
    expect(await planSearch(db(), 'Schalq', 3)).toBeNull();
  });

  it("folds only tokens whose folding is certain to be the tokenizer's", () => {
    expect(searchWords('Schäl')?.[0]).toMatchObject({ folded: 'schal', head: '' });
    expect(searchWords('GEN-00012)')?.[0]).toMatchObject({ folded: '00012', head: 'GEN-' });
    expect(searchWords('Straße')?.[0]?.folded).toBe('straße');
    expect(searchWords('Typ')?.[0]?.folded).toBeNull(); // three characters: the prefix index answers it
    for (const word of ['Schæl', 'Провод', 'x\u{E000}abcd', 'ab\u0301cd'])
      expect(searchWords(word)?.[0]?.folded, word).toBeNull();
  });

  it('keeps a prefix that begins more words than the plan lists as a prefix, with the same results', async () => {
    const { session, catalog, skus } = await catalogOfSwitches();
    // Names q1 ... q17: "q" is no word of its own and begins 17 words.
    for (let n = 1; n <= MAX_PREFIX_WORDS + 1; n++)
      await makeProduct(session, catalog.catalogId, { sku: `B-${n}`, name: `Bauteil q${n}` });
    const plan = await planSearch(db(), 'q', 3);
    expect(plan).toMatchObject({ all: '"q"*', allLazy: false });
    expect(await skus('q', { sort: 'sku', limit: 100 })).toHaveLength(MAX_PREFIX_WORDS + 1);
    expect(await skus('Bauteil q', { limit: 100 })).toHaveLength(MAX_PREFIX_WORDS + 1);
    expect((await planSearch(db(), 'q1', 3))?.all).toBe('"q1"*'); // two characters: the prefix index answers it
    expect(await skus('q1', { sort: 'sku', limit: 100 })).toEqual([
      'B-1',
      'B-10',
      'B-11',
      'B-12',
      'B-13',
      'B-14',
      'B-15',
      'B-16',
      'B-17',
    ]);
  });

  it("narrows a rare word's documents by the common word in one pass: same document, same language", async () => {
    const session = await makeSession();
    const catalog = await makeCatalog(session, { language: 'deu', languages: ['deu', 'eng'] });
    // words of this test only (the index is shared): "common" in 6 documents, "rare" in 5 (rank limit 5)
    const tag = crypto.randomUUID().replace(/-/g, '').slice(0, 10);
    const [common, rare] = [`Gemein${tag}`, `Selten${tag}`];
    const add = async (sku: string, name: string, eng?: string) => {
      const product = await makeProduct(session, catalog.catalogId, { sku, name });
      if (eng) await runBatch(db(), writeTranslationStatements(db(), product.productId, 'eng', { name: eng }));
    };
    await add('N-1', `${common} ${rare}`);
    await add('N-2', rare, `${common} ${rare}`); // both words in its English name only
    await add('N-3', rare, common); // one word per language: no match
    await add('N-4', rare); // the rare word alone
    for (const n of [5, 6, 7]) await add(`N-${n}`, common);
    const skus = async (q: string, extra: Record<string, unknown> = {}, rankLimit = 5) =>
      (
        await listProducts(db(), session, { catalogId: catalog.catalogId, q, limit: 50, ...extra } as never, {
          rankLimit,
        })
      ).items.map((p) => p.sku);
    const plan = await planSearch(db(), `${common} ${rare}`, 5);
    expect(plan).toMatchObject({ selective: true, checks: [`"${common}"`] });
    expect(plan!.narrowing).toBe(`${plan!.match} AND "${common}"`);
    for (const q of [`${common} ${rare}`, `${rare} ${common}`]) {
      expect((await skus(q)).sort(), q).toEqual(['N-1', 'N-2']);
      expect(await skus(q, { sort: 'sku', order: 'desc' }), q).toEqual(['N-2', 'N-1']);
      expect(await skus(q, { searchLanguage: 'eng' }), q).toEqual(['N-2']);
      expect(await skus(q, { searchLanguage: 'deu' }), q).toEqual(['N-1']);
      // the same masters as one MATCH of every word (rank limit 5000: no word is common)
      expect((await skus(q, {}, 5000)).sort(), q).toEqual(['N-1', 'N-2']);
    }
    // a page boundary inside the narrowed hits
    const first = await listProducts(
      db(),
      session,
      { catalogId: catalog.catalogId, q: `${common} ${rare}`, sort: 'sku', limit: 1 } as never,
      { rankLimit: 5 },
    );
    expect(first.items.map((p) => p.sku)).toEqual(['N-1']);
    const second = await listProducts(
      db(),
      session,
      {
        catalogId: catalog.catalogId,
        q: `${common} ${rare}`,
        sort: 'sku',
        limit: 1,
        cursor: first.nextCursor,
      } as never,
      { rankLimit: 5 },
    );
    expect(second).toMatchObject({ items: [{ sku: 'N-2' }], nextCursor: null });
  });
});
