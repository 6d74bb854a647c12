/**
 * Cost of the change history (docs/history.md): write latency with history against the same
 * writes without it, and bytes per history entry.
 *
 *   npm run bench:history                          # 1,000 masters, 60 samples per operation
 *   npm run bench:history -- --products 10000 --samples 100 --baseline <git ref>
 *   npm run bench:history -- --help                # every flag with its default
 *
 * "Without history" is the code base just before history landed (default: the parent of the
 * commit that added src/history/record.ts, now src/records/history-record.ts), extracted with `git archive` into a temp dir that
 * shares this checkout's node_modules. Both servers run `wrangler dev` at the same time on
 * identical copies of one synthetic catalog, and requests alternate between them so machine
 * noise hits both alike. Bytes per entry are measured with SQLite's dbstat over the history
 * table and its two indexes, divided by the entries the run wrote.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../scripts/lib/dev-server';
import { benchArgs, list, positiveInt } from './lib/args';
import { apiSession } from './lib/session';
import { d1File, seedSynthetic } from './lib/state';
import { percentile } from './lib/stats';

const args = benchArgs('npm run bench:history -- [flags]: write latency with and without change history', {
  products: { type: 'string', default: '1000', help: 'master products of the synthetic catalog' },
  samples: { type: 'string', default: '60', help: 'timed requests per operation and server' },
  baseline: {
    type: 'string',
    value: 'REF',
    help: 'git ref of the code without history (default: the parent of the commit adding src/history/record.ts)',
  },
  'inspector-ports': {
    type: 'string',
    default: '8871,8872',
    value: 'P,P',
    help: 'V8 inspector ports of the two servers',
  },
});
const PRODUCTS = positiveInt('products', args.products);
const SAMPLES = positiveInt('samples', args.samples);
const git = (...gitArgs: string[]) => execFileSync('git', gitArgs, { encoding: 'utf8' }).trim();
const BASELINE =
  args.baseline ?? `${git('log', '--diff-filter=A', '--format=%H', '--', 'src/history/record.ts').split('\n').at(-1)}^`;

interface Client {
  post(path: string, body: unknown): Promise<unknown>;
}

async function client(server: DevServer, email: string, password: string): Promise<Client> {
  const { call } = await apiSession(server.baseUrl, { email, password });
  return { post: (path, body) => call(path, body) };
}

const sql = (file: string, query: string) => execFileSync('sqlite3', [file, query], { encoding: 'utf8' }).trim();

const work = mkdtempSync(join(tmpdir(), 'pim-bench-history-'));
const baselineSrc = join(work, 'baseline');
const servers: DevServer[] = [];
try {
  execFileSync('sh', ['-c', `mkdir -p ${baselineSrc} && git archive ${BASELINE} | tar -x -C ${baselineSrc}`]);
  symlinkSync(join(process.cwd(), 'node_modules'), join(baselineSrc, 'node_modules'));
  // wrangler needs the [assets] directory of a baseline that has the web app; the bench calls only the API.
  mkdirSync(join(baselineSrc, 'dist', 'web'), { recursive: true });
  const seededDir = join(work, 'seeded');
  const seeded = await seedSynthetic(seededDir, PRODUCTS);
  const withDir = join(work, 'with');
  const withoutDir = join(work, 'without');
  cpSync(seededDir, withDir, { recursive: true });
  cpSync(seededDir, withoutDir, { recursive: true });
  const inspector = (port: string) => ['--inspector-port', list(args['inspector-ports'])[Number(port)]!];
  // One at a time, so the first is stopped in `finally` even when the second does not start.
  servers.push(await startDevServer(withDir, { args: inspector('0') }));
  servers.push(await startDevServer(withoutDir, { cwd: baselineSrc, args: inspector('1') }));
  const [withHistory, without] = [
    await client(servers[0]!, seeded.email, seeded.password),
    await client(servers[1]!, seeded.email, seeded.password),
  ];
  const historyFile = d1File(withDir);
  const entriesBefore = Number(sql(historyFile, 'SELECT count(*) FROM history_versions'));

  // Targets: products of the synthetic catalog, one per sample, the same on both servers.
  const targets = sql(
    historyFile,
    `SELECT id FROM products WHERE parent_id IS NULL ORDER BY id LIMIT ${SAMPLES}`,
  ).split('\n');
  const ops: [string, (c: Client, i: number) => Promise<unknown>][] = [
    [
      'SetValue (name)',
      (c, i) =>
        c.post('/Catalog/SetValue', {
          departmentId: seeded.departmentId,
          elementId: targets[i % targets.length],
          field: 'name',
          value: `Bench name ${i}`,
        }),
    ],
    [
      'UpdateProduct (price, keywords)',
      (c, i) =>
        c.post('/Catalog/UpdateProduct', {
          departmentId: seeded.departmentId,
          catalogId: seeded.catalogId,
          productId: targets[i % targets.length],
          price: `${10 + i}.50`,
          keywords: `bench ${i}`,
        }),
    ],
    [
      'AddProduct',
      (c, i) =>
        c.post('/Catalog/AddProduct', {
          departmentId: seeded.departmentId,
          catalogId: seeded.catalogId,
          sku: `HB-${i}-${Date.now()}`,
          name: 'Bench product',
          price: '9.99',
        }),
    ],
  ];
  for (const c of [withHistory, without]) for (let i = 0; i < 5; i++) await ops[0]![1](c, SAMPLES + i); // warm-up
  const rows = [];
  for (const [name, op] of ops) {
    const times = { with: [] as number[], without: [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      for (const [key, c] of (i % 2
        ? [
            ['without', without],
            ['with', withHistory],
          ]
        : [
            ['with', withHistory],
            ['without', without],
          ]) as ['with' | 'without', Client][]) {
        const start = performance.now();
        await op(c, i);
        times[key].push(performance.now() - start);
      }
    }
    const p50 = { with: percentile(times.with, 50), without: percentile(times.without, 50) };
    rows.push({
      name,
      p50,
      p95: { with: percentile(times.with, 95), without: percentile(times.without, 95) },
      overhead: (p50.with / p50.without - 1) * 100,
    });
  }
  const entries = Number(sql(historyFile, 'SELECT count(*) FROM history_versions')) - entriesBefore;
  // payload = bytes of the records in table and index b-trees (cells), without free page space.
  const stats = sql(
    historyFile,
    "SELECT name, sum(payload), sum(pgsize) FROM dbstat WHERE name IN ('history_versions', 'history_element_idx', 'history_company_at_idx') GROUP BY name",
  )
    .split('\n')
    .map((line) => line.split('|'));
  const payload = stats.reduce((sum, [, bytes]) => sum + Number(bytes), 0);
  const pages = stats.reduce((sum, [, , bytes]) => sum + Number(bytes), 0);
  const avgJson = Number(sql(historyFile, 'SELECT avg(length(changes)) FROM history_versions'));

  console.log(
    `\nWrite latency with and without change history, wrangler dev (local D1), ${PRODUCTS.toLocaleString('en')} masters, ${SAMPLES} samples each, ms`,
  );
  console.log(`baseline (without): ${BASELINE} = ${git('rev-parse', '--short', BASELINE)}\n`);
  console.log('| operation | p50 without | p50 with | p50 overhead | p95 without | p95 with |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${r.p50.without.toFixed(1)} | ${r.p50.with.toFixed(1)} | ${r.overhead >= 0 ? '+' : ''}${r.overhead.toFixed(0)} % | ${r.p95.without.toFixed(1)} | ${r.p95.with.toFixed(1)} |`,
    );
  }
  const per = (bytes: number) => (bytes / Math.max(1, entries)).toFixed(0);
  console.log(
    `\nHistory storage: ${entries} entries written; record bytes ${stats.map(([n, b]) => `${n} ${Number(b).toLocaleString('en')}`).join(', ')}`,
  );
  console.log(
    `=> ${per(payload)} bytes per entry (row + both index entries), ${per(pages)} bytes of pages per entry at this size; changes JSON ${avgJson.toFixed(0)} bytes on average`,
  );
} finally {
  for (const s of servers) s.stop();
  rmSync(work, { recursive: true, force: true });
}
