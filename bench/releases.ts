/**
 * Release bench (issue 20): writes a synthetic ETIM-sized release in ETIM's CSV layout
 * (5,000 classes, 15,000 features, 50,000 values, 50,000 class-feature and 200,000
 * class-feature-value rows, English names plus synonyms), loads it into a scratch local state
 * with the release:load path, and prints the load time, the bytes of the release tables in D1
 * (sqlite3 dbstat over the local database file) and class search p50/p95.
 *
 *   npm run bench:releases [-- --classes 5000 --searches 300]
 *   npm run bench:releases -- --search-only   (searches the release the last run loaded)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb } from '../src/db/client';
import { searchReleaseClasses } from '../src/releases/release-search';
import { loadReleaseFolder } from '../scripts/release-load';
import { seedDemo } from '../scripts/seed-demo';
import { d1File } from '../scripts/lib/d1-file';
import { argValue, localBindings } from '../scripts/lib/platform';
import { percentile } from './lib/stats';

const CLASSES = Number(argValue('--classes', '5000'));
const SEARCHES = Number(argValue('--searches', '300'));
const STATE = '/tmp/pim-bench-releases';
const FOLDER = `${STATE}/etim-synthetic`;
const code = (prefix: string, n: number) => `${prefix}${String(n).padStart(6, '0')}`;
const WORDS = [
  'cable',
  'switch',
  'socket',
  'lamp',
  'breaker',
  'relay',
  'sensor',
  'box',
  'tie',
  'clamp',
  'plug',
  'fuse',
];
const word = (n: number) => `${WORDS[n % WORDS.length]}${Math.floor(n / WORDS.length) % 97}`;

function writeRelease() {
  rmSync(STATE, { recursive: true, force: true });
  mkdirSync(FOLDER, { recursive: true });
  const features = CLASSES * 3;
  const values = CLASSES * 10;
  const lines = (header: string, n: number, row: (i: number) => string) =>
    `${header}\n${Array.from({ length: n }, (_, i) => row(i + 1)).join('\n')}\n`;
  writeFileSync(
    join(FOLDER, 'ETIMUNIT.csv'),
    lines('UNITOFMEASID;UNITDESC', 100, (i) => `${code('EU', i)};u${i}`),
  );
  writeFileSync(
    join(FOLDER, 'ETIMARTCLASS.csv'),
    lines('ARTCLASSID;ARTCLASSDESC', CLASSES, (i) => `${code('EC', i)};${word(i)} ${word(i * 7)} class ${i}`),
  );
  writeFileSync(
    join(FOLDER, 'ETIMSYNONYM.csv'),
    lines('ARTCLASSID;CLASSSYNONYM', CLASSES * 2, (i) => `${code('EC', ((i - 1) % CLASSES) + 1)};syn${word(i * 3)}`),
  );
  writeFileSync(
    join(FOLDER, 'ETIMFEATURE.csv'),
    lines('FEATUREID;FEATUREDESC', features, (i) => `${code('EF', i)};feature ${word(i)}`),
  );
  writeFileSync(
    join(FOLDER, 'ETIMVALUE.csv'),
    lines('VALUEID;VALUEDESC', values, (i) => `${code('EV', i)};value ${i}`),
  );
  // 10 features per class; every 4th feature alphanumeric with 16 values: 50,000 and 200,000 rows.
  const TYPES = ['A', 'N', 'L', 'R'];
  writeFileSync(
    join(FOLDER, 'ETIMARTCLASSFEATUREMAP.csv'),
    lines('ARTCLASSFEATURENR;ARTCLASSID;FEATUREID;FEATURETYPE;UNITOFMEASID;SORTNR', CLASSES * 10, (i) => {
      const cls = Math.ceil(i / 10);
      const type = TYPES[i % 4]!;
      return `${i};${code('EC', cls)};${code('EF', ((cls * 10 + (i % 10)) % features) + 1)};${type};${type === 'N' ? code('EU', (i % 100) + 1) : ''};${i % 10}`;
    }),
  );
  writeFileSync(
    join(FOLDER, 'ETIMARTCLASSFEATUREVALUEMAP.csv'),
    lines('ARTCLASSFEATUREVALUENR;ARTCLASSFEATURENR;VALUEID;SORTNR', CLASSES * 40, (i) => {
      const cf = Math.floor((i - 1) / 16) * 4 + 4; // the alphanumeric ones (i % 4 === 0)
      return `${i};${cf};${code('EV', ((i * 31) % values) + 1)};${i % 16}`;
    }),
  );
}

const SEARCH_ONLY = process.argv.includes('--search-only');
if (!SEARCH_ONLY) writeRelease();
const bytesIn = readdirSync(FOLDER).reduce(
  (sum, f) => sum + Number(execFileSync('stat', ['-c', '%s', join(FOLDER, f)])),
  0,
);
const proxy = await localBindings(['--persist-to', STATE]);
try {
  execFileSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE], {
    stdio: 'ignore',
  });
  const db = createDb(proxy.env.DB);
  await seedDemo(db, proxy.env.FILES);
  const t0 = Date.now();
  const { job } = await loadReleaseFolder(
    { db, files: proxy.env.FILES },
    { system: 'ETIM', version: 'BENCH', folder: FOLDER, replace: !SEARCH_ONLY },
  );
  const loadSeconds = (Date.now() - t0) / 1000;
  if (job && job.state !== 'succeeded') throw new Error(`load ${job.state}: ${job.error}`);
  // The round trip of a trivial statement through the local platform proxy: the floor under every search.
  const floor: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const s = performance.now();
    await proxy.env.DB.prepare('SELECT 1').all();
    floor.push(performance.now() - s);
  }
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const q =
      i % 3 === 0
        ? code('EC', (i * 13) % CLASSES).slice(0, 6)
        : i % 3 === 1
          ? word(i).slice(0, 4)
          : `syn${word(i * 3)}`;
    const s = performance.now();
    await searchReleaseClasses(db, { release: 'ETIM-BENCH', q, limit: 20 });
    times.push(performance.now() - s);
  }
  const file = d1File(STATE);
  const bytes = execFileSync('sqlite3', [
    file,
    "SELECT name, sum(pgsize) FROM dbstat WHERE name LIKE 'release%' OR name LIKE 'sqlite_autoindex_release%' GROUP BY name ORDER BY 2 DESC",
  ])
    .toString()
    .trim()
    .split('\n')
    .map((l) => l.split('|'));
  const total = bytes.reduce((s, [, b]) => s + Number(b), 0);
  console.log(
    JSON.stringify(
      {
        files: { bytes: bytesIn },
        load: job ? { seconds: loadSeconds, summary: job.summary } : 'already loaded (--search-only)',
        d1: { releaseBytes: total, byTable: Object.fromEntries(bytes.map(([n, b]) => [n, Number(b)])) },
        search: { n: SEARCHES, p50ms: percentile(times, 50), p95ms: percentile(times, 95) },
        roundTripSelect1: { p50ms: percentile(floor, 50), p95ms: percentile(floor, 95) },
      },
      null,
      2,
    ),
  );
} finally {
  await proxy.dispose();
}
