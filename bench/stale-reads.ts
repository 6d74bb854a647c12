/**
 * Stale reads under a simulated lagging replica: runs test/lag/stale-loop.test.ts (the Workers
 * pool with DB_REPLICA_SIM, vitest.lag.config.ts): 12 rounds through the Worker (REST,
 * stateless MCP, MCP session) and 10,000 mixed domain writes and reads on per-operation
 * sessions, and prints the counts of stale reads.
 *
 *   npm run bench:stale                 # 10,000 operations
 *   npm run bench:stale -- --ops 2000   # another count
 */
import { spawnSync } from 'node:child_process';
import { benchArgs, positiveInt } from './lib/args';

const args = benchArgs('npm run bench:stale -- [flags]: stale reads under simulated replica lag', {
  ops: { type: 'string', default: '10000', help: 'write-then-read operations' },
});
const ops = positiveInt('ops', args.ops);
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--config', 'vitest.lag.config.ts', 'test/lag/stale-loop.test.ts', '--testTimeout', '3600000'],
  { env: { ...process.env, STALE_OPS: String(ops) }, encoding: 'utf8' },
);
const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.includes('stale-loop ('));
console.log(lines.length > 0 ? lines.join('\n') : `${run.stdout}\n${run.stderr}`);
process.exit(run.status ?? 1);
