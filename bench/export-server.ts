import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, run, startDevServer } from '../scripts/lib/dev-server';

/**
 * `wrangler dev` for the export benchmark, run from a snapshot of the source tree: wrangler
 * reloads the Worker when a watched file changes, and a reload in the middle of a 100,000-
 * product export would abort it. The snapshot keeps the measured code fixed.
 */
export async function startSnapshotServer(
  persistTo: string,
  extraArgs: string[] = [],
  options: { config?: string; entries?: string[] } = {},
) {
  const root = process.cwd();
  const snapshot = mkdtempSync(join(tmpdir(), 'pim-bench-src-'));
  for (const entry of [
    'src',
    'migrations',
    'wrangler.toml',
    'package.json',
    'tsconfig.json',
    ...(options.entries ?? []),
  ])
    cpSync(join(root, entry), join(snapshot, entry), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(snapshot, 'node_modules'));
  // wrangler refuses to start without wrangler.toml's [assets] directory (a fresh clone has no build).
  if (!existsSync(join(root, 'dist', 'web', 'index.html'))) await run('npm', ['run', 'build:web']);
  cpSync(join(root, 'dist'), join(snapshot, 'dist'), { recursive: true });
  const inspectorPort = await freePort();
  const server = await startDevServer(persistTo, {
    cwd: snapshot,
    args: [
      ...(options.config ? ['--config', options.config] : []),
      '--inspector-port',
      String(inspectorPort),
      ...extraArgs,
    ],
  });
  const child = server.child;
  /**
   * The workerd process that runs the Worker (wrangler's child started with an inspector), with
   * the fields of its /proc stat after the command name (state, ppid, ..., utime, stime).
   */
  function* inspectedWorkerd(): Generator<{ pid: string; fields: string[] }> {
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[2]) !== child.pid || !stat.includes('(workerd)')) continue;
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--inspector-addr')) continue;
        yield { pid, fields };
      } catch {
        // The process ended between listing and reading.
      }
    }
  }
  return {
    baseUrl: server.baseUrl,
    inspectorPort,
    /**
     * Resident memory (KiB) of the workerd runtime that runs the Worker (the one wrangler
     * starts with an inspector): the isolate together with local D1, R2 and Queues.
     */
    rssKiB(): number {
      let total = 0;
      for (const { pid } of inspectedWorkerd()) {
        try {
          const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
          total += rss ? Number(rss[1]) : 0;
        } catch {
          // The process ended between listing and reading.
        }
      }
      return total;
    },
    /**
     * CPU seconds (user + system) the same workerd process has used: the Worker and local D1
     * together. Differences over a run measure the work, whatever share of the machine it got.
     */
    cpuSeconds(): number {
      let ticks = 0;
      for (const { fields } of inspectedWorkerd()) ticks += Number(fields[11]) + Number(fields[12]);
      return ticks / 100;
    },
    /**
     * CPU seconds per thread of the same workerd process, by thread name and id: the
     * Worker's JS thread apart from the threads of local D1 (SQLite) and R2.
     */
    cpuSecondsByThread(): Map<string, number> {
      const out = new Map<string, number>();
      for (const { pid } of inspectedWorkerd()) {
        try {
          for (const tid of readdirSync(`/proc/${pid}/task`)) {
            const t = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
            const name = t.slice(t.indexOf('(') + 1, t.lastIndexOf(')'));
            const f = t.slice(t.lastIndexOf(')') + 2).split(' ');
            out.set(`${name}#${tid}`, (Number(f[11]) + Number(f[12])) / 100);
          }
        } catch {
          // The process or thread ended between listing and reading.
        }
      }
      return out;
    },
    stop() {
      server.stop();
      rmSync(snapshot, { recursive: true, force: true });
    },
  };
}

/**
 * The CPU seconds each workerd thread used between two `cpuSecondsByThread()` readings, busiest
 * first, as one line ("worker#12 41.2 s, sqlite#15 9.8 s"); threads under 0.05 s are left out.
 */
export function threadCpuSince(now: Map<string, number>, before: Map<string, number>): string {
  return [...now]
    .map(([thread, s]) => [thread, s - (before.get(thread) ?? 0)] as const)
    .filter(([, s]) => s >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([t, s]) => `${t} ${s.toFixed(1)} s`)
    .join(', ');
}
