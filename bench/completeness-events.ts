/**
 * What the review / completeness events cost (issue 34, docs/benchmarks.md "Completeness events:
 * what they cost"), on the statements themselves as bench/completeness.ts does: every migration
 * applied to a scratch SQLite database (node:sqlite, the engine D1 runs, without D1's network and
 * storage layers). CPU time of this process is printed beside wall time (the machine is shared).
 *
 * 1. A recompute flipping every master: N masters, one channel (language deu), the rule switched
 *    between `description` (every master lacks one) and `name` (every master has one), rescored in
 *    pages of the job's size with the job's statements (src/db/score-refresh.ts) wrapped, or not,
 *    in the job's event comparison (src/completeness/completeness-events.ts, inlined here): the
 *    rows and bytes each event adds (domain_events, change_feed, with an endpoint webhook_outbox).
 * 2. A 10,000-product import (batches of 500 as run-import.ts, withDeferredRescore's statements,
 *    3 channels x 3 languages x 2 rules (sku, gtin)): with migration 0069's staging and flush triggers, and
 *    in a second scratch database with those triggers dropped (A/B); first import (new products:
 *    staged, no event) and a re-import that completes every product (one event per product and
 *    channel).
 *
 *   npm run bench:completeness-events -- [masters=100000] [imported=10000]
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PAGE } from '../src/completeness/recompute';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const N = Number(args[0] ?? 100_000);
const IMPORTED = Number(args[1] ?? 10_000);
const IMPORT_BATCH = 500;
const files: string[] = [];
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const s = (x: number) => `${(x / 1000).toFixed(1)} s`;

function scratch(label: string): DatabaseSync {
  const file = join(tmpdir(), `bench-events-${label}-${process.pid}.db`);
  files.push(file);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  for (const name of readdirSync('migrations')
    .filter((f) => f.endsWith('.sql'))
    .sort())
    db.exec(readFileSync(join('migrations', name), 'utf8').replaceAll('--> statement-breakpoint', ''));
  db.exec(`INSERT INTO companies (id, name, languages) VALUES ('co', 'Bench', '["deu","eng","fra"]');
    INSERT INTO departments (id, company_id, name) VALUES ('dep', 'co', 'D');
    INSERT INTO catalogs (id, company_id, department_id, name, languages) VALUES ('cat', 'co', 'dep', 'C', '["deu","eng","fra"]');`);
  return db;
}

const count = (db: DatabaseSync, table: string) =>
  (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
/** Bytes of a table and its indexes (dbstat). */
const bytes = (db: DatabaseSync, table: string) =>
  (
    db
      .prepare(
        `SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name = ? OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = ? AND type = 'index')`,
      )
      .get(table, table) as { b: number }
  ).b;

/** The scoreRefresh statements of one table (src/db/score-refresh.ts), values inlined. */
const refresh = (table: string, keys: string, variant: 0 | 1, channel?: number) => [
  `DELETE FROM ${table} WHERE ${channel ? `channel_key = ${channel} AND` : ''} product_key IN (${keys})
    AND NOT EXISTS (SELECT 1 FROM completeness_checks v WHERE v.product_key = ${table}.product_key
      AND v.channel_key = ${table}.channel_key AND v.lang = ${table}.lang AND v.variant = ${variant})`,
  `INSERT INTO ${table} (product_key, channel_key, lang, score, missing)
    SELECT product_key, channel_key, lang, (100 * sum(ok)) / count(*),
      CASE WHEN min(ok) = 1 THEN NULL ELSE json_group_array(label) FILTER (WHERE ok = 0) END
    FROM completeness_checks WHERE ${channel ? `channel_key = ${channel}` : '1'} AND product_key IN (${keys}) AND variant = ${variant}
    GROUP BY product_key, channel_key, lang
    ON CONFLICT DO UPDATE SET score = excluded.score, missing = excluded.missing
      WHERE score <> excluded.score OR missing IS NOT excluded.missing`,
];

/** The recompute job's event comparison around a page (withCompletenessEvents), masters only. */
const snapshot = (keys: string, channel: number) =>
  `INSERT INTO completeness_transition_before SELECT product_key, channel_key, max(score < 100) FROM completeness
    WHERE product_key IN (${keys}) AND channel_key = ${channel} GROUP BY product_key, channel_key`;
