/**
 * The replication log behind the simulated replica (simulated-replica.ts): on the primary, one
 * row per committed write batch, written in that batch with its commit time (`at`, ms, for the
 * time-based lag of `npm run dev -- --lag`); on the replica, the sequence numbers it has
 * replayed. Only tests and local trials with `DB_REPLICA_SIM` ever create these tables.
 */
const LOG_TABLE =
  'CREATE TABLE IF NOT EXISTS _sim_replication_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, statements TEXT NOT NULL, at INTEGER NOT NULL DEFAULT 0)';
/** `prev` must be the last applied entry, so two replays of one entry cannot both commit. */
const APPLIED_TABLE =
  'CREATE TABLE IF NOT EXISTS _sim_replica_applied (seq INTEGER PRIMARY KEY, prev INTEGER NOT NULL, CHECK (prev = seq - 1))';

interface Logged {
  sql: string;
  params: unknown[];
}

/** Blobs survive the JSON log as `{ $bytes: [...] }`. */
function encode(statements: Logged[]): string {
  return JSON.stringify(
    statements.map(({ sql, params }) => ({ sql, params })),
    (_key, value) =>
      value instanceof ArrayBuffer || ArrayBuffer.isView(value)
        ? { $bytes: Array.from(new Uint8Array(value instanceof ArrayBuffer ? value : value.buffer)) }
        : value,
  );
}

function decode(text: string): Logged[] {
  return JSON.parse(text, (_key, value) =>
    value && typeof value === 'object' && Array.isArray(value.$bytes) ? new Uint8Array(value.$bytes).buffer : value,
  );
}

/** Runs write statements on the primary with their log entry in the same transaction. */
export async function logWrite(
  primary: D1Database,
  statements: Logged[],
): Promise<{ seq: number; results: D1Result[] }> {
  const all = await primary.batch([
    primary.prepare(LOG_TABLE),
    ...statements.map((s) => primary.prepare(s.sql).bind(...s.params)),
    primary
      .prepare('INSERT INTO _sim_replication_log (statements, at) VALUES (?, ?) RETURNING seq')
      .bind(encode(statements), Date.now()),
  ]);
  const seq = (all.at(-1)!.results[0] as { seq: number }).seq;
  return { seq, results: all.slice(1, -1) };
}

export async function primaryHead(primary: D1Database): Promise<number> {
  const [, head] = await primary.batch([
    primary.prepare(LOG_TABLE),
    primary.prepare('SELECT coalesce(max(seq), 0) AS seq FROM _sim_replication_log'),
  ]);
  return (head!.results[0] as { seq: number }).seq;
}

/** The last entry committed at or before `time` (ms): where a replica that lags by `now - time` stands. */
export async function headAsOf(primary: D1Database, time: number): Promise<number> {
  const [, head] = await primary.batch([
    primary.prepare(LOG_TABLE),
    // Newest first: only the entries inside the lag window are passed over.
    primary.prepare('SELECT seq FROM _sim_replication_log WHERE at <= ? ORDER BY seq DESC LIMIT 1').bind(time),
  ]);
  return (head!.results[0] as { seq: number } | undefined)?.seq ?? 0;
}

async function appliedSeq(replica: D1Database): Promise<number> {
  const [, row] = await replica.batch([
    replica.prepare(APPLIED_TABLE),
    replica.prepare('SELECT coalesce(max(seq), 0) AS seq FROM _sim_replica_applied'),
  ]);
  return (row!.results[0] as { seq: number }).seq;
}

/** One replay at a time per isolate (a concurrent one elsewhere is caught by the CHECK). */
let replaying: Promise<unknown> = Promise.resolve();

/**
 * Brings the replica to at least `target` by replaying the log in order, one transaction per
 * entry; answers the replica's position (which may be past `target`).
 */
export function replicaAt(primary: D1Database, replica: D1Database, target: number): Promise<number> {
  const run = replaying.then(async () => {
    let applied = await appliedSeq(replica);
    if (applied >= target) return applied;
    const { results } = await primary
      .prepare('SELECT seq, statements FROM _sim_replication_log WHERE seq > ? AND seq <= ? ORDER BY seq')
      .bind(applied, target)
      .all<{ seq: number; statements: string }>();
    for (const entry of results) {
      const statements = decode(entry.statements);
      try {
        await replica.batch([
          replica.prepare('INSERT INTO _sim_replica_applied (seq, prev) VALUES (?, ?)').bind(entry.seq, applied),
          ...statements.map((s) => replica.prepare(s.sql).bind(...s.params)),
        ]);
      } catch (err) {
        // Another isolate replayed it first: carry on from where the replica really is.
        const now = await appliedSeq(replica);
        if (now < entry.seq) throw err;
      }
      applied = entry.seq;
    }
    return applied;
  });
  replaying = run.catch(() => undefined);
  return run;
}
