/**
 * Completeness upkeep and recompute, measured on the statements themselves (docs/completeness.md
 * "Measured"): every migration applied to a scratch SQLite database (node:sqlite, the engine D1
 * runs, without D1's network and storage layers), N masters in one catalog, 3 channels x 3
 * languages x 5 rules (name, gtin, media.normal, prices.net_list, gtinCheckDigit); every fifth
 * master has 3 variants (0.6 variants per master, as bench:api seeds). Prints:
 * - recompute: one channel over every master and its variants, in pages of the job's size with the
 *   job's statements (src/completeness/recompute.ts, src/db/score-counts.ts), with the CPU time of
 *   each kind of statement; `--per-row-counts` keeps the counters by the triggers instead (the job
 *   before migration 0045, for a before/after on the same machine);
 * - write upkeep p50: one SetValue-like statement (an attribute value upsert, a name update)
 *   with the channels and without any;
 * - bytes per master of the score rows and their index (dbstat).
 *
 *   npm run bench:completeness -- [masters=100000] [--per-row-counts]
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE } from '../src/completeness/recompute';

const args = process.argv.slice(2);
const N = Number(args.find((a) => !a.startsWith('--')) ?? 100_000);
const PER_ROW_COUNTS = args.includes('--per-row-counts');
const file = join(tmpdir(), `bench-completeness-${process.pid}.db`);
const db = new DatabaseSync(file);
db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]!.toFixed(2);

for (const name of readdirSync('migrations')
  .filter((f) => f.endsWith('.sql'))
  .sort())
  db.exec(readFileSync(join('migrations', name), 'utf8').replaceAll('--> statement-breakpoint', ''));

const seed = process.hrtime.bigint();
db.exec(`INSERT INTO companies (id, name, languages) VALUES ('co', 'Bench', '["deu","eng","fra"]');
  INSERT INTO departments (id, company_id, name) VALUES ('dep', 'co', 'D');
  INSERT INTO catalogs (id, company_id, department_id, name, languages) VALUES ('cat', 'co', 'dep', 'C', '["deu","eng","fra"]');
  INSERT INTO attributes (id, company_id, code, name, type) VALUES ('attr', 'co', 'colour', 'Colour', 'text');`);
db.exec('BEGIN');
const insert = db.prepare(`INSERT INTO products (id, company_id, catalog_id, sku, name, gtin, price, parent_id)
  VALUES (?, 'co', 'cat', ?, ?, ?, ?, ?)`);
const image = db.prepare(`INSERT INTO media (id, element_id, purpose, file_name, content_type, size, storage_key)
  VALUES (?, ?, 'normal', 'a.jpg', 'image/jpeg', 1, 'k')`);
const name = db.prepare(`INSERT INTO translations (element_id, field, lang, value) VALUES (?, 'name', 'eng', ?)`);
for (let i = 0; i < N; i++) {
  const id = `p-${String(i).padStart(8, '0')}`;
  insert.run(
    id,
    `SKU-${i}`,
    `Product ${i}`,
    i % 3 === 0 ? null : String(4006381000000 + i),
    i % 4 === 0 ? null : '9.90',
    null,
  );
  if (i % 2 === 0) image.run(`m-${i}`, id);
  if (i % 5 !== 0) name.run(id, `Product ${i} (en)`);
  // Variants inherit name, image and price; one of three lacks a GTIN.
  if (i % 5 === 0)
    for (let v = 0; v < 3; v++)
      insert.run(`${id}-v${v}`, `SKU-${i}-${v}`, '', v === 0 ? null : String(4006381100000 + i * 3 + v), null, id);
}
db.exec('COMMIT');
console.log(`seeded ${N} masters + ${(N / 5) * 3} variants in ${(ms(seed) / 1000).toFixed(1)} s`);

const RULES = [
  ['field', 'name', 'name'],
  ['field', 'gtin', 'gtin'],
  ['media', 'normal', 'media.normal>=1'],
  ['price', 'net_list', 'prices.net_list'],
  ['gtinCheckDigit', 'gtinCheckDigit', 'quality.gtinCheckDigit'],
] as const;
function addChannels() {
  for (let c = 1; c <= 3; c++) {
    db.exec(`INSERT INTO channels (id, channel_id, company_id, name, languages, requirements)
      VALUES (${c}, 'ch-${c}', 'co', 'Channel ${c}', '["deu","eng","fra"]', '[]')`);
    for (const lang of ['deu', 'eng', 'fra'])
      for (const [i, [kind, target, label]] of RULES.entries())
        db.exec(`INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label)
          VALUES ('co', ${c}, '${lang}', ${i}, '${kind}', '${target}', '${label}')`);
  }
}

/** CPU milliseconds of this process (node:sqlite runs in it): the cost whatever the machine's load. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** CPU milliseconds per kind of statement of the last recompute (the profile of a page). */
let profile: Record<string, number> = {};
function timed(kind: string, statement: string) {
  const c0 = cpu();
  db.exec(statement);
  profile[kind] = (profile[kind] ?? 0) + cpu() - c0;
}

