/**
 * Latency of the hot REST operations against a real `wrangler dev` with local D1 (SQLite):
 * GetStats, AddProduct, UpsertProducts of 1000, and GetProducts in every order (first page and a deep keyset page)
 * and with full-text searches (ranked hit, SKU prefix, name word, broad word, no hit), each
 * search side by side with its bare SQL timed by the sqlite3 shell on the same database file
 * (bench/api-sql.ts). Prints p50 / p95 / max in milliseconds per operation and size.
 *
 *   npm run bench:api                                  # 1,000 and 100,000 master products
 *   npm run bench:api -- --sizes 1000,10000            # other sizes
 *   npm run bench:api -- --state DIR --sizes 1000000   # reuse a seeded state dir (kept)
 *   npm run bench:api -- --sizes 10000 --only writes   # only the single-product writes (docs/history.md)
 *   npm run bench:api -- --state DIR --sizes 1000000 --only reads   # only the lists, searches and filters
 *   npm run bench:api -- --state DIR --sizes 1000000 --pad 100000   # first add 100,000 masters without the broad word
 *   npm run bench:api -- --sizes 100000 --languages deu,eng,fra      # the catalog in three languages: searches per language
 *   npm run bench:api -- --state DIR --sizes 1000000 --only reads --match variant-only   # only the variant-word searches
 *   npm run bench:api -- --state DIR --sizes 1000000 --only reads --scoped   # the reads again as a subtree-scoped editor
 *   npm run bench:api -- --help                        # every flag with its default
 *
 * Without --state each size gets a fresh state dir, seeded by scripts/seed-synthetic.ts
 * (masters plus 0.6 variants per master on average, each with values, features and media);
 * with --state DIR each size's sub-directory DIR/<masters> is seeded once and reused
 * (bench/lib/state.ts).
 */
import { execFileSync } from 'node:child_process';
import { startDevServer } from '../scripts/lib/dev-server';
import { listSql, timeSql, type SqlCase } from './api-sql';
import { benchArgs, sizesFlag, positiveInt, positiveInts } from './lib/args';
import { addBenchChannels, deleteBenchChannels, scoreBytes } from './lib/channels';
import { apiSession } from './lib/session';
import { d1File, releaseState, seededState, tidySearchIndexOf } from './lib/state';
import { workerSocketOf } from './lib/worker-socket';
import { percentile } from './lib/stats';
import type { ProductListItem, ProductPage } from './lib/types';

const args = benchArgs('npm run bench:api -- [flags]: REST latency of lists, searches and writes', {
  sizes: sizesFlag('1000,100000'),
  samples: { type: 'string', default: '30', help: 'timed requests per operation (UpsertProducts: at most 5)' },
  state: { type: 'string', value: 'DIR', help: 'keep each seeded catalog in DIR/<masters> and reuse it next time' },
  pad: {
    type: 'string',
    value: 'N',
    help: 'first make the catalog hold N masters without the searched word, named before it ("Bench padding ..."), added by SQL on the D1 file (the triggers index them)',
  },
  languages: {
    type: 'string',
    value: 'L,L',
    help: 'the catalog publishes these languages, the first its default (seed:synthetic --languages deu,eng,fra): names of masters and variants in each, and every search also runs per language',
  },
  channels: {
    type: 'string',
    value: 'N',
    help: 'issue 21: after the reads and writes, add N channels in every catalog language (each scores the catalog: recompute time), then time the completeness filters and the writes again (upkeep), print the score bytes, and delete the channels',
  },
  match: {
    type: 'string',
    value: 'TEXT',
    help: 'time only the operations whose name contains TEXT (e.g. "variant-only"); the rest are skipped',
  },
  scoped: {
    type: 'boolean',
    help: "issue 33 (docs/teams.md): after the reads, time them again as an editor limited to the first top-level category (its subtree holds about 10 % of the synthetic masters), a member added by SQL with the seed account's password; GetProduct of a master in that subtree is timed for both",
  },
  direct: {
    type: 'boolean',
    help: "time requests at the Worker's own socket, past wrangler's dev proxy (bench/lib/worker-socket.ts; docs/benchmarks.md \"Where a request's time goes\")",
  },
  only: {
    type: 'string',
    value: 'writes|reads',
    help: 'writes: only AddProduct, SetValue and UpdateProduct (the reads and upserts are skipped); reads: only the lists, searches and filters',
  },
});
const sizes = positiveInts('sizes', args.sizes);
const SAMPLES = positiveInt('samples', args.samples);
const ONLY = args.only;
const PAD = args.pad === undefined ? 0 : positiveInt('pad', args.pad);
const LANGUAGES = (args.languages ?? '').split(',').filter((l) => l !== '');
const CHANNELS = args.channels === undefined ? 0 : positiveInt('channels', args.channels);
const MATCH = args.match;
const SCOPED = args.scoped;
const DIRECT = args.direct;
if (ONLY !== undefined && ONLY !== 'writes' && ONLY !== 'reads')
  throw new Error(`--only: expected "writes" or "reads", got "${ONLY}"`);

