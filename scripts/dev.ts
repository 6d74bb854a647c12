/**
 * `npm run dev`: the PIM on http://127.0.0.1:8787 and the demo shop connector on
 * http://127.0.0.1:8788 (docs/design.md section 10), each with its own local state. Migrates and seeds
 * both, then runs both `wrangler dev`s; Ctrl-C (or either one ending) stops both.
 *
 * `npm run dev -- --lag 3s`: the same, with every database behind a simulated read replica that
 * trails it by that time (docs/scaling.md section 6, scripts/lib/dev-lag.ts), in its own state
 * `.wrangler/state-lag`, seeded afresh at every start.
 *
 * `npm run dev -- --shop vendure`: the same, plus a real Vendure (shops/vendure, installed on
 * the first start) on http://127.0.0.1:3100/admin-api, seeded with the demo manufacturers and
 * tax codes, and the "Demo-Shop" connection's `shop` set to it through the PIM's
 * UpdateConnection (scripts/lib/dev-shop.ts): its runs then write into Vendure. Without `--shop`
 * the connection's shop is set back to null and the connector's target reset.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { LAG_STATE, lagServerArgs, parseLag, prepareLagState } from './lib/dev-lag';
import { type DevShop, resetDemoShop, startDevShop } from './lib/dev-shop';
import { run } from './lib/dev-server';
import { ensureDevVars } from './lib/dev-vars';
import { argValue } from './lib/platform';

const children: ChildProcess[] = [];
let stopping = false;
let shop: DevShop | null = null;

function start(name: string, args: string[]): ChildProcess {
  const child = spawn('npm', args, {
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const prefix = (data: Buffer) =>
    data
      .toString()
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => `[${name}] ${line}`)
      .join('\n');
  child.stdout!.on('data', (data: Buffer) => console.log(prefix(data)));
  child.stderr!.on('data', (data: Buffer) => console.error(prefix(data)));
  child.on('exit', (code) => {
    if (!stopping) console.error(`[${name}] exited with ${code}; stopping the other server`);
    stopAll(code ?? 0);
  });
  children.push(child);
  return child;
}

function stopAll(code = 0): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
  const stopped = shop ? shop.stop() : Promise.resolve();
  stopped.finally(() => setTimeout(() => process.exit(code), 500));
}

process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

const lagMs = process.argv.includes('--lag') ? parseLag(argValue('--lag')) : null;
const shopKind = argValue('--shop');
if (shopKind !== undefined && shopKind !== 'vendure') {
  console.error(`--shop: only vendure is wired into npm run dev (got "${shopKind}")`);
  process.exit(2);
}
ensureDevVars();
console.log('Preparing the PIM (migrations, demo seed, web build) and the demo shop connector ...');
let lagArgs: string[] = [];
if (lagMs === null) {
  await run('npm', ['run', 'db:migrate']);
  console.log(await run('npm', ['run', 'seed']));
} else {
  rmSync(LAG_STATE, { recursive: true, force: true });
  console.log(await prepareLagState(LAG_STATE));
  lagArgs = [...lagServerArgs(lagMs), '--persist-to', LAG_STATE];
}
await run('npm', ['run', 'build:web']);
start('connector', ['run', 'connector:dev']);
start('pim', ['exec', '--', 'wrangler', 'dev', '--ip', '127.0.0.1', '--port', '8787', '--test-scheduled', ...lagArgs]);
console.log('PIM: http://127.0.0.1:8787   demo shop connector: http://127.0.0.1:8788   (Ctrl-C stops both)');
if (shopKind === 'vendure') {
  try {
    shop = await startDevShop();
    if (stopping) await shop.stop();
    else for (const line of shop.notes) console.log(`[vendure] ${line}`);
  } catch (err) {
    console.error(`[vendure] ${err instanceof Error ? err.message : err}`);
    stopAll(1);
  }
} else {
  await resetDemoShop().catch((err) => console.error(`[pim] ${err instanceof Error ? err.message : err}`));
}
if (lagMs !== null)
  console.log(
    `Simulated replica lag: ${lagMs} ms. A read without a bookmark sees the data as of then (docs/scaling.md section 6).`,
  );