/** The counters' items of the page's score rows, as src/db/score-counts.ts writes them. */
const countItems = (channel: number, keys: string, vkeys: string) => `
  SELECT c.channel_key, c.lang, k.value AS item, CASE k.value WHEN '#score' THEN c.score ELSE 1 END AS n
    FROM completeness c, json_each(CASE WHEN c.score = 100 THEN '["","#score","#complete"]' ELSE '["","#score"]' END) k
    WHERE c.channel_key = ${channel} AND c.product_key IN (${keys})
  UNION ALL SELECT c.channel_key, c.lang, j.value, 1 FROM completeness c, json_each(c.missing) j
    WHERE c.channel_key = ${channel} AND c.product_key IN (${keys}) AND c.missing IS NOT NULL
  UNION ALL SELECT v.channel_key, v.lang, k.value, 1
    FROM variant_completeness v, json_each(CASE WHEN v.score = 100 THEN '["#variants","#variantsComplete"]' ELSE '["#variants"]' END) k
    WHERE v.channel_key = ${channel} AND v.product_key IN (${vkeys})`;
const applyCounts = (channel: number, keys: string, vkeys: string, sign: number) =>
  `INSERT INTO completeness_counts (channel_key, lang, item, n) SELECT channel_key, lang, item, ${sign} * sum(n)
    FROM (${countItems(channel, keys, vkeys)}) WHERE 1 GROUP BY channel_key, lang, item
    ON CONFLICT DO UPDATE SET n = n + excluded.n`;

/** The job's pages: the statements of scoreRefresh for masters, then for their variants, wrapped in withBulkCounts. Returns [wall ms, CPU ms]. */
function recompute(channel: number): [number, number] {
  profile = {};
  const t = process.hrtime.bigint();
  const c0 = cpu();
  const page = db.prepare(
    `SELECT id FROM products WHERE catalog_id = 'cat' AND parent_id IS NULL AND id > ? ORDER BY id LIMIT ${PAGE}`,
  );
  let after = '';
  for (;;) {
    const ids = page.all(after) as { id: string }[];
    if (ids.length === 0) break;
    const last = ids.at(-1)!.id;
    const masters = `SELECT id FROM products WHERE catalog_id = 'cat' AND parent_id IS NULL AND id > '${after}' AND id <= '${last}'`;
    const keys = `SELECT rowid FROM products WHERE id IN (${masters})`;
    const vkeys = `SELECT rowid FROM products WHERE parent_id IN (${masters})`;
    db.exec('BEGIN');
    if (!PER_ROW_COUNTS) {
      db.exec('INSERT INTO completeness_counts_defer (id) VALUES (1) ON CONFLICT DO NOTHING');
      timed('counts out', applyCounts(channel, keys, vkeys, -1));
    }
    // The statements of scoreRefresh, with the values inlined.
    for (const [table, k, variant] of [
      ['completeness', keys, 0],
      ['variant_completeness', vkeys, 1],
    ] as const) {
      timed(
        `${table} delete`,
        `DELETE FROM ${table} WHERE channel_key = ${channel} AND product_key IN (${k})
        AND NOT EXISTS (SELECT 1 FROM completeness_checks v WHERE v.product_key = ${table}.product_key
          AND v.channel_key = ${table}.channel_key AND v.lang = ${table}.lang AND v.variant = ${variant})`,
      );
      timed(
        `${table} upsert`,
        `INSERT INTO ${table} (product_key, channel_key, lang, score, missing)
        SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
        CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
        FROM completeness_checks WHERE channel_key = ${channel} AND product_key IN (${k}) AND variant = ${variant}
        GROUP BY product_key, channel_key, lang
        ON CONFLICT DO UPDATE SET score = excluded.score, missing = excluded.missing
          WHERE score <> excluded.score OR missing IS NOT excluded.missing`,
      );
    }
    if (!PER_ROW_COUNTS) {
      timed('counts in', applyCounts(channel, keys, vkeys, 1));
      timed(
        'daily',
        `INSERT INTO completeness_daily (channel_key, lang, day, scored, complete, score_sum)
        SELECT channel_key, lang, date('now'), coalesce(max(CASE WHEN item = '' THEN n END), 0),
          coalesce(max(CASE WHEN item = '#complete' THEN n END), 0), coalesce(max(CASE WHEN item = '#score' THEN n END), 0)
        FROM completeness_counts WHERE channel_key = ${channel} AND item IN ('', '#complete', '#score') GROUP BY channel_key, lang
        ON CONFLICT DO UPDATE SET scored = excluded.scored, complete = excluded.complete, score_sum = excluded.score_sum`,
      );
      db.exec('DELETE FROM completeness_counts_defer');
    }
    timed('commit', 'COMMIT');
    after = last;
  }
  return [ms(t), cpu() - c0];
}