interface Row {
  operation: string;
  p50: number;
  p95: number;
  max: number;
  sql?: { p50: number; p95: number };
}

const cursorOf = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function benchSize(masters: number) {
  const state = await seededState(masters, args.state, undefined, false, LANGUAGES);
  const { dir, seeded } = state;
  try {
    if (PAD > 0) padCatalog(d1File(dir), seeded, PAD);
    // the first broad search by name then builds its head (measured on its own below)
    execFileSync('sqlite3', [d1File(dir), `DELETE FROM search_head_bounds WHERE catalog_id = '${seeded.catalogId}'`]);
    // channels are an administrator's (AddChannel is admin only); the seed's user is an editor
    if (CHANNELS > 0)
      execFileSync('sqlite3', [
        d1File(dir),
        `UPDATE memberships SET role = 'admin' WHERE company_id = '${seeded.companyId}'`,
      ]);
    const scopedEditor = SCOPED ? addScopedEditor(d1File(dir), seeded) : undefined;
    const tidy = tidySearchIndexOf(dir);
    console.error(
      `search index: ${tidy.before} segments, ${tidy.after} after ${tidy.steps} merge steps (the upkeep's state)`,
    );
    const server = await startDevServer(dir);
    const rows: Row[] = [];
    const sqlCases: SqlCase[] = [];
    let scores: string | undefined;
    try {
      // --direct: every request to the Worker's own socket (wrangler's dev proxy left out)
      const baseUrl = DIRECT ? await workerSocketOf(server) : server.baseUrl;
      if (DIRECT)
        console.error(`--direct: the Worker's socket is ${baseUrl} (wrangler dev's proxy: ${server.baseUrl})`);
      const { call } = await apiSession(baseUrl, seeded);
      /** Who reads: the seed's editor, and with --scoped also the subtree-scoped editor (`scoped`), whose operations are labelled. */
      let reader = call;
      let label = '';
      let scoped: { call: typeof call; label: string } | undefined;
      const get = <T = unknown>(path: string) => reader<T>(path);
      const post = <T = unknown>(path: string, body: unknown) => call<T>(path, body);
      for (let i = 0; i < 5; i++) await get('/Catalog/GetStats');
      const list = (query: string) => get<ProductPage>(`/Catalog/GetProducts?catalogId=${seeded.catalogId}&${query}`);
      const measure = async (
        operation: string,
        fn: (i: number) => Promise<unknown>,
        sql?: string[],
        samples = SAMPLES,
      ) => {
        if (MATCH !== undefined && !operation.includes(MATCH)) return;
        // With --scoped, each sample is taken for the seed's editor and then for the scoped one,
        // so both see the same machine (a run's load and the server's warmth drift over minutes).
        const readers = scoped
          ? [
              { call, label: '' },
              { call: scoped.call, label: scoped.label },
            ]
          : [{ call: reader, label }];
        const times = readers.map(() => [] as number[]);
        for (let i = 0; i < samples; i++)
          for (const [r, who] of readers.entries()) {
            reader = who.call;
            const start = performance.now();
            await fn(i);
            times[r]!.push(performance.now() - start);
          }
        reader = call;
        for (const [r, who] of readers.entries()) {
          const t = times[r]!;
          const name = `${who.label}${operation}`;
          rows.push({ operation: name, p50: percentile(t, 50), p95: percentile(t, 95), max: Math.max(...t) });
          // the bare SQL is the unscoped statement: timed once, for the seed's editor
          if (sql && !who.label) sqlCases.push({ name, statements: sql });
        }
      };
      const sql = listSql(seeded.catalogId, seeded.companyId);
      /** The languages the catalog publishes, its default first (empty: the seed's one language). */
      const catalogLanguages = () =>
        JSON.parse(
          execFileSync('sqlite3', [
            '-readonly',
            d1File(dir),
            `SELECT languages FROM catalogs WHERE id = '${seeded.catalogId}'`,
          ])
            .toString()
            .trim() || '[]',
        ) as string[];

      // Deep keyset positions: the product 90 % into the SKU order (10 % for descending orders).
      // Every synthetic master has a SKU, a name and a GTIN (scripts/seed-synthetic.ts).
      const at = async (fraction: number) =>
        (await list(`q=${`GEN-${String(Math.floor(masters * fraction)).padStart(7, '0')}`}&sort=sku`))
          .items[0] as ProductListItem & { sku: string; name: string; gtin: string };
      const deep = await at(0.9);
      const shallow = await at(0.1);
      if (scopedEditor && ONLY !== 'writes') {
        const scopedCall = (await apiSession(baseUrl, { email: scopedEditor.email, password: seeded.password })).call;
        const scopedLabel = `[scoped: ${scopedEditor.masters.toLocaleString('en')} masters] `;
        // a scope's first count makes its scope set (docs/teams.md "Counts"): once, timed apart
        reader = scopedCall;
        label = scopedLabel;
        await measure('GetStats, first count (makes the scope set)', () => get('/Catalog/GetStats'), undefined, 1);
        reader = call;
        label = '';
        scoped = { call: scopedCall, label: scopedLabel };
      }
      if (ONLY !== 'writes') await measureReads();
      scoped = undefined;
      if (ONLY !== 'reads') await measureWrites();
      if (ONLY === undefined) await measureUpserts();
      if (CHANNELS > 0) await measureWithChannels();

      async function measureReads() {
        await measure('GetStats', () => get('/Catalog/GetStats'));
        await measure('GetCatalogs', () => get('/Catalog/GetCatalogs'));
        await measure('GetCategoryTree', () => get(`/Catalog/GetCategoryTree?catalogId=${seeded.catalogId}`));
        await measure('GetCompletenessOverview', () => get('/Catalog/GetCompletenessOverview'));
        // one product read: for the scoped editor its scope check (docs/teams.md) is the difference
        if (scopedEditor)
          await measure('GetProduct (a master in the scoped subtree)', () =>
            get(`/Catalog/GetProduct?productId=${scopedEditor.productId}`),
          );
        for (const order of ['asc', 'desc'] as const) {
          const p = order === 'asc' ? deep : shallow;
          await measure(`sku ${order}, first page (50)`, () => list(`sort=sku&order=${order}`), sql.bySku(null, order));
          const skuCursor = cursorOf({ s: 'sku', o: order, g: 'value', k: p.sku, i: p.productId });
          await measure(
            `sku ${order}, deep page (50)`,
            () => list(`sort=sku&order=${order}&cursor=${skuCursor}`),
            sql.bySku(p.sku, order),
          );
          for (const [sort, column, key] of [
            ['name', 'name', p.name],
            ['updatedAt', 'updated_at', p.updatedAt],
          ] as const) {
            await measure(
              `${sort} ${order}, first page (50)`,
              () => list(`sort=${sort}&order=${order}`),
              sql.byKey(column, null, order),
            );
            const c = cursorOf({ s: sort, o: order, g: 'value', k: key, i: p.productId });
            await measure(
              `${sort} ${order}, deep page (50)`,
              () => list(`sort=${sort}&order=${order}&cursor=${c}`),
              sql.byKey(column, { k: key, i: p.productId }, order),
            );
          }
        }
        const typ = String(Math.floor(masters * 0.7));
        // A variant near the end of the catalog (its SKU and GTIN find its master).
        const variant = JSON.parse(
          execFileSync('sqlite3', [
            '-readonly',
            '-json',
            d1File(dir),
            `SELECT sku, gtin FROM products WHERE rowid > (SELECT max(rowid) * 9 / 10 FROM products) AND parent_id IS NOT NULL LIMIT 1`,
          ]).toString() || '[]',
        )[0] as { sku: string; gtin: string } | undefined;
        // Each search with the plan GetProducts picks for it on the synthetic catalog (src/catalog/search-plan.ts).
        const searches: [string, string, string[]][] = [
          // A prefix of 4+ characters that begins one word of the index is that word (search-plan.ts).
          ['search hit, ranked: SKU', deep.sku, sql.ranked([deep.sku], `"${deep.sku}"`)],
          ['search SKU prefix (100 masters), ranked', 'GEN-00012', sql.ranked(['GEN-00012'], '"GEN-00012"*')],
          [`search name words "Typ ${typ}", ranked`, `Typ ${typ}`, sql.ranked(['Typ', typ], `"${typ}"`, ['"Typ"'])],
          ['search GTIN, ranked', deep.gtin, sql.ranked([deep.gtin], `"${deep.gtin}"`)],
          ...(variant
            ? ([
                ['search variant SKU (lists its master)', variant.sku, sql.ranked([variant.sku], `"${variant.sku}"*`)],
                [
                  'search variant GTIN (lists its master)',
                  variant.gtin,
                  sql.ranked([variant.gtin], `"${variant.gtin}"`),
                ],
              ] as [string, string, string[]][])
            : []),
          [
            'search broad word (every master), index order',
            'Leitungsschutzschalter',
            sql.broad(['Leitungsschutzschalter'], '"Leitungsschutzschalter"'),
          ],
          [
            'search broad prefix, not a word ("Leitungss"), index order',
            'Leitungss',
            sql.broad(['Leitungss'], '"leitungsschutzschalter"'),
          ],
          ['search without hits', 'Kabeltrommel', sql.noHit(['Kabeltrommel'])],
        ];
        for (const [name, q, statements] of searches)
          await measure(name, () => list(`q=${encodeURIComponent(q)}`), statements);
        // Filters and a sorted search (API only): a leaf category and a status few or no masters
        // have are read from their index and sorted in memory (docs/search.md, "Filter plans"); a
        // class code has no index, so one no product has walks the whole SKU order.
        type Node = { categoryId: string; productCount: number; children?: Node[] };
        const leafOf = (n: Node): Node => (n.children?.length ? leafOf(n.children[0]!) : n);
        const tree = await get<{ items: Node[] }>(`/Catalog/GetCategoryTree?catalogId=${seeded.catalogId}`);
        const leaf = leafOf(tree.items[0]!);
        await measure(`filter leaf category (${leaf.productCount} masters), sku order`, () =>
          list(`categoryId=${leaf.categoryId}`),
        );
        await measure('filter status draft (no master), sku order', () => list('status=draft'));
        await measure('filter class code no master has, sku order', () => list('classCode=EC999999'));
        await measure('search broad word + status draft (no master), index order', () =>
          list('q=Leitungsschutzschalter&status=draft'),
        );
        await measure(`search broad word + leaf category, sku order`, () =>
          list(`q=Leitungsschutzschalter&categoryId=${leaf.categoryId}&sort=sku`),
        );
        // a broad search by name reads the head of its word, built by the first one (docs/search.md)
        await measure(
          'search broad word sorted by name, first request (builds the head)',
          () => list('q=Leitungsschutzschalter&sort=name'),
          undefined,
          1,
        );
        await measure('search broad word sorted by name', () => list('q=Leitungsschutzschalter&sort=name'));
        await measure('search broad word sorted by name, descending', () =>
          list('q=Leitungsschutzschalter&sort=name&order=desc'),
        );
        await measure('search broad word sorted by SKU', () => list('q=Leitungsschutzschalter&sort=sku'));
        // A word only variants carry ("Variante", in the German name of every synthetic variant:
        // 600,000 documents at 1M) lists their masters (migration 0057, docs/search.md "Search plans").
        const variantWord = 'q=Variante';
        await measure('search variant-only word "Variante", index order', () => list(variantWord));
        const variantNext = (await list(variantWord)).nextCursor;
        if (variantNext)
          await measure('search variant-only word "Variante", second page', () =>
            list(`${variantWord}&cursor=${variantNext}`),
          );
        await measure(
          'search variant-only word "Variante" sorted by name, first request (builds the head)',
          () => list(`${variantWord}&sort=name`),
          undefined,
          1,
        );
        await measure('search variant-only word "Variante" sorted by name', () => list(`${variantWord}&sort=name`));
        await measure('search variant-only word "Variante" sorted by SKU', () => list(`${variantWord}&sort=sku`));
        await measure('search variant-only word "Variante" sorted by SKU, descending', () =>
          list(`${variantWord}&sort=sku&order=desc`),
        );
        await measure('search variant-only word "Variante" + leaf category, sku order', () =>
          list(`${variantWord}&categoryId=${leaf.categoryId}&sort=sku`),
        );
        // Searches per language when the catalog publishes English and French (seed:synthetic
        // --languages deu,eng,fra): translated names are indexed per language (docs/search.md, "Languages").
        const languages = catalogLanguages();
        const words: Record<string, string> = { deu: 'Leitungsschutzschalter', eng: 'Circuit', fra: 'Disjoncteur' };
        const variantWords: Record<string, string> = { deu: 'Variante', eng: 'variant', fra: 'variante' };
        for (const language of languages.filter((l) => words[l])) {
          const word = words[language]!;
          const q = (text: string) => `q=${encodeURIComponent(text)}`;
          await measure(`[${language}] search name words "${word} ${typ}", ranked, searchLanguage=${language}`, () =>
            list(`${q(`${word} ${typ}`)}&searchLanguage=${language}`),
          );
          await measure(`[${language}] search name words "${word} ${typ}", ranked, any language`, () =>
            list(q(`${word} ${typ}`)),
          );
          await measure(`[${language}] search broad word "${word}", index order, searchLanguage=${language}`, () =>
            list(`${q(word)}&searchLanguage=${language}`),
          );
          await measure(`[${language}] search broad word "${word}", index order, any language`, () => list(q(word)));
          // the first request of a word builds its head once (docs/search.md), timed on its own as for the German word
          await measure(
            `[${language}] search broad word "${word}" sorted by name, first request (builds the head unless built)`,
            () => list(`${q(word)}&sort=name&searchLanguage=${language}`),
            undefined,
            1,
          );
          await measure(`[${language}] search broad word "${word}" sorted by name, searchLanguage=${language}`, () =>
            list(`${q(word)}&sort=name&searchLanguage=${language}`),
          );
          await measure(`[${language}] search broad word "${word}" + leaf category, searchLanguage=${language}`, () =>
            list(`${q(word)}&categoryId=${leaf.categoryId}&sort=sku&searchLanguage=${language}`),
          );
          // the word only the variants' translated names carry (seed:synthetic: "variant", "variante")
          const only = variantWords[language];
          if (!only) continue;
          for (const [order, extra] of [
            ['index order', ''],
            ['sorted by SKU', '&sort=sku'],
            ['sorted by SKU, descending', '&sort=sku&order=desc'],
            ['sorted by name', '&sort=name'],
          ] as const)
            await measure(
              `[${language}] search variant-only word "${only}", ${order}, searchLanguage=${language}`,
              () => list(`${q(only)}${extra}&searchLanguage=${language}`),
            );
        }
        const sortedSearch = `q=${encodeURIComponent(`Typ ${typ.slice(0, 4)}`)}&sort=sku`;
        // Below 100,000 masters the search has a single page (nextCursor null): nothing to time.
        const secondPage = (await list(sortedSearch)).nextCursor;
        if (secondPage)
          await measure(`search "Typ ${typ.slice(0, 4)}" sorted by SKU, second page`, () =>
            list(`${sortedSearch}&cursor=${secondPage}`),
          );
      }

      async function measureWrites(suffix = '') {
        await measure(`AddProduct${suffix}`, (i) =>
          post('/Catalog/AddProduct', {
            departmentId: seeded.departmentId,
            catalogId: seeded.catalogId,
            sku: `BENCH-${i}-${Date.now()}`,
            name: 'Bench product',
            price: '9.99',
          }),
        );
        // One product's name, written again and again: each write changes it, records a version
        // and stores the master's new fingerprint (docs/history.md, "Concurrency").
        await measure(`SetValue (a product name)${suffix}`, (i) =>
          post('/Catalog/SetValue', {
            departmentId: seeded.departmentId,
            elementId: deep.productId,
            field: 'name',
            value: `Bench name ${i} ${Date.now()}`,
          }),
        );
        await measure(`UpdateProduct (name and price)${suffix}`, (i) =>
          post('/Catalog/UpdateProduct', {
            departmentId: seeded.departmentId,
            catalogId: seeded.catalogId,
            productId: shallow.productId,
            name: `Bench update ${i} ${Date.now()}`,
            price: `${10 + (i % 50)}.50`,
          }),
        );
      }

      /** Issue 21 (docs/completeness.md): recompute per channel, the completeness filters, the writes' upkeep. */
      async function measureWithChannels() {
        const languages = catalogLanguages();
        const added = await addBenchChannels(call, languages.length ? languages : ['deu'], CHANNELS);
        try {
          added.forEach((a, n) => {
            rows.push({
              operation: `AddChannel ${n + 1}: recompute of the catalog (seconds)`,
              p50: a.seconds,
              p95: a.seconds,
              max: a.seconds,
            });
          });
          const first = added[0]!.channelId;
          await measure('filter incomplete for channel 1 (any language)', () => list(`incompleteFor=${first}`));
          await measure(`filter incomplete for channel 1 in ${languages.at(-1) ?? 'deu'}`, () =>
            list(`incompleteFor=${first}&channelLanguage=${languages.at(-1) ?? 'deu'}`),
          );
          await measure('filter incomplete for channel 1 missing gtin', () =>
            list(`incompleteFor=${first}&missingRequirement=gtin`),
          );
          await measure('sort by completeness for channel 1', () =>
            list(`sort=completeness&completenessChannel=${first}`),
          );
          await measureWrites(` (${CHANNELS} channels)`);
        } finally {
          scores = scoreBytes(d1File(dir), seeded.masters);
          await deleteBenchChannels(
            call,
            added.map((a) => a.channelId),
          );
        }
      }

      async function measureUpserts() {
        // UpsertProducts with 1000 masters (every fifth with 2 variants): new SKUs, then the same
        // payload again (all unchanged: read and compared, nothing written).
        const run = Date.now().toString(36);
        const upsertItems = (i: number) =>
          Array.from({ length: 1000 }, (_, n) => ({
            sku: `UPS-${run}-${i}-${n}`,
            name: `Bench upsert ${n} Typ ${i}`,
            manufacturerPid: `UPS-MPN-${run}-${i}-${n}`,
            price: '12.50',
            ...(n % 5 === 0
              ? { variants: [1, 2].map((v) => ({ sku: `UPS-${run}-${i}-${n}-V${v}`, name: `Variante ${v}` })) }
              : {}),
          }));
        /** One call; its counts must say `expected` for all 1400 items (the timing is of answered work only). */
        const upsert = (expected: 'created' | 'unchanged') => async (i: number) => {
          const { counts } = await post<{ counts: Record<string, number> }>('/Catalog/UpsertProducts', {
            departmentId: seeded.departmentId,
            catalogId: seeded.catalogId,
            items: upsertItems(i),
          });
          if (counts[expected] !== 1400)
            throw new Error(`UpsertProducts: ${JSON.stringify(counts)}, expected 1400 ${expected}`);
        };
        const UPSERT_SAMPLES = Math.min(SAMPLES, 5);
        await measure('UpsertProducts, 1000 new masters (+400 variants)', upsert('created'), undefined, UPSERT_SAMPLES);
        await measure(
          'UpsertProducts, the same 1000 again (unchanged)',
          upsert('unchanged'),
          undefined,
          UPSERT_SAMPLES,
        );
      }
    } finally {
      server.stop();
    }
    await new Promise((r) => setTimeout(r, 2000));
    const sqlTimes = timeSql(d1File(dir), sqlCases, SAMPLES);
    for (const row of rows) {
      const t = sqlTimes.get(row.operation);
      if (t?.length) row.sql = { p50: percentile(t, 50), p95: percentile(t, 95) };
    }
    return { masters: seeded.masters, variants: seeded.variants, rows, scores };
  } finally {
    releaseState(state);
  }
}

