import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

const ROOT = process.cwd();
const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' };

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The seeded state depends on the schema, the seed and the domain code: cache it by their hash. */
function stateFingerprint(): string {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(join(ROOT, 'migrations')), ...filesUnder(join(ROOT, 'scripts')), ...filesUnder(join(ROOT, 'src'))].sort()) {
    hash.update(file).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed:\n${output}`))));
  });
}

async function seededState(): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'pim-e2e', stateFingerprint());
  if (!existsSync(join(cache, 'ready'))) {
    rmSync(cache, { recursive: true, force: true });
    await run('npm', ['exec', '--', 'wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', cache]);
    await run('npm', ['run', 'seed', '--', '--persist-to', cache]);
    cpSync(join(ROOT, 'package.json'), join(cache, 'ready'));
  }
  const dir = mkdtempSync(join(tmpdir(), 'pim-e2e-'));
  cpSync(cache, dir, { recursive: true });
  return dir;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function startWrangler(port: number, persistTo: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['exec', '--', 'wrangler', 'dev', '--ip', '127.0.0.1', '--port', String(port), '--persist-to', persistTo], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`wrangler dev did not start:\n${output}`)), 90_000);
    const onData = (data: Buffer) => {
      output += data;
      if (output.includes('Ready on')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`wrangler dev exited with ${code}:\n${output}`)));
  });
}

/**
 * Starts `wrangler dev` on a free port with a fresh copy of the seeded demo state and hands
 * its URL to the tests (`inject('baseUrl')`, `process.env.E2E_BASE_URL`).
 */
export default async function setup(project: TestProject) {
  const persistTo = await seededState();
  const port = await freePort();
  const child = await startWrangler(port, persistTo);
  const baseUrl = `http://127.0.0.1:${port}`;
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_PERSIST_DIR = persistTo;
  project.provide('baseUrl', baseUrl);
  project.provide('persistDir', persistTo);
  return async () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    rmSync(persistTo, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    persistDir: string;
  }
}