const transitions = `INSERT INTO domain_events SELECT 'evt_' || lower(hex(randomblob(16))), 'co',
    CASE WHEN t.complete THEN 'completeness.reached' ELSE 'completeness.lost' END, p.id,
    json_object('productId', p.id, 'sku', p.sku, 'channelId', ch.channel_id, 'channelName', ch.name,
      'complete', json(CASE WHEN t.complete THEN 'true' ELSE 'false' END),
      'scores', (SELECT json_group_object(c.lang, c.score) FROM completeness c
        WHERE c.product_key = t.product_key AND c.channel_key = t.channel_key)), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM (
    SELECT b.product_key, b.channel_key, 0 AS complete FROM completeness_transition_before b
      WHERE NOT b.incomplete AND EXISTS (SELECT 1 FROM completeness c
        WHERE c.product_key = b.product_key AND c.channel_key = b.channel_key AND c.score < 100)
    UNION ALL
    SELECT b.product_key, b.channel_key, 1 FROM completeness_transition_before b
      WHERE b.incomplete AND NOT EXISTS (SELECT 1 FROM completeness c
        WHERE c.product_key = b.product_key AND c.channel_key = b.channel_key AND c.score < 100)
  ) t
  JOIN products p ON p.rowid = t.product_key AND p.company_id = 'co' AND p.parent_id IS NULL
  JOIN channels ch ON ch.id = t.channel_key AND ch.company_id = 'co'
  ORDER BY p.id, ch.id`;

function recompute(db: DatabaseSync, events: boolean): { wall: number; cpu: number } {
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
    const keys = `SELECT rowid FROM products WHERE catalog_id = 'cat' AND parent_id IS NULL AND id > '${after}' AND id <= '${last}'`;
    db.exec('BEGIN');
    db.exec('INSERT INTO completeness_events_defer (id) VALUES (1) ON CONFLICT DO NOTHING');
    if (events) db.exec(snapshot(keys, 1));
    for (const statement of refresh('completeness', keys, 0, 1)) db.exec(statement);
    if (events) db.exec(transitions);
    db.exec('DELETE FROM completeness_transition_before; DELETE FROM completeness_events_defer; COMMIT');
    after = last;
  }
  return { wall: ms(t), cpu: cpu() - c0 };
}

function flipBench() {
  const db = scratch('flip');
  db.exec('BEGIN');
  const insert = db.prepare(
    `INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES (?, 'co', 'cat', ?, ?)`,
  );
  for (let i = 0; i < N; i++) insert.run(`p-${String(i).padStart(8, '0')}`, `SKU-${i}`, `Product ${i}`);
  db.exec(`INSERT INTO channels (id, channel_id, company_id, name, languages, requirements)
    VALUES (1, 'ch-1', 'co', 'Shop', '["deu"]', '[]');
    INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label)
    VALUES ('co', 1, 'deu', 0, 'field', 'description', 'description'); COMMIT`);
  recompute(db, false); // scored: every master incomplete
  const rule = (target: string) =>
    db.exec(`UPDATE channel_rules SET target = '${target}', label = '${target}' WHERE channel_key = 1`);
  const feed = () => [count(db, 'domain_events'), count(db, 'change_feed'), count(db, 'webhook_outbox')];
  const line = (label: string, r: { wall: number; cpu: number }, before: number[]) => {
    const [e, f, o] = feed().map((n, i) => n - before[i]!);
    console.log(
      `${label}: ${s(r.wall)} wall, ${s(r.cpu)} CPU (${((r.cpu / N) * 1000).toFixed(0)} µs CPU per master); rows: ${e} domain_events, ${f} change_feed, ${o} webhook_outbox`,
    );
    return r;
  };
  console.log(
    `\n1. recompute flipping all ${N} masters in one channel, pages of ${PAGE} (load ${loadavg()[0]!.toFixed(1)})`,
  );
  let before = feed();
  rule('name');
  const off1 = line('  flip to complete, no events   ', recompute(db, false), before);
  rule('description');
  before = feed();
  const on1 = line('  flip to incomplete, events    ', recompute(db, true), before);
  rule('name');
  before = feed();
  const on2 = line('  flip to complete, events      ', recompute(db, true), before);
  rule('description');
  before = feed();
  const off2 = line('  flip to incomplete, no events ', recompute(db, false), before);
  db.exec(`INSERT INTO webhook_endpoints (id, company_id, url, secret_sealed, created_by)
    VALUES ('ep', 'co', 'https://hooks.example/pim', 'x', 'u')`);
  rule('name');
  before = feed();
  const hooked = line('  flip to complete, events + endpoint', recompute(db, true), before);
  const extra = (on1.cpu + on2.cpu) / 2 - (off1.cpu + off2.cpu) / 2;
  console.log(
    `  events add ${s(extra)} CPU per ${N} flips (${((extra / N) * 1000).toFixed(0)} µs per event); with an endpoint ${s(hooked.cpu - (off1.cpu + off2.cpu) / 2)}; 1M flips: about ${s((extra / N) * 1e6)} CPU more`,
  );
  const e = count(db, 'domain_events');
  const perEvent = (bytes(db, 'domain_events') + bytes(db, 'change_feed')) / e;
  const perOutbox = bytes(db, 'webhook_outbox') / Math.max(1, count(db, 'webhook_outbox'));
  console.log(
    `  storage: ${perEvent.toFixed(0)} bytes per event (domain_events + change_feed with indexes), ${perOutbox.toFixed(0)} per outbox row; 1M flips: ${((perEvent * 1e6) / 2 ** 20).toFixed(0)} MiB (+${((perOutbox * 1e6) / 2 ** 20).toFixed(0)} MiB with an endpoint until dispatched)`,
  );
  db.close();
}