/**
 * Makes the catalog hold `count` padding masters: products without the benchmark's broad word
 * ("Leitungsschutzschalter") whose names sort before it, as a growing catalog adds them (the
 * measurements of a broad search must not depend on how many there are). Inserted by SQL in one
 * transaction on the D1 file while no server runs; the FTS triggers index them like any write.
 */
function padCatalog(file: string, seeded: { companyId: string; catalogId: string }, count: number) {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const have = Number(
    execFileSync('sqlite3', [
      file,
      `SELECT count(*) FROM products WHERE catalog_id = ${lit(seeded.catalogId)} AND sku LIKE 'PAD-%' AND parent_id IS NULL`,
    ])
      .toString()
      .trim(),
  );
  if (have >= count) return;
  const start = performance.now();
  execFileSync('sqlite3', [
    file,
    `BEGIN; WITH RECURSIVE n(i) AS (SELECT ${have + 1} UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
     INSERT INTO products (id, company_id, catalog_id, sku, name, price, status, created_at, updated_at)
     SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-7' || substr(hex(randomblob(2)), 2) || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
       ${lit(seeded.companyId)}, ${lit(seeded.catalogId)}, printf('PAD-%07d', i), printf('Bench padding %07d', i), '9.99', 'active',
       strftime('%Y-%m-%dT%H:%M:%fZ','now'), strftime('%Y-%m-%dT%H:%M:%fZ','now')
     FROM n; COMMIT;`,
  ]);
  process.stderr.write(
    `padded the catalog to ${count} masters without the word in ${Math.round(performance.now() - start)} ms\n`,
  );
}

