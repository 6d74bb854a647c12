import { simulatedReplica } from './simulated-replica';

/** The bindings that decide which database a unit of work talks to. */
export interface DatabaseBindings {
  DB: D1Database;
  /** Tests and local trials only: a second database that plays a lagging read replica of DB. */
  DB_REPLICA_SIM?: D1Database;
}

const simulated = new WeakMap<D1Database, D1Database>();

/**
 * The one place that picks the D1 binding every request, job and MCP session opens its session
 * on: `DB`, or `DB` behind a simulated lagging replica when `DB_REPLICA_SIM` is bound
 * (src/db/simulated-replica.ts). Same binding, same wrapper, so drizzle's handle caches hold.
 */
export function databaseOf(env: DatabaseBindings): D1Database {
  const replica = env.DB_REPLICA_SIM;
  if (!replica) return env.DB;
  let wrapped = simulated.get(replica);
  if (!wrapped) {
    wrapped = simulatedReplica(env.DB, replica);
    simulated.set(replica, wrapped);
  }
  return wrapped;
}
