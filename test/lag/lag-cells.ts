import { env } from 'cloudflare:test';
import { placeCompany } from '../../src/db/cell-placement';
import { cellDatabase } from '../../src/db/cells';
import { createDb } from '../../src/db/client';
import { syncReplica } from '../../src/db/simulated-replica';
import { db } from '../helpers/factories';

/** Each cell's database and its lagging copy (vitest.lag.config.ts). */
export function replicaPairs(): { cell: string; primary: D1Database; replica: D1Database }[] {
  return [
    { cell: 'cell-1', primary: env.DB, replica: env.DB_REPLICA_SIM! },
    { cell: 'cell-2', primary: env.CELL_2, replica: env.CELL_2_REPLICA_SIM! },
    { cell: 'cell-3', primary: env.CELL_3, replica: env.CELL_3_REPLICA_SIM! },
  ];
}

/** Brings every cell's replica up to its primary (a test starts from replicas in sync). */
export async function allInSync(): Promise<void> {
  for (const { primary, replica } of replicaPairs()) await syncReplica(primary, replica);
}

/**
 * Places a fresh company in another cell through that cell's lagging wrapper, so its rows are
 * in the cell's replication log (rows written around the wrapper never reach the replica).
 */
export async function placeLagging(companyId: string, cell: 'cell-2' | 'cell-3'): Promise<void> {
  await placeCompany(db(), createDb(cellDatabase(env, cell)), cell, companyId);
}