function upkeep(label: string) {
  const value = db.prepare(`INSERT INTO attribute_values (element_id, attribute_id, value) VALUES (?, 'attr', ?)
    ON CONFLICT DO UPDATE SET value = excluded.value`);
  const rename = db.prepare('UPDATE products SET name = ? WHERE id = ?');
  const gtin = db.prepare('UPDATE products SET gtin = ? WHERE id = ?');
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < 200; i++) {
    const id = `p-${String((i * 7919) % N).padStart(8, '0')}`;
    let t = process.hrtime.bigint();
    value.run(id, `red ${i}`);
    a.push(ms(t));
    t = process.hrtime.bigint();
    rename.run(`Renamed ${i}`, id);
    b.push(ms(t));
    // Clearing the GTIN changes the score of every channel and language (9 rows rewritten).
    t = process.hrtime.bigint();
    gtin.run(i % 2 === 0 ? null : String(4006381000000 + i), id);
    c.push(ms(t));
  }
  const f = (xs: number[]) => `p50 ${p(xs, 0.5)} ms p95 ${p(xs, 0.95)} ms`;
  console.log(`${label}: attribute value ${f(a)}; name ${f(b)}; GTIN set/cleared ${f(c)}`);
}

upkeep('write upkeep without channels');
addChannels();
const evaluate = process.hrtime.bigint();
db.prepare(`SELECT count(*) FROM (SELECT product_key, lang, sum(ok) FROM completeness_checks WHERE channel_key = 1
  AND product_key IN (SELECT rowid FROM products WHERE catalog_id = 'cat' AND parent_id IS NULL) GROUP BY product_key, lang)`).get();
console.log(`evaluating channel 1's rules alone (no writes): ${(ms(evaluate) / 1000).toFixed(1)} s`);
const line = ([wall, used]: [number, number]) =>
  `${(wall / 1000).toFixed(1)} s wall, ${(used / 1000).toFixed(1)} s CPU (${((used / N) * 1000).toFixed(0)} µs CPU per master; 1M: ${(((used / N) * 1e6) / 60000).toFixed(1)} min CPU)`;
const statements = () =>
  Object.entries(profile)
    .map(([kind, used]) => `${kind} ${(used / 1000).toFixed(1)} s`)
    .join(', ');
console.log(`pages of ${PAGE} masters; counters ${PER_ROW_COUNTS ? 'by the triggers per row' : 'in bulk per page'}`);
for (const c of [1, 2, 3])
  console.log(`recompute channel ${c}: ${line(recompute(c))}\n  CPU by statement: ${statements()}`);
