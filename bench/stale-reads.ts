/**
 * Stale reads under simulated lagging replicas: runs test/lag/stale-loop.test.ts (the Workers
 * pool with a lagging copy per cell, vitest.lag.config.ts): `--ops` write-then-read operations
 * through the Worker, round robin over REST, /api/ai, MCP without and with session and jobs, for
 * a company in cell-1 and one in cell-2, and `--session-ops` domain writes and reads on
 * per-operation sessions; prints the stale counts per surface and cell as they come.
 *
 *   npm run bench:stale                 # 10,000 operations through the Worker
 *   npm run bench:stale -- --ops 2000   # another count
 */
import { spawn } from 'node:child_process';
import { benchArgs, positiveInt } from './lib/args';

const args = benchArgs('npm run bench:stale -- [flags]: stale reads under simulated replica lag', {
  ops: { type: 'string', default: '10000', help: 'write-then-read operations through the Worker' },
  'session-ops': { type: 'string', default: '30', help: 'write-then-read operations on domain sessions' },
});
const ops = positiveInt('ops', args.ops);
const sessionOps = positiveInt('session-ops', args['session-ops']);
const child = spawn(
  'npx',
  ['vitest', 'run', '--config', 'vitest.lag.config.ts', 'test/lag/stale-loop.test.ts', '--testTimeout', '14400000'],
  { env: { ...process.env, STALE_OPS: String(ops), STALE_SESSION_OPS: String(sessionOps) } },
);
const output: string[] = [];
let printed = 0;
for (const stream of [child.stdout, child.stderr]) {
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    output.push(chunk);
    for (const line of chunk.split('\n'))
      if (line.includes('stale-loop (') || line.includes('@cell-')) {
        printed++;
        console.log(line);
      }
  });
}
child.on('close', (code) => {
  if (printed === 0 || code !== 0) console.log(output.join(''));
  process.exit(code ?? 1);
});
