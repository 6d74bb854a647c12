import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LocalPostgres, startPostgres } from '../lib/postgres';

/**
 * Starts the local Vendure shop (server.mjs) as a child process and answers once its Admin API
 * is set up, for the adapter's tests and `npm run shop:vendure`. Nothing here reaches the
 * network: Vendure, sql.js and the setup run from shops/vendure/node_modules.
 *
 * The database is sql.js (the default: nothing to install, the tests' shop) or, with
 * `db: 'postgres'` or `VENDURE_DB=postgres`, Debian's PostgreSQL 15 in `<dataDir>/pg`
 * (shops/lib/postgres.ts, as for Medusa) on `pgPort` / `VENDURE_PG_PORT` or a free port.
 * sql.js keeps the whole catalog in memory and writes it out whole, so it slows as the
 * catalog grows (docs/benchmarks.md "Real shops"); PostgreSQL is for catalogs of 10,000.
 */
export type VendureDb = 'sqljs' | 'postgres';

/** The database `VENDURE_DB` names (`sqljs` when unset); anything else is an error, not a silent default. */
export function vendureDbFromEnv(value = process.env.VENDURE_DB): VendureDb {
  if (!value || value === 'sqljs') return 'sqljs';
  if (value === 'postgres') return 'postgres';
  throw new Error(`VENDURE_DB must be sqljs or postgres, not "${value}"`);
}

export interface VendureShop {
  adminApiUrl: string;
  username: string;
  password: string;
  port: number;
  db: VendureDb;
  stop(): Promise<void>;
}

/** The superadmin server.mjs creates; local use only. */
export const VENDURE_CREDENTIALS = { username: 'superadmin', password: 'superadmin-local' } as const;

const here = path.dirname(fileURLToPath(import.meta.url));
const READY = /VENDURE_READY (\S+)/;

/** Vendure 3.7's dependencies want Node >= 22.15: the project's own Node (the `node` devDependency) when installed. */
function nodeBinary(): string {
  const projectNode = path.resolve(here, '../../node_modules/.bin/node');
  return existsSync(projectNode) ? projectNode : process.execPath;
}

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startVendure(options: {
  port?: number;
  dataDir: string;
  timeoutMs?: number;
  db?: VendureDb;
  /** PostgreSQL's port with `db: 'postgres'`: VENDURE_PG_PORT, else a free one. */
  pgPort?: number;
}): Promise<VendureShop> {
  if (!existsSync(path.join(here, 'node_modules', '@vendure', 'core'))) {
    throw new Error('Vendure is not installed: run `npm run shops:install`');
  }
  const port = options.port ?? (await freePort());
  const db = options.db ?? vendureDbFromEnv();
  let pg: LocalPostgres | null = null;
  if (db === 'postgres') {
    const pgPort = options.pgPort ?? (Number(process.env.VENDURE_PG_PORT) || (await freePort()));
    pg = await startPostgres(path.resolve(options.dataDir), pgPort, 'vendure');
  }
  const child = spawn(
    nodeBinary(),
    [
      path.join(here, 'server.mjs'),
      '--port',
      String(port),
      '--data',
      options.dataDir,
      ...(pg ? ['--db-url', pg.url] : []),
    ],
    {
      cwd: here,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'development' },
    },
  );
  const stop = async () => {
    await stopChild(child);
    await pg?.stop();
  };
  let output = '';
  try {
    const adminApiUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `Vendure did not start within ${(options.timeoutMs ?? 240_000) / 1000} s:\n${output.slice(-2000)}`,
            ),
          ),
        options.timeoutMs ?? 240_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const ready = READY.exec(output);
        if (ready?.[1]) {
          clearTimeout(timer);
          resolve(ready[1]);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`Vendure exited with code ${code} before it was ready:\n${output.slice(-2000)}`));
      });
    });
    return { adminApiUrl, ...VENDURE_CREDENTIALS, port, db, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
