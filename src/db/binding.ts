import { simulatedReplica } from './simulated-replica';

/** The bindings that decide which database a unit of work talks to. */
export interface DatabaseBindings {
  DB: D1Database;
  /**
   * Tests and local trials only: a second database that plays a lagging read replica of DB.
   * Cell `cell-<n>` (`CELL_<n>`) gets its own the same way: `CELL_<n>_REPLICA_SIM`.
   */
  DB_REPLICA_SIM?: D1Database;
  /**
   * Local trials only (`npm run dev -- --lag 3s`): milliseconds by which the simulated replicas
   * trail their primaries. Absent (the tests): they trail until a bookmark demands more.
   */
  REPLICA_SIM_LAG_MS?: string;
}

/** The simulated replicas' lag in ms: `REPLICA_SIM_LAG_MS`, or Infinity when unset or not a number. */
export function simulatedLagOf(env: DatabaseBindings): number {
  const ms = env.REPLICA_SIM_LAG_MS === undefined ? Number.NaN : Number(env.REPLICA_SIM_LAG_MS);
  return Number.isFinite(ms) && ms >= 0 ? ms : Number.POSITIVE_INFINITY;
}

const simulated = new WeakMap<D1Database, D1Database>();

/**
 * `primary` behind its simulated lagging replica when one is bound, else `primary` itself.
 * One wrapper per replica binding, so drizzle's handle caches hold.
 */
export function withSimulatedReplica(
  primary: D1Database,
  replica: D1Database | undefined,
  lagMs = Number.POSITIVE_INFINITY,
): D1Database {
  if (!replica) return primary;
  let wrapped = simulated.get(replica);
  if (!wrapped) {
    wrapped = simulatedReplica(primary, replica, lagMs);
    simulated.set(replica, wrapped);
  }
  return wrapped;
}

/**
 * The one place that picks the D1 binding every request, job and MCP session opens its session
 * on in the directory (cell-1): `DB`, or `DB` behind a simulated lagging replica when
 * `DB_REPLICA_SIM` is bound (src/db/simulated-replica.ts). Further cells: `cellDatabase`
 * (src/db/cells.ts), which wraps `CELL_<n>` the same way.
 */
export function databaseOf(env: DatabaseBindings): D1Database {
  return withSimulatedReplica(env.DB, env.DB_REPLICA_SIM, simulatedLagOf(env));
}
