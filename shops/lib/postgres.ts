import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Debian's PostgreSQL 15 for the local test shops (Medusa always, Vendure with
 * `VENDURE_DB=postgres`): a cluster made by `initdb` in the shop's data directory, started by
 * `pg_ctl` on its own port (127.0.0.1 only, a socket in the data directory, fsync off: a test
 * shop's data may be lost on a crash), and a database created in it. Idempotent: a second start
 * on the same data directory reuses the cluster and the database.
 *
 * PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user that
 * Debian's package creates (`runuser`), and the data directory is handed to it.
 */
export interface LocalPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust authentication, local only). */
  url: string;
  port: number;
  database: string;
  stop(): Promise<void>;
}

const PG_BIN_DIRS = [process.env.PG_BIN, '/usr/lib/postgresql/15/bin'].filter((d): d is string => !!d);

function pgBin(name: string): string {
  for (const dir of PG_BIN_DIRS) if (existsSync(join(dir, name))) return join(dir, name);
  return name;
}

export interface Run {
  code: number | null;
  output: string;
}

/** Runs a command to its end; answers its exit code and output (stdout + stderr). */
export function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; asPostgres?: boolean } = {},
): Promise<Run> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = opts.asPostgres && asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return new Promise<Run>((done, fail) => {
    const child = spawn(file, argv, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      output += b.toString();
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, output }));
  });
}

/** The command's output, or an error with its last lines when it failed. */
export async function must(what: string, result: Promise<Run>): Promise<string> {
  const r = await result;
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}):\n${r.output.slice(-4000)}`);
  return r.output;
}

/** Starts (making it first if needed) the cluster in `<dataDir>/pg` on `port` and creates `database` in it. */
export async function startPostgres(dataDir: string, port: number, database: string): Promise<LocalPostgres> {
  const pgData = join(dataDir, 'pg');
  const asRoot = process.getuid?.() === 0;
  mkdirSync(pgData, { recursive: true });
  if (asRoot) {
    const uid = Number((await must('id postgres', run('id', ['-u', 'postgres']))).trim());
    const gid = Number((await must('id postgres', run('id', ['-g', 'postgres']))).trim());
    chownSync(dataDir, uid, gid);
    chownSync(pgData, uid, gid);
  }
  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    await must(
      'initdb',
      run(pgBin('initdb'), ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], {
        asPostgres: true,
      }),
    );
  }
  const pgOpts = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await must(
    'pg_ctl start',
    run(pgBin('pg_ctl'), ['-D', pgData, '-l', join(dataDir, 'postgres.log'), '-w', '-o', pgOpts, 'start'], {
      asPostgres: true,
    }),
  );
  const stop = async () => {
    await run(pgBin('pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', 'stop'], { asPostgres: true });
  };
  const created = await run(pgBin('createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);
  if (created.code !== 0 && !created.output.includes('already exists')) {
    await stop();
    throw new Error(`createdb failed: ${created.output}`);
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/${database}`, port, database, stop };
}
