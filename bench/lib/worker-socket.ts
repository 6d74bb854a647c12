import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { DevServer } from '../../scripts/lib/dev-server';

/**
 * The Worker's own socket under `wrangler dev`, past wrangler's dev proxy (docs/benchmarks.md
 * "Where a request's time goes"). `wrangler dev` runs two workerd processes: a proxy on the
 * address it prints (it holds requests while the Worker reloads) and the Worker itself on a
 * loopback port it does not print. Production has no such proxy, so `bench:api --direct` times
 * requests at the Worker's socket, found here: the listening loopback ports of the workerd
 * processes below the dev server, less the proxy's, and of those the one whose `/api/Account/Me`
 * answers as the Worker does without a session (401 with an `error`). Linux only (/proc).
 */
export async function workerSocketOf(server: DevServer): Promise<string> {
  const outer = Number(new URL(server.baseUrl).port);
  const pids = descendants(server.child.pid!).filter((pid) => comm(pid) === 'workerd');
  const listening = listeningPorts();
  const ports = pids.flatMap((pid) => socketInodes(pid).flatMap((inode) => listening.get(inode) ?? []));
  for (const port of new Set(ports)) {
    if (port === outer) continue;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/Account/Me`, { signal: AbortSignal.timeout(2000) });
      const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
      if (res.status === 401 && typeof body?.error === 'string') return `http://127.0.0.1:${port}`;
    } catch {
      // not an HTTP socket of the Worker (the inspector, the proxy's control port)
    }
  }
  throw new Error('--direct: no socket of the Worker found below wrangler dev');
}

/** Every process below `root` (children, their children, ...). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const [child, ppid] of parent) {
      if (ppid !== pid) continue;
      queue.push(child);
      found.push(child);
    }
  }
  return found;
}

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** The socket inodes a process holds open. */
function socketInodes(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? [];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** Listening TCP sockets on IPv4 loopback, by inode: their ports (/proc/net/tcp, state 0A). */
function listeningPorts(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || f[3] !== '0A') continue;
    const [address, port] = f[1]!.split(':');
    if (address === '0100007F') ports.set(f[9]!, Number.parseInt(port!, 16));
  }
  return ports;
}
