import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, join } from 'node:path';

const ROOT = process.cwd();
export const childEnv = { ...process.env, WRANGLER_SEND_METRICS: 'false' };

/** Runs a command to completion; rejects with its output when it fails. */
export function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} failed:\n${output}`)),
    );
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Applies the PIM's migrations to its directory and every tenant cell (docs/scaling.md section 5;
 * or with `config`, those of that Worker, e.g. the connector's, to its DB) in a local state dir.
 */
export async function migrate(persistTo: string, config?: string): Promise<string> {
  if (existsSync(persistTo) && readdirSync(persistTo).length > 0) return applyMigrations(persistTo, config);
  // An empty state dir gets a copy of a migrated one: applying every migration to three
  // databases through wrangler takes one to three minutes on this machine, a copy milliseconds,
  // and the e2e suite, the benchmarks and `npm run dev` migrate a fresh dir many times.
  const cache = join(MIGRATED_CACHE, migrationsFingerprint(config));
  let out = '';
  if (!existsSync(join(cache, READY))) {
    const scratch = `${cache}.${process.pid}.${Date.now()}`;
    try {
      out = await applyMigrations(scratch, config);
      writeFileSync(join(scratch, READY), '');
      rmSync(cache, { recursive: true, force: true });
      renameSync(scratch, cache);
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      // another process finished the same cache first: use it
      if (!existsSync(join(cache, READY))) throw error;
    }
  }
  cpSync(cache, persistTo, { recursive: true, filter: (from) => basename(from) !== READY });
  return out;
}

/** Migrated empty states by fingerprint, under node_modules (never in git, gone with a fresh install). */
const MIGRATED_CACHE = join(ROOT, 'node_modules', '.cache', 'pim-migrated');
const READY = '.migrated';

/** What a migrated state depends on: the Worker's config, its migrations and the wrangler that applied them. */
function migrationsFingerprint(config = 'wrangler.toml'): string {
  const toml = readFileSync(join(ROOT, config), 'utf8');
  const dir = join(ROOT, dirname(config), /^migrations_dir\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? 'migrations');
  const hash = createHash('sha256').update(config).update(toml);
  hash.update(readFileSync(join(ROOT, 'node_modules', 'wrangler', 'package.json')));
  for (const name of readdirSync(dir).sort())
    if (name.endsWith('.sql')) hash.update(name).update(readFileSync(join(dir, name)));
  return hash.digest('hex').slice(0, 16);
}

async function applyMigrations(persistTo: string, config?: string): Promise<string> {
  let out = '';
  for (const binding of config ? ['DB'] : ['DB', 'CELL_2', 'CELL_3']) {
    out += await run('npm', [
      'exec',
      '--',
      'wrangler',
      'd1',
      'migrations',
      'apply',
      binding,
      '--local',
      ...(config ? ['--config', config] : []),
      '--persist-to',
      persistTo,
    ]);
  }
  return out;
}

/** What scripts/seed-synthetic.ts prints about the catalog it made (its last JSON line). */
export interface Seeded {
  companyId: string;
  departmentId: string;
  catalogId: string;
  email: string;
  password: string;
  masters: number;
  variants: number;
}

/** Seeds a synthetic catalog of `masters` master products into a migrated local state dir (npm run seed:synthetic). */
export async function seedSyntheticCatalog(
  persistTo: string,
  masters: number,
  extras = false,
  languages: string[] = [],
): Promise<Seeded> {
  const out = await run('npm', [
    'run',
    '--silent',
    'seed:synthetic',
    '--',
    '--products',
    String(masters),
    '--persist-to',
    persistTo,
    ...(extras ? ['--extras'] : []),
    ...(languages.length > 0 ? ['--languages', languages.join(',')] : []),
  ]);
  const last = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (!last) throw new Error(`seed:synthetic printed no result:\n${out}`);
  return JSON.parse(last) as Seeded;
}

export interface DevServer {
  baseUrl: string;
  /** The npm process that runs wrangler (leader of its process group). */
  child: ChildProcess;
  stop(): void;
}

/**
 * Starts `wrangler dev` on a free loopback port over the given state dir, from `cwd` (default
 * the repository) with any extra wrangler flags.
 */
export async function startDevServer(
  persistTo: string,
  options: { cwd?: string; args?: string[] } = {},
): Promise<DevServer> {
  // wrangler refuses to start without wrangler.toml's [assets] directory: build the web app once.
  if ((options.cwd ?? ROOT) === ROOT && !existsSync(join(ROOT, 'dist', 'web', 'index.html')))
    await run('npm', ['run', 'build:web']);
  // DEV_PORT / DEV_INSPECTOR_PORT: engineers sharing one machine keep to their own port range
  const port = process.env.DEV_PORT ? Number(process.env.DEV_PORT) : await freePort();
  const inspector = process.env.DEV_INSPECTOR_PORT ? ['--inspector-port', process.env.DEV_INSPECTOR_PORT] : [];
  const child: ChildProcess = spawn(
    'npm',
    [
      'exec',
      '--',
      'wrangler',
      'dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      persistTo,
      ...inspector,
      ...(options.args ?? []),
    ],
    { cwd: options.cwd ?? ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  await new Promise<void>((resolve, reject) => {
    let output = '';
    // A server that does not come up is stopped: the caller gets no handle to stop it, and its
    // wrangler and workerd would keep their ports (an inspector port blocks the next run).
    const fail = (reason: string) => {
      stop();
      reject(new Error(`${reason}:\n${output}`));
    };
    const timer = setTimeout(() => fail('wrangler dev did not start'), 90_000);
    const onData = (data: Buffer) => {
      output += data;
      if (output.includes('Ready on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    // PIM_DEV_LOG=file keeps the server's output (the Worker's console.error lines) for a benchmark run.
    const log = process.env.PIM_DEV_LOG;
    if (log)
      for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => appendFileSync(log, d));
    child.on('exit', (code) => fail(`wrangler dev exited with ${code}`));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child, stop };
}