/**
 * Issue 33: an editor limited to the catalog's first top-level category ("Bereich 1" of the
 * synthetic tree: 10 of 100 branches, about 10 % of the masters), added by SQL while no server
 * runs (once; a kept state dir keeps it) with the seed account's password hash, so the bench
 * signs in as them like any member. Returns their address, how many masters the subtree holds
 * and one of them (GetProduct).
 */
function addScopedEditor(
  file: string,
  seeded: { companyId: string; departmentId: string; catalogId: string; email: string },
) {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const email = `scoped-${seeded.email}`;
  const root = `(SELECT id FROM categories WHERE catalog_id = ${lit(seeded.catalogId)} AND parent_id IS NULL ORDER BY name, id LIMIT 1)`;
  execFileSync('sqlite3', [
    file,
    `BEGIN;
     INSERT OR IGNORE INTO users (id, email, name, password_hash, password_salt, security_stamp)
       SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-8' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))),
         ${lit(email)}, 'Scoped bench editor', password_hash, password_salt, security_stamp FROM users WHERE email = ${lit(seeded.email)};
     INSERT OR IGNORE INTO memberships (user_id, company_id, role, default_department_id)
       SELECT id, ${lit(seeded.companyId)}, 'editor', ${lit(seeded.departmentId)} FROM users WHERE email = ${lit(email)};
     DELETE FROM membership_scopes WHERE company_id = ${lit(seeded.companyId)} AND user_id = (SELECT id FROM users WHERE email = ${lit(email)});
     INSERT INTO membership_scopes (company_id, user_id, kind, value)
       SELECT ${lit(seeded.companyId)}, id, 'category', ${root} FROM users WHERE email = ${lit(email)};
     COMMIT;`,
  ]);
  const [row] = JSON.parse(
    execFileSync('sqlite3', [
      '-readonly',
      '-json',
      file,
      `WITH RECURSIVE sub(id) AS (SELECT ${root} UNION SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id)
       SELECT count(DISTINCT pc.product_id) AS masters, max(pc.product_id) AS productId
       FROM product_categories pc WHERE pc.category_id IN (SELECT id FROM sub)`,
    ]).toString(),
  ) as { masters: number; productId: string }[];
  if (!row?.masters) throw new Error('--scoped: the catalog has no top-level category with products');
  process.stderr.write(`scoped editor ${email}: ${row.masters} masters in the subtree\n`);
  return { email, masters: row.masters, productId: row.productId };
}

const results = [];
for (const size of sizes) {
  process.stderr.write(`seeding (or reusing) and measuring ${size} master products...\n`);
  results.push(await benchSize(size));
}
const f = (n: number | undefined) => (n === undefined ? '' : n.toFixed(1));
console.log(
  `\nREST latency, wrangler dev (local D1${DIRECT ? ", at the Worker's own socket past the dev proxy" : ''}), ${SAMPLES} samples each, milliseconds; SQL = the same statements in the sqlite3 shell on the same file\n`,
);
console.log('| catalog (masters + variants) | operation | p50 | p95 | max | SQL p50 | SQL p95 |');
console.log('|---|---|---:|---:|---:|---:|---:|');
for (const r of results) {
  for (const row of r.rows) {
    console.log(
      `| ${r.masters.toLocaleString('en')} + ${r.variants.toLocaleString('en')} | ${row.operation} | ${f(row.p50)} | ${f(row.p95)} | ${f(row.max)} | ${f(row.sql?.p50)} | ${f(row.sql?.p95)} |`,
    );
  }
}
for (const r of results)
  if (r.scores) console.log(`\n${r.masters.toLocaleString('en')} masters, ${CHANNELS} channels: ${r.scores}`);