const STAGING_TRIGGERS = [
  'completeness_events_stage_insert',
  'completeness_events_stage_update',
  'completeness_events_stage_delete',
  'variant_completeness_events_stage_insert',
  'variant_completeness_events_stage_update',
  'variant_completeness_events_stage_delete',
  'completeness_events_flush_run',
];

/** Imports IMPORTED products in batches as withDeferredRescore runs them; then completes every one. */
function importBench(staging: boolean) {
  const db = scratch(staging ? 'import-on' : 'import-off');
  if (!staging) for (const name of STAGING_TRIGGERS) db.exec(`DROP TRIGGER ${name}`);
  for (let c = 1; c <= 3; c++) {
    db.exec(`INSERT INTO channels (id, channel_id, company_id, name, languages, requirements)
      VALUES (${c}, 'ch-${c}', 'co', 'Channel ${c}', '["deu","eng","fra"]', '[]')`);
    for (const lang of ['deu', 'eng', 'fra'])
      for (const [i, field] of ['sku', 'gtin'].entries())
        db.exec(`INSERT INTO channel_rules (company_id, channel_key, lang, position, kind, target, label)
          VALUES ('co', ${c}, '${lang}', ${i}, 'field', '${field}', '${field}')`);
  }
  const dirty = 'SELECT product_key FROM completeness_dirty';
  const batch = (write: (from: number) => void) => {
    const t = process.hrtime.bigint();
    const c0 = cpu();
    for (let from = 0; from < IMPORTED; from += IMPORT_BATCH) {
      db.exec('BEGIN; INSERT INTO completeness_defer (id) VALUES (1)');
      write(from);
      for (const statement of [...refresh('completeness', dirty, 0), ...refresh('variant_completeness', dirty, 1)])
        db.exec(statement);
      db.exec(`DELETE FROM completeness_dirty; DELETE FROM completeness_defer;
        DELETE FROM completeness_events_flush; INSERT INTO completeness_events_flush (id) VALUES (1); COMMIT`);
    }
    return { wall: ms(t), cpu: cpu() - c0 };
  };
  const insert = db.prepare(
    `INSERT INTO products (id, company_id, catalog_id, sku, name) VALUES (?, 'co', 'cat', ?, ?)`,
  );
  const first = batch((from) => {
    for (let i = from; i < Math.min(IMPORTED, from + IMPORT_BATCH); i++)
      insert.run(`p-${String(i).padStart(8, '0')}`, `SKU-${i}`, `Product ${i}`);
  });
  const gtin = db.prepare('UPDATE products SET gtin = ? WHERE id = ?');
  const again = batch((from) => {
    for (let i = from; i < Math.min(IMPORTED, from + IMPORT_BATCH); i++)
      gtin.run(String(4006381000000 + i), `p-${String(i).padStart(8, '0')}`);
  });
  const events = count(db, 'domain_events');
  db.close();
  return { first, again, events };
}

flipBench();
console.log(
  `\n2. import of ${IMPORTED} products, batches of ${IMPORT_BATCH}, 3 channels x 3 languages x 2 rules (sku, gtin)`,
);
const on = importBench(true);
const off = importBench(false);
const row = (label: string, a: { wall: number; cpu: number }, b: { wall: number; cpu: number }) =>
  console.log(
    `  ${label}: staging ${s(a.wall)} wall / ${s(a.cpu)} CPU, triggers dropped ${s(b.wall)} / ${s(b.cpu)} CPU: ${(((a.cpu - b.cpu) / b.cpu) * 100).toFixed(0)} % CPU`,
  );
row('first import (new products) ', on.first, off.first);
row(`re-import completing each (${on.events} events)`, on.again, off.again);
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const file of files) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