console.log(`recompute channel 1 again (scores unchanged): ${line(recompute(1))}\n  CPU by statement: ${statements()}`);
/** The counters must equal a count of the score rows, however the recompute kept them. */
for (const c of [1, 2, 3]) {
  const all = `SELECT rowid FROM products`;
  const rows = `SELECT channel_key, lang, item, sum(n) AS n FROM (${countItems(c, all, all)})
    GROUP BY channel_key, lang, item HAVING sum(n) <> 0`;
  const kept = `SELECT channel_key, lang, item, n FROM completeness_counts WHERE channel_key = ${c} AND n <> 0`;
  const wrong = db
    .prepare(
      `SELECT (SELECT count(*) FROM (${rows} EXCEPT ${kept})) + (SELECT count(*) FROM (${kept} EXCEPT ${rows})) AS n`,
    )
    .get() as { n: number };
  if (wrong.n !== 0) throw new Error(`channel ${c}: ${wrong.n} counters differ from the score rows`);
}
console.log('counters equal a count of the score rows: yes');
upkeep('write upkeep with 3 channels x 3 languages x 5 rules');

/** One import-like batch writing 20 attribute values of each of 50 products: rescored per row, or deferred to the end (src/db/score-refresh.ts). */
function bulk(deferred: boolean): number {
  const value = db.prepare(`INSERT INTO attribute_values (element_id, attribute_id, value) VALUES (?, ?, ?)
    ON CONFLICT DO UPDATE SET value = excluded.value`);
  const dirty = 'SELECT product_key FROM completeness_dirty';
  const t = process.hrtime.bigint();
  db.exec('BEGIN');
  if (deferred) db.exec('INSERT INTO completeness_defer (id) VALUES (1)');
  for (let i = 0; i < 50; i++)
    for (let a = 0; a < 20; a++)
      value.run(`p-${String((i * 104729) % N).padStart(8, '0')}`, `attr-${a}`, `v${i}-${deferred}`);
  if (deferred) {
    for (const table of ['completeness', 'variant_completeness']) {
      const variant = table === 'completeness' ? 0 : 1;
      db.exec(`DELETE FROM ${table} WHERE product_key IN (${dirty}) AND NOT EXISTS (SELECT 1 FROM completeness_checks v
        WHERE v.product_key = ${table}.product_key AND v.channel_key = ${table}.channel_key AND v.lang = ${table}.lang AND v.variant = ${variant})`);
      db.exec(`INSERT INTO ${table} (product_key, channel_key, lang, score, missing)
        SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
        CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
        FROM completeness_checks WHERE product_key IN (${dirty}) AND variant = ${variant} GROUP BY product_key, channel_key, lang
        ON CONFLICT DO UPDATE SET score = excluded.score, missing = excluded.missing
          WHERE score <> excluded.score OR missing IS NOT excluded.missing`);
    }
    db.exec('DELETE FROM completeness_dirty; DELETE FROM completeness_defer;');
  }
  db.exec('COMMIT');
  return ms(t);
}
for (let a = 0; a < 20; a++)
  db.exec(
    `INSERT INTO attributes (id, company_id, code, name, type) VALUES ('attr-${a}', 'co', 'a${a}', 'A${a}', 'text')`,
  );
const perRow = bulk(false);
const once = bulk(true);
console.log(
  `bulk batch of 50 products x 20 values: rescored per row ${perRow.toFixed(0)} ms, deferred to the batch's end ${once.toFixed(0)} ms`,
);
try {
  const rows = db
    .prepare(
      `SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name IN ('completeness', 'completeness_channel_idx', 'completeness_counts') GROUP BY name`,
    )
    .all() as { name: string; bytes: number }[];
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(
    `bytes: ${rows.map((r) => `${r.name} ${(r.bytes / 1e6).toFixed(1)} MB`).join(', ')}; ${(total / N).toFixed(0)} bytes per master`,
  );
} catch {
  console.log('bytes: dbstat is not compiled into this SQLite');
}
console.log(
  `load average during the run: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
db.close();
rmSync(file, { force: true });
rmSync(`${file}-wal`, { force: true });
rmSync(`${file}-shm`, { force: true });
