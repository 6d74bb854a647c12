/**
 * A D1 binding with a read replica that lags, for tests and local trials (`DB_REPLICA_SIM`;
 * docs/scaling.md). Local D1 has one copy, so a request that ignores bookmarks could never be
 * caught reading stale data; this wrapper makes lag real:
 *
 * - every write runs on the primary (`DB`) in one batch with an entry of a replication log
 *   kept there, so the log's order is the primary's commit order and its sequence number is
 *   the bookmark;
 * - every read runs on the replica (a second database), which replays the log only as far as a
 *   bookmark demands: a session that started unconstrained reads the replica as it is, however
 *   old; one that brought a bookmark first replays up to it; one that wrote reads the primary;
 * - with a finite `lagMs` (`npm run dev -- --lag 3s`) the replica also catches up on its own, the
 *   way a real one does: before a session's first read it replays every entry committed more
 *   than `lagMs` ago, so an unconstrained read sees the primary as of `lagMs` before, and a
 *   bookmark newer than that is read on the primary (`laggingCopy`). The tests keep the default
 *   (Infinity): the replica stays where it is until a bookmark demands more;
 * - a "first-primary" session reads the primary and takes its head as bookmark.
 *
 * Writes made to `DB` around this wrapper never reach the replica: code that bypasses the
 * session shows up as missing rows.
 */
import { headAsOf, replicaAt, logWrite, primaryHead } from './simulated-log';

const PREFIX = 'sim-';
export const formatSimBookmark = (seq: number) => `${PREFIX}${seq.toString(16).padStart(12, '0')}`;
function parseSimBookmark(bookmark: string): number | null {
  if (!bookmark.startsWith(PREFIX)) return null;
  const seq = Number.parseInt(bookmark.slice(PREFIX.length), 16);
  return Number.isSafeInteger(seq) ? seq : null;
}

/** Whether a statement only reads (a read-only batch may be served by the replica). */
const READ = /^\s*(select|with)\b/i;
const WRITE_WORD = /\b(insert|update|delete|replace)\b/i;
export const isRead = (sql: string) => READ.test(sql) && !(sql.trimStart()[0] === 'w' && WRITE_WORD.test(sql));

type Method = 'all' | 'run' | 'first' | 'raw';

class SimStatement {
  constructor(
    readonly owner: SimSession,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}
  bind(...values: unknown[]) {
    return new SimStatement(this.owner, this.sql, values);
  }
  all() {
    return this.owner.one(this, 'all');
  }
  run() {
    return this.owner.one(this, 'run');
  }
  first(column?: string) {
    return this.owner.one(this, 'first', column);
  }
  raw(options?: { columnNames?: boolean }) {
    return this.owner.one(this, 'raw', options);
  }
}

class SimSession {
  private seq: number | null;
  private primaryFirst: boolean;
  /** After its own write a session reads the primary (the write is on no replica yet). */
  private wrote = false;
  /** The replica's position when this session last looked: it never goes back, so no need to ask again. */
  private replicaSeen = -1;

  constructor(
    private readonly primary: D1Database,
    private readonly replica: D1Database,
    start: string | undefined,
    private readonly lagMs: number,
  ) {
    this.primaryFirst = start === 'first-primary';
    this.seq = start && start !== 'first-primary' && start !== 'first-unconstrained' ? parseSimBookmark(start) : null;
  }

  prepare(sql: string) {
    return new SimStatement(this, sql);
  }

  getBookmark(): string | null {
    return this.seq === null ? null : formatSimBookmark(this.seq);
  }

  async batch(statements: SimStatement[]): Promise<D1Result[]> {
    if (statements.every((s) => isRead(s.sql))) {
      const db = await this.readCopy();
      return db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)));
    }
    const { seq, results } = await logWrite(this.primary, statements);
    this.seq = Math.max(this.seq ?? 0, seq);
    this.wrote = true;
    return results;
  }

  async one(statement: SimStatement, method: Method, arg?: unknown): Promise<any> {
    if (isRead(statement.sql)) {
      const db = await this.readCopy();
      const bound = db.prepare(statement.sql).bind(...statement.params);
      return method === 'first'
        ? bound.first(arg as string)
        : method === 'raw'
          ? bound.raw(arg as any)
          : bound[method]();
    }
    const [result] = await this.batch([statement]);
    if (method === 'all' || method === 'run') return result;
    const rows = (result!.results ?? []) as Record<string, unknown>[];
    if (method === 'first') return rows[0] === undefined ? null : arg ? rows[0][arg as string] : rows[0];
    const values = rows.map((row) => Object.values(row));
    return (arg as { columnNames?: boolean })?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
  }

  exec(sql: string) {
    return this.primary.exec(sql);
  }

  /** The copy this session reads: the primary when asked, else the replica brought up to the session's bookmark. */
  private async readCopy(): Promise<D1Database> {
    // A replica without lag holds what the primary holds: read there (the lag mode's seed does
    // this, and replays the log into the replicas once at its end).
    if (this.wrote || this.lagMs === 0) return this.primary;
    if (this.primaryFirst) {
      this.primaryFirst = false;
      this.seq = Math.max(this.seq ?? 0, await primaryHead(this.primary));
      return this.primary;
    }
    if (Number.isFinite(this.lagMs)) return this.laggingCopy();
    if (this.replicaSeen < 0 || this.replicaSeen < (this.seq ?? 0)) {
      this.replicaSeen = await replicaAt(this.primary, this.replica, this.seq ?? 0);
      this.seq = Math.max(this.seq ?? 0, this.replicaSeen);
    }
    return this.replica;
  }

  /**
   * With a lag in time the replica is where the clock puts it, never further: its first read in
   * a session replays what is older than the lag (once, so the session reads one consistent
   * copy). A bookmark newer than that is served by the primary, as D1 does when the nearest
   * replica is behind, so one client's bookmark never makes the replica fresh for the others.
   */
  private async laggingCopy(): Promise<D1Database> {
    if (this.replicaSeen < 0) {
      const due = await headAsOf(this.primary, Date.now() - this.lagMs);
      this.replicaSeen = await replicaAt(this.primary, this.replica, due);
    }
    if (this.replicaSeen < (this.seq ?? 0)) {
      this.wrote = true; // from now on this session stays on the primary
      return this.primary;
    }
    this.seq = Math.max(this.seq ?? 0, this.replicaSeen);
    return this.replica;
  }
}

/**
 * `DB` with a lagging replica in `replica`, shaped like a D1 binding (sessions included).
 * `lagMs`: how far behind the primary an unconstrained read may be (Infinity: as far as it is).
 */
export function simulatedReplica(
  primary: D1Database,
  replica: D1Database,
  lagMs = Number.POSITIVE_INFINITY,
): D1Database {
  const session = () => new SimSession(primary, replica, undefined, lagMs);
  const binding = {
    withSession: (start?: string) => new SimSession(primary, replica, start, lagMs),
    prepare: (sql: string) => session().prepare(sql),
    batch: (statements: SimStatement[]) => session().batch(statements),
    exec: (sql: string) => primary.exec(sql),
    dump: () => primary.dump(),
  };
  return binding as unknown as D1Database;
}

/** Brings the replica up to the primary (a test's setup starts from replicas in sync). */
export async function syncReplica(primary: D1Database, replica: D1Database): Promise<void> {
  await replicaAt(primary, replica, await primaryHead(primary));
}
