/**
 * What the connector's mirror of manufacturer numbers costs (issue 35, sixth round; docs/benchmarks.md
 * "Connector mirror: manufacturer numbers"), on the statements themselves as bench/completeness.ts
 * does: the connector's migrations applied to a scratch SQLite database (node:sqlite, the engine
 * D1 runs, without D1's network and storage layers), once up to 0004 (before: only a master's
 * own number, by the expression index of 0003) and once with 0005-0006 (target_mpns,
 * target_mpn_references and their triggers). CPU time of this process is printed beside wall time
 * (the machine is shared).
 *
 * Rounds, each commit of CHUNK rows in one transaction with the mirror's own upsert
 * (MirrorStore.commit): the initial write of N masters (3 variants each, every number distinct;
 * every 10th master refers to two other masters' variant numbers), a rewrite of 1 % with the
 * same numbers, a 1 % round moving a variant's number to another master (only with 0005: rows
 * referring to it are marked), and 1,000 lookups of numbers (mastersByMpn) per schema.
 *
 *   npm run bench:connector-mirror -- [--masters 100000] [--chunk 50]
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIRROR_MPN_SQL, MIRROR_UPSERT_SQL } from '../connector/src/mirror/mirror-store';
import { benchArgs, positiveInt } from './lib/args';

const args = benchArgs('npm run bench:connector-mirror -- [flags]: the mirror of manufacturer numbers', {
  masters: { type: 'string', default: '100000', value: 'N', help: 'masters in the mirror' },
  chunk: { type: 'string', default: '50', value: 'N', help: 'rows per commit (an adapter chunk: Shopware 50)' },
});
const N = positiveInt('masters', args.masters);
const CHUNK = positiveInt('chunk', args.chunk);
const KEY = 'bench';
/** Migration 0003's lookup, as main ran it before 0005 (a master's own number only). */
const BEFORE_MPN_SQL = `SELECT json_extract(product, '$.manufacturerPid') AS mpn, sku FROM target_products
  WHERE key_id = ?1 AND active = 1 AND product IS NOT NULL
    AND json_extract(product, '$.manufacturerPid') IN (SELECT value FROM json_each(?2))`;

const files: string[] = [];
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const sku = (i: number) => `M-${String(i).padStart(7, '0')}`;

function scratch(label: string, upTo: number): DatabaseSync {
  const file = join(tmpdir(), `bench-mirror-${label}-${process.pid}.db`);
  files.push(file);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
  const dir = 'connector/migrations';
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.sql') && Number(f.slice(0, 4)) <= upTo)
    .sort())
    db.exec(readFileSync(join(dir, name), 'utf8'));
  return db;
}

/** A master as the PIM sends it, its numbers `N-<i>` (master) and `N-<i>-<k>` (variants). */
function product(i: number, variantOwner = i) {
  const node = {
    name: `Produkt ${i}`,
    description: 'Einpolig, 6 kA',
    gtin: null,
    price: '12.50',
    values: { poles: '1' },
  };
  const refers = i % 10 === 0 && N > 2;
  return JSON.stringify({
    ...node,
    manufacturerPid: `N-${i}`,
    variants: [0, 1, 2].map((k) => ({ ...node, sku: `${sku(i)}-${k}`, manufacturerPid: `N-${variantOwner}-${k}` })),
    categories: [{ id: 'c1', path: ['Installation', 'Schutz'] }],
    media: [],
    ...(refers
      ? {
          references: [
            { type: 'accessories', sku: `N-${(i + 1) % N}-1`, quantity: null, targetKind: 'mpn' },
            { type: 'spare', sku: `N-${(i + 7) % N}-2`, quantity: null, targetKind: 'mpn' },
          ],
        }
      : {}),
  });
}

/** Commits rows in transactions of CHUNK, as MirrorStore.commit does per chunk (rows referring by number last). */
function commit(db: DatabaseSync, rows: { i: number; fingerprint: string; product: string }[]) {
  const upsert = db.prepare(MIRROR_UPSERT_SQL);
  const refers = (row: { product: string }) => row.product.includes('"targetKind":"mpn"');
  const t = process.hrtime.bigint();
  const c0 = cpu();
  for (let from = 0; from < rows.length; from += CHUNK) {
    const chunk = rows.slice(from, from + CHUNK);
    db.exec('BEGIN');
    for (const row of [...chunk.filter((r) => !refers(r)), ...chunk.filter(refers)])
      upsert.run(
        KEY,
        sku(row.i),
        row.fingerprint,
        1,
        JSON.stringify({ product: `p${row.i}`, variants: {} }),
        row.product,
        'now',
      );
    db.exec('COMMIT');
  }
  return { wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: cpu() - c0 };
}

