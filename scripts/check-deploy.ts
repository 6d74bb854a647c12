/**
 * The two-Worker deploy configuration stays deployable and in step (docs/deploy.md "Queue
 * consumer as its own Worker"): wrangler.edge.toml is wrangler.toml without the queue consumer
 * and the Cron Triggers; wrangler.consumer.toml has the same bindings, consumes `pim-jobs` and
 * uses Smart Placement. Then `wrangler deploy --dry-run` bundles each config (offline). Fails,
 * naming the difference, when a binding is added to one config and not to the others.
 *
 *   npm run check:deploy
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The blocks of a wrangler TOML file: header -> normalized bodies (comments and blank lines dropped). */
function blocks(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let header = '';
  let body: string[] = [];
  const flush = () => {
    out.set(header, [...(out.get(header) ?? []), body.join('\n')]);
    body = [];
  };
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('[')) {
      flush();
      header = line;
    } else body.push(line.replace(/\s*=\s*/, ' = '));
  }
  flush();
  return out;
}

const SHARED = ['[[d1_databases]]', '[[kv_namespaces]]', '[[r2_buckets]]', '[[queues.producers]]', '[vars]'];
const main = blocks('wrangler.toml');
const edge = blocks('wrangler.edge.toml');
const consumer = blocks('wrangler.consumer.toml');
const problems: string[] = [];
const same = (a: string[] | undefined, b: string[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

for (const header of new Set([...main.keys(), ...edge.keys()])) {
  if (header === '[[queues.consumers]]' || header === '[triggers]') continue;
  if (!same(main.get(header), edge.get(header)))
    problems.push(`wrangler.edge.toml ${header || '(top level)'} differs from wrangler.toml`);
}
if (edge.has('[[queues.consumers]]')) problems.push('wrangler.edge.toml must not consume the queue');
if (!same(edge.get('[triggers]'), ['crons = []']))
  problems.push('wrangler.edge.toml must have `[triggers] crons = []`');
for (const header of SHARED)
  if (!same(main.get(header), consumer.get(header)))
    problems.push(`wrangler.consumer.toml ${header} differs from wrangler.toml`);
if (!same(consumer.get('[[queues.consumers]]'), main.get('[[queues.consumers]]')))
  problems.push('wrangler.consumer.toml must consume pim-jobs as wrangler.toml does');
if (!same(consumer.get('[triggers]'), main.get('[triggers]')))
  problems.push('wrangler.consumer.toml must run the crons');
if (!same(consumer.get('[placement]'), ['mode = "smart"']))
  problems.push('wrangler.consumer.toml must have `[placement] mode = "smart"`');

if (problems.length === 0) {
  // the edge Worker serves the web app: wrangler refuses a config whose assets directory is missing
  if (!existsSync(join('dist', 'web', 'index.html'))) {
    const build = spawnSync('npm', ['run', 'build:web'], { encoding: 'utf8' });
    if (build.status !== 0) problems.push(`npm run build:web failed:\n${build.stdout}\n${build.stderr}`);
  }
}
if (problems.length === 0) {
  const out = mkdtempSync(join(tmpdir(), 'pim-deploy-'));
  try {
    for (const config of ['wrangler.edge.toml', 'wrangler.consumer.toml']) {
      const run = spawnSync('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', join(out, config), '-c', config], {
        encoding: 'utf8',
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      });
      if (run.status !== 0)
        problems.push(`wrangler deploy --dry-run -c ${config} failed:\n${run.stdout}\n${run.stderr}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('check:deploy: wrangler.edge.toml and wrangler.consumer.toml are in step with wrangler.toml and bundle');