function lookups(db: DatabaseSync, sql: string, numbers: string[]) {
  const statement = db.prepare(sql);
  const t = process.hrtime.bigint();
  const c0 = cpu();
  let found = 0;
  for (let i = 0; i < numbers.length; i += 50)
    found += statement.all(KEY, JSON.stringify(numbers.slice(i, i + 50))).length;
  return { wall: Number(process.hrtime.bigint() - t) / 1e6, cpu: cpu() - c0, found };
}

const bytes = (db: DatabaseSync, table: string) =>
  (
    db
      .prepare(
        `SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name = ? OR name IN (SELECT name FROM sqlite_master WHERE tbl_name = ? AND type = 'index')`,
      )
      .get(table, table) as { b: number }
  ).b;
const count = (db: DatabaseSync, sql: string) => (db.prepare(sql).get() as { n: number }).n;
const ms = (x: { wall: number; cpu: number }) => `${(x.wall / 1000).toFixed(2)} s (CPU ${(x.cpu / 1000).toFixed(2)} s)`;

const onePercent = Array.from({ length: Math.max(1, Math.floor(N / 100)) }, (_, k) => k * 100);
console.log(
  `connector mirror, ${N} masters, ${CHUNK} rows per commit, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
try {
  const results: Record<string, Record<string, string>> = {};
  for (const [label, upTo] of [
    ['before (0004)', 4],
    ['after (0006)', 6],
  ] as const) {
    const db = scratch(label.split(' ')[0]!, upTo);
    const initial = commit(
      db,
      Array.from({ length: N }, (_, i) => ({ i, fingerprint: `f${i}`, product: product(i) })),
    );
    const rewrite = commit(
      db,
      onePercent.map((i) => ({ i, fingerprint: `g${i}`, product: product(i) })),
    );
    // 1 % of the carriers (the master after each 100th) take other masters' variant numbers instead of
    // their own: every number they lose or gain marks the masters referring to it.
    const markedBefore =
      upTo === 4 ? 0 : count(db, "SELECT count(*) AS n FROM target_products WHERE fingerprint LIKE 'mpn-moved:%'");
    const move =
      upTo === 4
        ? null
        : commit(
            db,
            onePercent.map((i) => ({
              i: (i + 1) % N,
              fingerprint: `h${i}`,
              product: product((i + 1) % N, (i + 1 + Math.floor(N / 2)) % N),
            })),
          );
    const numbers = Array.from({ length: 1000 }, (_, k) => `N-${(k * 97) % N}${upTo === 4 ? '' : '-1'}`);
    const lookup = lookups(db, upTo === 4 ? BEFORE_MPN_SQL : MIRROR_MPN_SQL, numbers);
    const row: Record<string, string> = {
      initial: ms(initial),
      'rewrite 1 %': ms(rewrite),
      'move 1 %': move ? ms(move) : 'n/a',
      'lookups (1,000 numbers)': `${ms(lookup)}, ${lookup.found} found`,
      'mirror bytes': `${(bytes(db, 'target_products') / 1e6).toFixed(1)} MB`,
    };
    if (upTo !== 4) {
      row['number tables'] =
        `${((bytes(db, 'target_mpns') + bytes(db, 'target_mpn_references')) / 1e6).toFixed(1)} MB (${count(db, 'SELECT count(*) AS n FROM target_mpns')} numbers, ${count(db, 'SELECT count(*) AS n FROM target_mpn_references')} references)`;
      row['marked before the move'] = String(markedBefore);
      row['marked by the move'] = String(
        -markedBefore + count(db, "SELECT count(*) AS n FROM target_products WHERE fingerprint LIKE 'mpn-moved:%'"),
      );
    }
    results[label] = row;
    db.close();
  }
  const keys = [...new Set(Object.values(results).flatMap((r) => Object.keys(r)))];
  console.log(
    `\n| | ${Object.keys(results).join(' | ')} |\n|---|${Object.keys(results)
      .map(() => '---')
      .join('|')}|`,
  );
  for (const key of keys)
    console.log(
      `| ${key} | ${Object.values(results)
        .map((r) => r[key] ?? '')
        .join(' | ')} |`,
    );
  console.log(
    `\nload after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  for (const file of files) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}
